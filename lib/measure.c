// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Folio measurement of processes: for each executable file mapping in
 * smaps, its pagemap entries are read in large batches, the flags of their
 * folios come from the kpageflags cache, and the accounting adds the mapping
 * to the aggregate, skipping physical pages already counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <execfolio/kernel.h>

#include "measure_internal.h"

/* pagemap entries per pread: 512 KiB, 256 MiB of address space. */
#define PAGEMAP_BATCH 65536

struct execfolio_measure {
	int proc_fd;
	char *proc_root;
	struct kpf_cache kpf;
	struct pfnset seen;
	struct execfolio_stat st;
	size_t max_pids;
	/* One mapping's pages; reused. */
	uint64_t *pm, *flags;
	bool *is_new;
	size_t cap;
	/* PFNs the process being measured added to @seen, to roll back. */
	uint64_t *added;
	size_t nr_added, max_added;
	/* execfolio_measure_each_mapping(), and its mappings' counts. */
	execfolio_mapping_fn each_mapping;
	void *each_mapping_arg;
	struct execfolio_stat *vma_st;
	size_t max_vma_st;
};

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * What to do about a refused open or read. "Run as root" helps only those
 * who are not: root is refused when the capabilities root normally has were
 * dropped (setpriv, capsh, a container's user namespace) or when a security
 * module says no.
 */
static const char *privilege_hint(void)
{
	if (geteuid())
		return "run as root (needs CAP_SYS_ADMIN)";
	return "the process runs as root but lacks capabilities root normally has (CAP_SYS_ADMIN, CAP_DAC_OVERRIDE, CAP_SYS_PTRACE: dropped, or a container's user namespace), or a security module refuses";
}

/* "Permission denied (EACCES)" for messages: the errno by name too. */
static const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "?";
}

uint64_t execfolio_stat_sum(const uint64_t *by_order, unsigned int max_order)
{
	uint64_t sum = 0;
	unsigned int o;

	for (o = 0; o <= max_order && o <= EXECFOLIO_MAX_ORDER; o++)
		sum += by_order[o];
	return sum;
}

static uint64_t running_pmd_size(uint64_t page_size)
{
	uint64_t size = execfolio_kernel_thp_pmd_size();

	/* Without THP: a page table page of 8-byte entries maps one PMD. */
	return size ? size : page_size * (page_size / 8);
}

static bool power_of_two(uint64_t n)
{
	return n && !(n & (n - 1));
}

int execfolio_measure_open(struct execfolio_measure **mp, const char *proc_root,
			   uint64_t page_size, uint64_t pmd_size, char *err,
			   size_t errlen)
{
	struct execfolio_measure *m;
	unsigned int order = 0;
	int fd, ret;

	if (!proc_root)
		proc_root = "/proc";
	if (!page_size)
		page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	if (!pmd_size)
		pmd_size = running_pmd_size(page_size);
	if (!power_of_two(page_size) || !power_of_two(pmd_size) ||
	    pmd_size < page_size)
		return fail(err, errlen, -EINVAL,
			    "bad page size %" PRIu64 " or PMD size %" PRIu64,
			    page_size, pmd_size);
	while ((page_size << order) < pmd_size)
		order++;
	if (order > EXECFOLIO_MAX_ORDER)
		return fail(err, errlen, -EINVAL,
			    "PMD order %u is larger than the %d supported",
			    order, EXECFOLIO_MAX_ORDER);

	m = calloc(1, sizeof(*m));
	if (!m)
		return fail(err, errlen, -ENOMEM, "out of memory");
	m->proc_root = strdup(proc_root);
	m->proc_fd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m->proc_fd < 0) {
		ret = fail(err, errlen, -errno, "cannot open %s: %s", proc_root,
			   strerror(errno));
		goto err_free;
	}
	fd = openat(m->proc_fd, "kpageflags", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			fail(err, errlen, ret,
			     "%s/kpageflags does not exist: this kernel was built without CONFIG_PROC_PAGE_MONITOR, so folio sizes cannot be measured",
			     proc_root);
		else if (ret == -EACCES || ret == -EPERM)
			fail(err, errlen, ret,
			     "cannot open %s/kpageflags: %s (%s); %s",
			     proc_root, strerror(-ret), errno_name(-ret),
			     privilege_hint());
		else
			fail(err, errlen, ret,
			     "cannot open %s/kpageflags: %s (%s)", proc_root,
			     strerror(-ret), errno_name(-ret));
		goto err_close;
	}
	ret = kpf_cache_init(&m->kpf, fd);
	if (ret) {
		close(fd);
		fail(err, errlen, ret, "out of memory");
		goto err_close;
	}
	pfnset_init(&m->seen);
	m->st.page_size = page_size;
	m->st.pmd_size = pmd_size;
	m->st.pmd_order = order;
	*mp = m;
	return 0;

