// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the source tree: every entry below SOURCE_DIR, parents before
 * children and siblings sorted by name (so images are reproducible), with
 * its lstat(), symlink target and xattrs. Anything that cannot be read is
 * an error here, before mkfs.xfs runs, so the message names the file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <execfolio/elf.h>
#include <execfolio/policy.h>

#include "mkfs.h"

struct inode_seen {
	dev_t dev;
	ino_t ino;
	size_t node;
};

struct walk {
	struct tree *t;
	struct inode_seen *seen;
	size_t nseen;
	size_t seen_cap;
};

char *tree_source_path(const struct tree *t, const struct node *n)
{
	if (!n->rel[0])
		return xstrdup(t->source);
	return xasprintf("%s/%s", t->source, n->rel);
}

static size_t add_node(struct tree *t, size_t parent, const char *rel,
		       const char *name)
{
	struct node *n;

	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	n = &t->nodes[t->count];
	memset(n, 0, sizeof(*n));
	n->rel = xstrdup(rel);
	n->name = name ? xstrdup(name) : NULL;
	n->parent = parent;
	if (t->count) {
		struct node *p = &t->nodes[parent];

		if (p->nchildren == p->children_cap) {
			p->children_cap =
				p->children_cap ? p->children_cap * 2 : 8;
			p->children = xrealloc(p->children,
					       p->children_cap *
						       sizeof(*p->children));
		}
		p->children[p->nchildren++] = t->count;
	}
	return t->count++;
}

static int ns_of(const char *full, enum attr_ns *ns, const char **name)
{
	static const struct {
		const char *prefix;
		enum attr_ns ns;
	} map[] = {
		{ "user.", ATTR_NS_USER },
		{ "trusted.", ATTR_NS_ROOT },
		{ "security.", ATTR_NS_SECURE },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		size_t plen = strlen(map[i].prefix);

		if (!strncmp(full, map[i].prefix, plen)) {
			*ns = map[i].ns;
			*name = full + plen;
			return 0;
		}
	}
	return -1;
}

static int read_xattrs(struct tree *t, struct node *n, const char *path)
{
	ssize_t len, vlen;
	char *names, *p;

	len = llistxattr(path, NULL, 0);
	if (len < 0) {
		if (errno == ENOTSUP)
			return 0;
		err_msg("cannot list the xattrs of %s: %s", path,
			strerror(errno));
		return -1;
	}
	if (!len)
		return 0;
	names = xmalloc(len);
	len = llistxattr(path, names, len);
	if (len < 0) {
		err_msg("cannot list the xattrs of %s: %s", path,
			strerror(errno));
		free(names);
		return -1;
	}
	for (p = names; p < names + len; p += strlen(p) + 1) {
		struct xattr *x;
		enum attr_ns ns;
		const char *name;

		if (ns_of(p, &ns, &name)) {
			report(n,
			       "xattr %s not copied: only user.*, trusted.* "
			       "and security.* are",
			       p);
			continue;
		}
		vlen = lgetxattr(path, p, NULL, 0);
		if (vlen < 0) {
			err_msg("cannot read xattr %s of %s: %s", p, path,
				strerror(errno));
			free(names);
			return -1;
		}
		n->xattrs = xrealloc(n->xattrs,
				     (n->nxattrs + 1) * sizeof(*n->xattrs));
		x = &n->xattrs[n->nxattrs];
		memset(x, 0, sizeof(*x));
		x->ns = ns;
		x->name = xstrdup(name);
		x->value = xmalloc(vlen);
		vlen = lgetxattr(path, p, x->value, vlen);
		if (vlen < 0) {
			err_msg("cannot read xattr %s of %s: %s", p, path,
				strerror(errno));
			free(names);
			return -1;
		}
		x->len = vlen;
		n->nxattrs++;
		t->nattrs++;
	}
	free(names);
	return 0;
}

static enum node_type type_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return NODE_DIR;
	case S_IFLNK:
		return NODE_SYMLINK;
	case S_IFCHR:
		return NODE_CHR;
	case S_IFBLK:
		return NODE_BLK;
	case S_IFIFO:
		return NODE_FIFO;
	case S_IFSOCK:
		return NODE_SOCK;
	default:
		return NODE_REG;
	}
}

/* A hard link: the protofile of xfsprogs 6.1 makes every entry its own file. */
static void note_hard_link(struct walk *w, size_t idx)
{
	struct node *n = &w->t->nodes[idx];
	size_t i;

	if (n->type == NODE_DIR || n->st.st_nlink < 2)
		return;
	for (i = 0; i < w->nseen; i++) {
		if (w->seen[i].dev == n->st.st_dev &&
		    w->seen[i].ino == n->st.st_ino) {
			n->link_of = w->seen[i].node;
			/*
			 * Reading the first link may have moved the atime
			 * this lstat() saw: the image gets the one before.
			 */
			n->st.st_atim = w->t->nodes[n->link_of].st.st_atim;
			return;
		}
	}
	if (w->nseen == w->seen_cap) {
		w->seen_cap = w->seen_cap ? w->seen_cap * 2 : 64;
		w->seen = xrealloc(w->seen, w->seen_cap * sizeof(*w->seen));
	}
	w->seen[w->nseen++] =
		(struct inode_seen){ n->st.st_dev, n->st.st_ino, idx };
}

/*
 * From the file read_node() has open at @path: no second lookup of its
 * path.  The reason of a failure names the source file.
 */
