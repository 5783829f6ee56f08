// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A synthetic proc tree for the folio measurement tests. Aborts on any
 * failure to build it: a broken fixture must not pass as a result.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure_fixture.h"

#define PM_PRESENT (1ULL << 63)

static void must(bool ok, const char *what)
{
	if (!ok) {
		perror(what);
		abort();
	}
}

void mfx_init(struct mfx *f, uint64_t page_size, size_t nr_pfns, size_t nr_vfns)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->root, sizeof(f->root), "/tmp/execfolio-proc.XXXXXX");
	must(mkdtemp(f->root) != NULL, "mkdtemp");
	f->page_size = page_size;
	f->nr_pfns = nr_pfns;
	f->nr_vfns = nr_vfns;
	f->kpf = calloc(nr_pfns, sizeof(*f->kpf));
	must(f->kpf != NULL, "calloc");
}

void mfx_cleanup(struct mfx *f)
{
	char cmd[128];
	size_t i;

	for (i = 0; i < f->nr_procs; i++)
		free(f->procs[i].pagemap);
	free(f->kpf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", f->root);
}

void mfx_folio(struct mfx *f, uint64_t pfn, unsigned int order, uint64_t extra)
{
	uint64_t nr = 1ULL << order, i, thp;

	must(pfn + nr <= f->nr_pfns, "mfx_folio: PFN out of range");
	thp = order && !(extra & MFX_NOT_THP) ? MFX_KPF_THP : 0;
	extra &= ~MFX_NOT_THP;
	for (i = 0; i < nr; i++) {
		f->kpf[pfn + i] = extra | thp;
		if (order)
			f->kpf[pfn + i] |= i ? MFX_KPF_TAIL : MFX_KPF_HEAD;
	}
}

struct mfx_proc *mfx_proc(struct mfx *f, int pid)
{
	struct mfx_proc *p = &f->procs[f->nr_procs++];

	must(f->nr_procs <= MFX_MAX_PROCS, "mfx_proc: too many");
	p->pid = pid;
	p->pagemap = calloc(f->nr_vfns, sizeof(*p->pagemap));
	must(p->pagemap != NULL, "calloc");
	return p;
}

void mfx_vma(struct mfx_proc *p, uint64_t start_vfn, uint64_t end_vfn,
	     const char *perms, unsigned long inode, uint64_t pmd_mapped_kb)
{
	struct mfx_vma *v = &p->vmas[p->nr_vmas++];

	must(p->nr_vmas <= MFX_MAX_VMAS, "mfx_vma: too many");
	v->start_vfn = start_vfn;
	v->end_vfn = end_vfn;
	snprintf(v->perms, sizeof(v->perms), "%s", perms);
	v->inode = inode;
	v->pmd_mapped_kb = pmd_mapped_kb;
	snprintf(v->path, sizeof(v->path), "%s", inode ? "/usr/bin/prog" : "");
}

void mfx_vma_path(struct mfx_proc *p, const char *path)
{
	must(p->nr_vmas > 0, "mfx_vma_path: no mapping");
	snprintf(p->vmas[p->nr_vmas - 1].path,
		 sizeof(p->vmas[p->nr_vmas - 1].path), "%s", path);
}

void mfx_map(struct mfx_proc *p, uint64_t vfn, uint64_t pfn, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		p->pagemap[vfn + i] = PM_PRESENT | (pfn + i);
}

static FILE *open_in(const struct mfx *f, int pid, const char *name)
{
	char path[128];
	FILE *out;

	if (pid) {
		snprintf(path, sizeof(path), "%s/%d", f->root, pid);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/%s", f->root, pid, name);
	} else {
		snprintf(path, sizeof(path), "%s/%s", f->root, name);
	}
	out = fopen(path, "w");
	must(out != NULL, path);
	return out;
}

static void write_smaps(const struct mfx *f, const struct mfx_proc *p)
{
	FILE *out = open_in(f, p->pid, "smaps");
	size_t i;

	for (i = 0; i < p->nr_vmas; i++) {
		const struct mfx_vma *v = &p->vmas[i];
		uint64_t rss = 0, anon = 0, vfn;

		for (vfn = v->start_vfn; vfn < v->end_vfn; vfn++) {
			uint64_t e = p->pagemap[vfn];

			if (!(e & PM_PRESENT))
				continue;
			rss += f->page_size / 1024;
			if (f->kpf[e & ~PM_PRESENT] & MFX_KPF_ANON)
				anon += f->page_size / 1024;
		}
		fprintf(out, "%08llx-%08llx %s 00000000 08:01 %lu%s%s\n",
			(unsigned long long)(v->start_vfn * f->page_size),
			(unsigned long long)(v->end_vfn * f->page_size),
			v->perms, v->inode, *v->path ? "   " : "", v->path);
		fprintf(out, "Size:           %8llu kB\n",
			(unsigned long long)((v->end_vfn - v->start_vfn) *
					     f->page_size / 1024));
		fprintf(out, "Rss:            %8llu kB\n",
			(unsigned long long)rss);
		fprintf(out, "Pss:            %8llu kB\n",
			(unsigned long long)rss);
		fprintf(out, "Anonymous:      %8llu kB\n",
			(unsigned long long)anon);
		fprintf(out, "AnonHugePages:         0 kB\n");
		fprintf(out, "ShmemPmdMapped:        0 kB\n");
		fprintf(out, "FilePmdMapped:  %8llu kB\n",
			(unsigned long long)v->pmd_mapped_kb);
		fprintf(out, "VmFlags: rd ex mr mw me\n");
	}
	must(fclose(out) == 0, "smaps");
}

void mfx_write(struct mfx *f)
{
	size_t i;
	FILE *out;

	out = open_in(f, 0, "kpageflags");
	must(fwrite(f->kpf, sizeof(*f->kpf), f->nr_pfns, out) == f->nr_pfns,
	     "kpageflags");
	must(fclose(out) == 0, "kpageflags");
	for (i = 0; i < f->nr_procs; i++) {
		const struct mfx_proc *p = &f->procs[i];

		write_smaps(f, p);
		out = open_in(f, p->pid, "pagemap");
		must(fwrite(p->pagemap, sizeof(*p->pagemap), f->nr_vfns, out) ==
			     f->nr_vfns,
		     "pagemap");
		must(fclose(out) == 0, "pagemap");
	}
}