err_close:
	close(m->proc_fd);
err_free:
	free(m->proc_root);
	free(m);
	return ret;
}

void execfolio_measure_close(struct execfolio_measure *m)
{
	if (!m)
		return;
	close(m->kpf.fd);
	kpf_cache_free(&m->kpf);
	pfnset_free(&m->seen);
	close(m->proc_fd);
	free(m->proc_root);
	free(m->st.pids);
	free(m->pm);
	free(m->flags);
	free(m->is_new);
	free(m->added);
	free(m->vma_st);
	free(m);
}

void execfolio_measure_each_mapping(struct execfolio_measure *m,
				    execfolio_mapping_fn fn, void *arg)
{
	m->each_mapping = fn;
	m->each_mapping_arg = arg;
}

const struct execfolio_stat *
execfolio_measure_result(struct execfolio_measure *m)
{
	return &m->st;
}

static int reserve_pages(struct execfolio_measure *m, size_t nr)
{
	uint64_t *pm, *flags;
	bool *is_new;

	if (nr <= m->cap)
		return 0;
	pm = realloc(m->pm, nr * sizeof(*pm));
	if (pm)
		m->pm = pm;
	flags = realloc(m->flags, nr * sizeof(*flags));
	if (flags)
		m->flags = flags;
	is_new = realloc(m->is_new, nr * sizeof(*is_new));
	if (is_new)
		m->is_new = is_new;
	if (!pm || !flags || !is_new)
		return -ENOMEM;
	m->cap = nr;
	return 0;
}

/* PF_KTHREAD of include/linux/sched.h, in the flags of /proc/PID/stat. */
#define PF_KTHREAD 0x00200000u

/*
 * Whether @pid is a kernel thread, its name in @comm: the kernel refuses
 * to open the pagemap of a task without an mm with ESRCH.
 */
static bool is_kernel_thread(const struct execfolio_measure *m, pid_t pid,
			     char *comm, size_t len)
{
	char path[64], buf[512], *open_paren, *close_paren;
	unsigned int flags;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%d/stat", (int)pid);
	fd = openat(m->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS ..." */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    sscanf(close_paren + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1)
		return false;
	snprintf(comm, len, "%.*s", (int)(close_paren - open_paren - 1),
		 open_paren + 1);
	return flags & PF_KTHREAD;
}

/* Describe a failure to open or read a file of /proc/PID. */
static int pid_error(const struct execfolio_measure *m, pid_t pid,
		     const char *file, int ret, char *err, size_t errlen)
{
	char comm[64];

	if ((ret == -ESRCH || ret == -ENOENT) &&
	    is_kernel_thread(m, pid, comm, sizeof(comm)))
		return fail(
			err, errlen, -ESRCH,
			"PID %d: a kernel thread (%s): it has no user text to measure",
			(int)pid, comm);
	if (ret == -ENOENT || ret == -ESRCH)
		return fail(err, errlen, -ESRCH, "PID %d: no such process",
			    (int)pid);
	if (ret == -EACCES || ret == -EPERM)
		return fail(err, errlen, -EACCES,
			    "PID %d: cannot read %s/%d/%s: %s (%s); %s",
			    (int)pid, m->proc_root, (int)pid, file,
			    strerror(-ret), errno_name(-ret), privilege_hint());
	return fail(err, errlen, ret, "PID %d: cannot read %s/%d/%s: %s (%s)",
		    (int)pid, m->proc_root, (int)pid, file, strerror(-ret),
		    errno_name(-ret));
}

static int read_pagemap(int fd, uint64_t first_vfn, size_t nr, uint64_t *pm)
{
	size_t done = 0;

	while (done < nr) {
		size_t want = nr - done < PAGEMAP_BATCH ? nr - done :
							  PAGEMAP_BATCH;
		ssize_t n = pread(fd, pm + done, want * sizeof(*pm),
				  (off_t)((first_vfn + done) * sizeof(*pm)));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0 || n % sizeof(*pm))
			return -ESRCH; /* the process exited under us */
		done += (size_t)n / sizeof(*pm);
	}
	return 0;
}

static int remember(struct execfolio_measure *m, uint64_t pfn)
{
	if (m->nr_added == m->max_added) {
		size_t max = m->max_added ? m->max_added * 2 : 4096;
		uint64_t *added = realloc(m->added, max * sizeof(*added));

		if (!added)
			return -ENOMEM;
		m->added = added;
		m->max_added = max;
	}
	m->added[m->nr_added++] = pfn;
	return pfnset_add(&m->seen, pfn);
}

