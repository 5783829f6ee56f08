// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Choosing the policy of each regular file (DESIGN.md section 9), in order:
 * --exec-folio-size for files with any execute bit, then --auto for ELF
 * executables and shared libraries for which the analysis recommends a
 * size, then the --rule options, the last matching one winning. A rule of
 * "none" stores "none", which opts the file out of a mount default. A
 * source file's own trusted.exec_folio_size is kept when nothing selects
 * the file, and replaced when something does.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <execfolio/elf.h>
#include <execfolio/policy.h>

#include "mkfs.h"

int parse_rule(const char *arg, struct rule *rule)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		err_msg("--rule %s: expected GLOB=SIZE", arg);
		return -EINVAL;
	}
	if (execfolio_parse_size_str(eq + 1, &rule->size)) {
		err_msg("--rule %s: invalid size '%s': expected " POLICY_SIZE_HELP,
			arg, eq + 1);
		return -EINVAL;
	}
	rule->glob = xstrndup(arg, eq - arg);
	return 0;
}

/* The size --auto chooses, or 0 to leave the file alone. */
static uint32_t auto_size(struct node *n)
{
	const struct elf_headers *h = &n->elf;

	if (h->err) {
		report(n, "--auto: not analysed (%s); no policy from --auto",
		       h->why ? h->why : strerror(-h->err));
		return 0;
	}
	if (h->past_eof)
		report(n,
		       "--auto: an executable segment runs past the end of the file (truncated or damaged); no policy from --auto");
	if (h->type == EXECFOLIO_ELF_EXEC || h->type == EXECFOLIO_ELF_DYN)
		return h->recommended;
	return 0;
}

static void set_policy(struct tree *t, struct node *n, uint32_t size)
{
	char canon[EXECFOLIO_SIZE_STR];
	struct xattr *x = NULL;
	size_t i;

	for (i = 0; i < n->nxattrs; i++) {
		if (n->xattrs[i].ns == ATTR_NS_ROOT &&
		    !strcmp(n->xattrs[i].name, EXECFOLIO_XATTR_SUFFIX)) {
			x = &n->xattrs[i];
			free(x->value);
			break;
		}
	}
	if (!x) {
		n->xattrs = xrealloc(n->xattrs,
				     (n->nxattrs + 1) * sizeof(*n->xattrs));
		x = &n->xattrs[n->nxattrs++];
		memset(x, 0, sizeof(*x));
		x->ns = ATTR_NS_ROOT;
		x->name = xstrdup(EXECFOLIO_XATTR_SUFFIX);
		t->nattrs++;
	}
	execfolio_format_size(size, canon);
	x->value = xstrdup(canon);
	x->len = strlen(canon);
	x->policy = true;
}

int select_policies(struct tree *t, const struct options *o)
{
	size_t i, r;

	for (i = 1; i < t->count; i++) {
		struct node *n = &t->nodes[i];
		bool chosen = false;
		uint32_t size = 0;

		if (n->type != NODE_REG || n->skip)
			continue;
		if (o->have_exec_size && (n->st.st_mode & 0111)) {
			size = o->exec_size;
			chosen = true;
		}
		/* Read by tree_read(), unless the file is empty. */
		if (o->auto_size && n->elf.read) {
			uint32_t rec = auto_size(n);

			if (rec) {
				size = rec;
				chosen = true;
			}
		}
		for (r = 0; r < o->nrules; r++) {
			if (!fnmatch(o->rules[r].glob, n->rel, 0)) {
				size = o->rules[r].size;
				chosen = true;
			}
		}
		if (chosen)
			set_policy(t, n, size);
	}
	return 0;
}
