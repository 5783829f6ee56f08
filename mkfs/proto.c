// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mkfs.xfs protofile (mkfs.xfs(8), "-p"): one line per entry, a
 * directory's entries followed by "$". mkfs.xfs runs in the work
 * directory, where "s" is a symlink to SOURCE_DIR, so file data is named
 * "s/REL"; a path the protofile cannot carry gets a symlink "c/N" instead.
 * What the format cannot say (sticky bit, timestamps, xattrs, hard links)
 * is left to fixup.c or reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mkfs.h"

struct proto_ctx {
	const struct tree *t;
	FILE *out;
	const char *workdir;
	size_t links;
};

static void put_mode(FILE *out, const struct node *n)
{
	static const char type[] = {
		[NODE_REG] = '-', [NODE_DIR] = 'd', [NODE_SYMLINK] = 'l',
		[NODE_CHR] = 'c', [NODE_BLK] = 'b', [NODE_FIFO] = 'p',
	};
	mode_t m = n->st.st_mode;

	fprintf(out, "%c%c%c%03o %u %u", type[n->type], m & S_ISUID ? 'u' : '-',
		m & S_ISGID ? 'g' : '-', (unsigned int)(m & 0777),
		(unsigned int)n->st.st_uid, (unsigned int)n->st.st_gid);
}

static bool path_has_blank(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
			return true;
	return false;
}

/* The token that names @n's data for mkfs.xfs, relative to the workdir. */
static int put_content(struct proto_ctx *c, const struct node *n)
{
	char *link, *target;
	int ret = 0;

	if (!path_has_blank(n->rel)) {
		fprintf(c->out, " s/%s", n->rel);
		return 0;
	}
	link = xasprintf("%s/c/%zu", c->workdir, c->links);
	target = tree_source_path(c->t, n);
	if (symlink(target, link)) {
		ret = -errno;
		err_msg("cannot create %s: %s", link, strerror(errno));
	}
	fprintf(c->out, " c/%zu", c->links++);
	free(target);
	free(link);
	return ret;
}

static int put_node(struct proto_ctx *c, size_t idx)
{
	const struct node *n = &c->t->nodes[idx];
	size_t i;
	int ret;

	if (n->skip)
		return 0;
	if (idx)
		fprintf(c->out, "%s ", n->img_name);
	put_mode(c->out, n);
	switch (n->type) {
	case NODE_REG:
		if (n->link_of)
			report(n,
			       "hard link to %s stored as a separate copy "
			       "(the protofile cannot express hard links)",
			       c->t->nodes[n->link_of].rel);
		ret = put_content(c, n);
		if (ret)
			return ret;
		break;
	case NODE_CHR:
	case NODE_BLK:
		/* In range (check.c); fixup.c reads the number back. */
		fprintf(c->out, " %u %u", major(n->st.st_rdev),
			minor(n->st.st_rdev));
		break;
	case NODE_SYMLINK:
		fprintf(c->out, " %s", n->proto_target);
		break;
	case NODE_DIR:
		fputc('\n', c->out);
		for (i = 0; i < n->nchildren; i++) {
			ret = put_node(c, n->children[i]);
			if (ret)
				return ret;
		}
		fputs("$", c->out);
		break;
	default:
		break;
	}
	fputc('\n', c->out);
	return 0;
}

int proto_write(const struct tree *t, const char *path, const char *workdir)
{
	struct proto_ctx c = { .t = t, .workdir = workdir };
	char *dir;
	int ret;

	dir = xasprintf("%s/s", workdir);
	if (symlink(t->source, dir)) {
		err_msg("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return -errno;
	}
	free(dir);
	dir = xasprintf("%s/c", workdir);
	if (mkdir(dir, 0700)) {
		err_msg("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return -errno;
	}
	free(dir);
	c.out = fopen(path, "w");
	if (!c.out) {
		err_msg("cannot write the protofile %s: %s", path,
			strerror(errno));
		return -errno;
	}
	/* Boot image name, block and inode counts: ignored by mkfs.xfs. */
	fputs("execfolio\n0 0\n", c.out);
	ret = put_node(&c, 0);
	if (fclose(c.out) && !ret) {
		ret = -errno;
		err_msg("cannot write the protofile %s: %s", path,
			strerror(errno));
	}
	return ret;
}