/*
 * The kpageflags of every present page, walking folio by folio: the first
 * mapped page of a compound page is read (with up to KPF_RUN_MAX pages
 * after it when they are physically contiguous), and the pages after it that map
 * the rest of it physically contiguously get its flags as tails (the flags
 * thpmaps uses, THP and anon, belong to the folio, not the page).
 */
static int read_flags(struct execfolio_measure *m, size_t nr)
{
	uint64_t flags, pfn, end;
	size_t i = 0;
	int ret;

	while (i < nr) {
		if (!(m->pm[i] & PM_PRESENT)) {
			m->flags[i++] = 0;
			continue;
		}
		pfn = m->pm[i] & PM_PFN_MASK;
		if (!kpf_cached(&m->kpf, pfn)) {
			size_t run = 1;

			while (i + run < nr && run < KPF_RUN_MAX &&
			       (m->pm[i + run] & PM_PRESENT) &&
			       (m->pm[i + run] & PM_PFN_MASK) == pfn + run)
				run++;
			if (run > 1) {
				ret = kpf_read_run(&m->kpf, pfn, run);
				if (ret)
					return ret;
			}
		}
		ret = kpf_get(&m->kpf, pfn, &flags);
		if (ret)
			return ret;
		m->flags[i++] = flags;
		if (!(flags & (KPF_COMPOUND_HEAD | KPF_COMPOUND_TAIL)))
			continue;
		ret = kpf_folio_end(&m->kpf, pfn, &end);
		if (ret)
			return ret;
		flags = (flags & ~KPF_COMPOUND_HEAD) | KPF_COMPOUND_TAIL;
		for (; i < nr && (m->pm[i] & PM_PRESENT) && ++pfn < end &&
		       (m->pm[i] & PM_PFN_MASK) == pfn;
		     i++)
			m->flags[i] = flags;
	}
	return 0;
}

/* A failed read of kpageflags, after it was opened. */
static int kpageflags_error(const struct execfolio_measure *m, int ret,
			    char *err, size_t errlen)
{
	if (ret == -ENOMEM)
		return fail(err, errlen, ret, "out of memory");
	return fail(err, errlen, ret, "cannot read %s/kpageflags: %s (%s)%s%s",
		    m->proc_root, strerror(-ret), errno_name(-ret),
		    ret == -EACCES || ret == -EPERM ? "; " : "",
		    ret == -EACCES || ret == -EPERM ? privilege_hint() : "");
}

/* Counts of one mapping, zero, with the geometry of the aggregate. */
static void stat_empty(const struct execfolio_measure *m,
		       struct execfolio_stat *st)
{
	memset(st, 0, sizeof(*st));
	st->page_size = m->st.page_size;
	st->pmd_size = m->st.pmd_size;
	st->pmd_order = m->st.pmd_order;
}

static void stat_add(struct execfolio_stat *sum,
		     const struct execfolio_stat *st)
{
	unsigned int o;

	sum->text_bytes += st->text_bytes;
	for (o = 0; o <= EXECFOLIO_MAX_ORDER; o++) {
		sum->folio_bytes[o] += st->folio_bytes[o];
		sum->aligned[o] += st->aligned[o];
		sum->unaligned[o] += st->unaligned[o];
	}
	sum->partial_bytes += st->partial_bytes;
	sum->pmd_mapped_bytes += st->pmd_mapped_bytes;
	sum->cont_eligible_64k_bytes += st->cont_eligible_64k_bytes;
	sum->cont_aligned_64k_bytes += st->cont_aligned_64k_bytes;
}

/* Room for the counts of @nr mappings, when they are reported. */
static int reserve_vma_stats(struct execfolio_measure *m, size_t nr)
{
	struct execfolio_stat *st;

	if (!m->each_mapping || nr <= m->max_vma_st)
		return 0;
	st = realloc(m->vma_st, nr * sizeof(*st));
	if (!st)
		return -ENOMEM;
	m->vma_st = st;
	m->max_vma_st = nr;
	return 0;
}