static void read_elf_headers(struct node *n, int fd, const char *path)
{
	char why[256], msg[EXECFOLIO_ERR_MAX];
	struct execfolio_elf elf;
	struct elf_headers *h = &n->elf;

	h->read = true;
	h->err = execfolio_elf_analyse_fd(fd, &elf, why, sizeof(why));
	if (h->err) {
		snprintf(msg, sizeof(msg), "%s: %s", path, why);
		h->why = xstrdup(msg);
		return;
	}
	h->type = elf.type;
	h->recommended = execfolio_elf_recommend(&elf);
	h->past_eof = elf.npast_eof;
	execfolio_elf_free(&elf);
}

static int read_node(struct walk *w, size_t idx)
{
	struct tree *t = w->t;
	char *path = tree_source_path(t, &t->nodes[idx]);
	struct node *n = &t->nodes[idx];
	int ret = -1;

	if (lstat(path, &n->st)) {
		err_msg("cannot stat %s: %s", path, strerror(errno));
		goto out;
	}
	n->type = type_of(n->st.st_mode);
	if (n->type == NODE_SYMLINK) {
		char *buf = xmalloc(n->st.st_size + 2);
		ssize_t len = readlink(path, buf, n->st.st_size + 1);

		if (len < 0 || len > n->st.st_size) {
			err_msg("cannot read the symlink %s: %s", path,
				len < 0 ? strerror(errno) : "it changed");
			free(buf);
			goto out;
		}
		buf[len] = '\0';
		n->target = buf;
	} else if (n->type == NODE_REG) {
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);

		if (fd < 0) {
			err_msg("cannot read %s: %s", path, strerror(errno));
			goto out;
		}
		/* mkfs.xfs -p of xfsprogs 6.1 writes every block of a file. */
		if (n->st.st_size &&
		    lseek(fd, 0, SEEK_HOLE) < (off_t)n->st.st_size)
			report_note(n, "sparse file: its holes are stored as "
				       "allocated blocks of zeros (mkfs.xfs -p "
				       "writes every block)");
		/* An empty file is no ELF file and nothing to analyse. */
		if (t->read_elf && n->st.st_size)
			read_elf_headers(n, fd, path);
		close(fd);
		t->data_bytes += ((uint64_t)n->st.st_size + 4095) & ~4095ull;
	} else if (n->type == NODE_SOCK) {
		n->skip = true;
		report(n, "socket not created: the protofile has no sockets "
			  "(a program creates them when it runs)");
	}
	note_hard_link(w, idx);
	if (read_xattrs(t, n, path))
		goto out;
	ret = 0;
out:
	free(path);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_dir(struct walk *w, size_t idx)
{
	struct tree *t = w->t;
	char *path = tree_source_path(t, &t->nodes[idx]);
	char **names = NULL;
	size_t count = 0, i;
	struct dirent *de;
	int ret = -1;
	DIR *d;

	d = opendir(path);
	if (!d) {
		err_msg("cannot read the directory %s: %s", path,
			strerror(errno));
		free(path);
		return -1;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = xrealloc(names, (count + 1) * sizeof(*names));
		names[count++] = xstrdup(de->d_name);
		errno = 0;
	}
	if (errno) {
		err_msg("cannot read the directory %s: %s", path,
			strerror(errno));
		goto out;
	}
	qsort(names, count, sizeof(*names), by_name);
	for (i = 0; i < count; i++) {
		const char *prel = t->nodes[idx].rel;
		size_t child;
		char *rel =
			xasprintf("%s%s%s", prel, prel[0] ? "/" : "", names[i]);

		child = add_node(t, idx, rel, names[i]);
		free(rel);
		if (read_node(w, child))
			goto out;
		if (t->nodes[child].type == NODE_DIR) {
			if (t->nodes[child].st.st_dev != t->nodes[0].st.st_dev)
				report(&t->nodes[child],
				       "mount point: copied as a directory of "
				       "the mounted file system");
			if (read_dir(w, child))
				goto out;
		}
	}
	ret = 0;
out:
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	closedir(d);
	free(path);
	return ret;
}

/*
 * Linux lists trusted.* xattrs only to CAP_SYS_ADMIN: without it, those
 * of the source cannot even be seen, let alone copied.
 */
static void warn_trusted_unseen(const char *source)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { 0 };

	if (!syscall(SYS_capget, &hdr, data) &&
	    (data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &
	     CAP_TO_MASK(CAP_SYS_ADMIN)))
		return;
	err_msg("%s: warning: without CAP_SYS_ADMIN its trusted.* xattrs "
		"cannot be read, and none are copied (the ones the policy "
		"options choose are written); run as root to keep them",
		source);
}

int tree_read(struct tree *t, const char *source, bool read_elf)
{
	struct walk w = { .t = t };
	char *abs;
	int ret;

	memset(t, 0, sizeof(*t));
	t->read_elf = read_elf;
	abs = realpath(source, NULL);
	if (!abs) {
		err_msg("cannot use SOURCE_DIR %s: %s", source,
			strerror(errno));
		return -1;
	}
	t->source = abs;
	warn_trusted_unseen(source);
	add_node(t, 0, "", NULL);
	if (read_node(&w, 0)) {
		free(w.seen);
		return -1;
	}
	if (t->nodes[0].type != NODE_DIR) {
		err_msg("SOURCE_DIR %s is not a directory", source);
		free(w.seen);
		return -1;
	}
	ret = read_dir(&w, 0);
	free(w.seen);
	return ret;
}

void tree_free(struct tree *t)
{
	size_t i, j;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];

		for (j = 0; j < n->nxattrs; j++) {
			free(n->xattrs[j].name);
			free(n->xattrs[j].value);
		}
		free(n->xattrs);
		free(n->rel);
		free(n->name);
		if (n->img_name != n->name)
			free(n->img_name);
		free(n->img_path);
		free(n->children);
		free(n->target);
		if (n->proto_target != n->target)
			free(n->proto_target);
	}
	free(t->nodes);
	free(t->source);
	memset(t, 0, sizeof(*t));
}
