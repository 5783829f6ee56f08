// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Choosing the policy of each regular file (DESIGN.md section 9), in order:
 * --exec-folio-size for files with any execute bit, then --auto for ELF
 * executables and shared libraries for which the analysis recommends a
 * size, then the --rule options, the last matching one winning. A rule of
 * "none" stores "none", which opts the file out of a mount default. A
 * source file's own trusted.exec_folio_size is kept when nothing selects
 * the file, and replaced when something does. Kept, it is read with the
 * grammar of every other input (DESIGN.md section 2.2): a valid value is
 * stored in canonical form, an invalid one, which the kernel would ignore
 * and refuse to set, is reported and left out.
 *
 * A rule's GLOB is matched against the path below SOURCE_DIR; an absolute
 * GLOB, as the rules of the package hook are, means the same path from the
 * image's root. A rule that matches no file is said, as a mistake in it is
 * the likely reason.
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
	const char *eq = strchr(arg, '='), *glob = arg;

	if (!eq || eq == arg) {
		err_msg("--rule %s: expected GLOB=SIZE", arg);
		return -EINVAL;
	}
	if (execfolio_parse_size_str(eq + 1, &rule->size)) {
		err_msg("--rule %s: invalid size '%s': expected " POLICY_SIZE_HELP,
			arg, eq + 1);
		return -EINVAL;
	}
	while (*glob == '/')
		glob++;
	if (glob == eq) {
		err_msg("--rule %s: GLOB names the root of the image, which is "
			"no file: expected a path such as usr/bin/* or "
			"/usr/bin/*",
			arg);
		return -EINVAL;
	}
	rule->arg = arg;
	rule->glob = xstrndup(glob, eq - glob);
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

/* The source's own trusted.exec_folio_size of @n, or NULL. */
static struct xattr *source_policy(struct node *n)
{
	size_t i;

	for (i = 0; i < n->nxattrs; i++)
		if (n->xattrs[i].ns == ATTR_NS_ROOT &&
		    !strcmp(n->xattrs[i].name, EXECFOLIO_XATTR_SUFFIX))
			return &n->xattrs[i];
	return NULL;
}

static void set_policy(struct tree *t, struct node *n, uint32_t size)
{
	struct xattr *x = source_policy(n);
	char canon[EXECFOLIO_SIZE_STR];

	if (x) {
		free(x->value);
	} else {
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

/* Longest part of a bad value quoted, as the kernel quotes one. */
#define QUOTED_VALUE_MAX 64

/*
 * Keep the source's own policy of @n, which nothing selected: in canonical
 * form if valid (a note when that changes its bytes), or left out and
 * reported if not.
 */
static void keep_source_policy(struct tree *t, struct node *n)
{
	struct xattr *x = source_policy(n);
	char canon[EXECFOLIO_SIZE_STR], *quoted;
	uint32_t size;

	if (!x || x->dropped)
		return;
	quoted = render_str(fput_escaped, x->value,
			    x->len < QUOTED_VALUE_MAX ? x->len :
							QUOTED_VALUE_MAX);
	if (execfolio_parse_size(x->value, x->len, &size)) {
		x->dropped = true;
		t->nattrs--;
		report(n,
		       "xattr " EXECFOLIO_XATTR " not copied: '%s%s' is not "
		       "a policy size (expected " POLICY_SIZE_HELP "); the "
		       "kernel ignores it as absent",
		       quoted, x->len > QUOTED_VALUE_MAX ? "..." : "");
		free(quoted);
		return;
	}
	execfolio_format_size(size, canon);
	if (x->len != strlen(canon) || memcmp(x->value, canon, x->len)) {
		report_note(n,
			    "xattr " EXECFOLIO_XATTR " '%s' stored in "
			    "canonical form as '%s'",
			    quoted, canon);
		free(x->value);
		x->value = xstrdup(canon);
		x->len = strlen(canon);
	}
	free(quoted);
	x->policy = n->type == NODE_REG;
}

/*
 * Say which rules matched no regular file: a warning, or with --strict an
 * error (-EINVAL).
 */
static int check_rules_matched(const struct tree *t, const struct options *o,
			       const bool *matched)
{
	int ret = 0;
	size_t r;

	for (r = 0; r < o->nrules; r++) {
		if (matched[r])
			continue;
		err_msg("--rule '%s': %sno regular file below %s matches "
			"'%s'%s",
			o->rules[r].arg,
			o->strict ? "" : "warning: ", t->source,
			o->rules[r].glob,
			o->strict ? " (an error with --strict)" : "");
		if (o->strict)
			ret = -EINVAL;
	}
	return ret;
}

int select_policies(struct tree *t, const struct options *o)
{
	bool *matched = xcalloc(o->nrules + 1, sizeof(*matched));
	size_t i, r;
	int ret;

	for (i = 0; i < t->count; i++) {
		struct node *n = &t->nodes[i];
		bool chosen = false;
		uint32_t size = 0;

		if (n->skip)
			continue;
		if (n->type != NODE_REG) {
			keep_source_policy(t, n);
			continue;
		}
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
				matched[r] = true;
			}
		}
		if (chosen)
			set_policy(t, n, size);
		else
			keep_source_policy(t, n);
	}
	ret = check_rules_matched(t, o, matched);
	free(matched);
	return ret;
}