/* Count one mapping's pages into @st (zeroed by the caller). */
static int measure_vma(struct execfolio_measure *m, pid_t pid, int pagemap_fd,
		       const struct exec_vma *vma, struct execfolio_stat *st,
		       char *err, size_t errlen)
{
	const uint64_t ps = m->st.page_size;
	struct vma_pages v = {
		.start_vfn = vma->start / ps,
		.nr = (size_t)((vma->end - vma->start) / ps),
		.kpf = &m->kpf,
		.pmd_mapped_pages = vma->pmd_mapped_kb * 1024 / ps,
	};
	size_t i;
	int ret;

	if (!vma->rss_kb || !v.nr)
		return 0;
	ret = reserve_pages(m, v.nr);
	if (ret)
		return fail(err, errlen, ret, "out of memory");
	ret = read_pagemap(pagemap_fd, v.start_vfn, v.nr, m->pm);
	if (ret)
		return pid_error(m, pid, "pagemap", ret, err, errlen);
	for (i = 0; i < v.nr; i++) {
		/*
		 * Without CAP_SYS_ADMIN the kernel reports present pages with
		 * PFN 0; measuring those would report zeros as facts.
		 */
		if ((m->pm[i] & PM_PRESENT) && !(m->pm[i] & PM_PFN_MASK))
			return fail(
				err, errlen, -EPERM,
				"PID %d: %s/%d/pagemap hides physical frame numbers (they need CAP_SYS_ADMIN), so folio sizes cannot be measured; %s",
				(int)pid, m->proc_root, (int)pid,
				privilege_hint());
	}
	ret = read_flags(m, v.nr);
	if (ret)
		return kpageflags_error(m, ret, err, errlen);
	for (i = 0; i < v.nr; i++)
		m->is_new[i] = (m->pm[i] & PM_PRESENT) &&
			       !pfnset_test(&m->seen, m->pm[i] & PM_PFN_MASK);

	v.pm = m->pm;
	v.flags = m->flags;
	v.is_new = m->is_new;
	ret = folio_account(&v, st);
	if (ret)
		return kpageflags_error(m, ret, err, errlen);

	for (i = 0; i < v.nr; i++) {
		if (!m->is_new[i] || (m->flags[i] & KPF_ANON))
			continue;
		ret = remember(m, m->pm[i] & PM_PFN_MASK);
		if (ret)
			return fail(err, errlen, ret, "out of memory");
	}
	return 0;
}

static int add_pid(struct execfolio_measure *m, pid_t pid)
{
	if (m->st.nr_pids == m->max_pids) {
		size_t max = m->max_pids ? m->max_pids * 2 : 16;
		pid_t *pids = realloc(m->st.pids, max * sizeof(*pids));

		if (!pids)
			return -ENOMEM;
		m->st.pids = pids;
		m->max_pids = max;
	}
	m->st.pids[m->st.nr_pids++] = pid;
	return 0;
}

int execfolio_measure_pid(struct execfolio_measure *m, pid_t pid, char *err,
			  size_t errlen)
{
	struct execfolio_stat st = m->st;
	struct exec_vma *vmas = NULL;
	int smaps_fd, pagemap_fd = -1, ret;
	size_t nr = 0, i;
	char path[64];

	if (pid <= 0)
		return fail(err, errlen, -ESRCH, "PID %d: no such process",
			    (int)pid);
	m->nr_added = 0;
	snprintf(path, sizeof(path), "%d/smaps", (int)pid);
	smaps_fd = openat(m->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (smaps_fd < 0)
		return pid_error(m, pid, "smaps", -errno, err, errlen);
	snprintf(path, sizeof(path), "%d/pagemap", (int)pid);
	pagemap_fd = openat(m->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (pagemap_fd < 0) {
		ret = pid_error(m, pid, "pagemap", -errno, err, errlen);
		goto out;
	}
	ret = smaps_read_exec_vmas(smaps_fd, &vmas, &nr);
	if (ret) {
		ret = pid_error(m, pid, "smaps", ret, err, errlen);
		goto out;
	}
	ret = reserve_vma_stats(m, nr);
	if (ret) {
		fail(err, errlen, ret, "out of memory");
		goto out;
	}
	for (i = 0; i < nr && !ret; i++) {
		struct execfolio_stat one;
		struct execfolio_stat *vma_st =
			m->each_mapping ? &m->vma_st[i] : &one;

		stat_empty(m, vma_st);
		ret = measure_vma(m, pid, pagemap_fd, &vmas[i], vma_st, err,
				  errlen);
		stat_add(&st, vma_st);
	}
	if (!ret) {
		ret = add_pid(m, pid);
		if (ret)
			fail(err, errlen, ret, "out of memory");
	}
	if (!ret) {
		st.pids = m->st.pids;
		st.nr_pids = m->st.nr_pids;
		m->st = st;
		for (i = 0; m->each_mapping && i < nr; i++) {
			struct execfolio_mapping map = {
				.pid = pid,
				.start = vmas[i].start,
				.end = vmas[i].end,
				.path = vmas[i].path,
				.st = m->vma_st[i],
			};

			m->each_mapping(&map, m->each_mapping_arg);
		}
	} else {
		/* Leave the aggregate as it was before this process. */
		for (i = 0; i < m->nr_added; i++)
			pfnset_clear(&m->seen, m->added[i]);
	}
out:
	smaps_free_exec_vmas(vmas, nr);
	if (pagemap_fd >= 0)
		close(pagemap_fd);
	close(smaps_fd);
	return ret;
}
