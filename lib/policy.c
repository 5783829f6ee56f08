// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exec folio policy: size grammar and resolution (DESIGN.md section 2).
 * The kernel series mirrors this file; tests/vectors/policy.vec binds both.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <execfolio/bitops.h>
#include <execfolio/policy.h>

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

bool execfolio_size_valid(uint32_t size)
{
	return size == 0 || (is_pow2(size) && size >= EXECFOLIO_SIZE_MIN &&
			     size <= EXECFOLIO_SIZE_MAX);
}

int execfolio_parse_size(const char *buf, size_t len, uint32_t *size)
{
	uint64_t value = 0;
	size_t i = 0;

	/* One trailing newline is tolerated, as from `echo 64k > ...`. */
	if (len && buf[len - 1] == '\n')
		len--;
	if (len > EXECFOLIO_VALUE_MAX)
		return -EINVAL;

	if (len == 4 && !memcmp(buf, "none", 4)) {
		*size = 0;
		return 0;
	}
	if (len == 1 && buf[0] == '0') {
		*size = 0;
		return 0;
	}
	/* Digits, no sign, no leading zero; the length bound stops overflow. */
	if (!len || buf[0] < '1' || buf[0] > '9')
		return -EINVAL;
	while (i < len && buf[i] >= '0' && buf[i] <= '9')
		value = value * 10 + (uint64_t)(buf[i++] - '0');

	if (i + 1 == len) {
		switch (buf[i]) {
		case 'k':
		case 'K':
			value <<= 10;
			break;
		case 'm':
		case 'M':
			value <<= 20;
			break;
		default:
			return -EINVAL;
		}
	} else if (i != len) {
		return -EINVAL;
	}

	if (value > EXECFOLIO_SIZE_MAX || !execfolio_size_valid(value))
		return -EINVAL;
	*size = (uint32_t)value;
	return 0;
}

int execfolio_parse_size_str(const char *str, uint32_t *size)
{
	return execfolio_parse_size(str, strlen(str), size);
}

char *execfolio_format_size(uint32_t size, char *buf)
{
	if (!size)
		snprintf(buf, EXECFOLIO_SIZE_STR, "none");
	else if (!(size & ((1u << 20) - 1)))
		snprintf(buf, EXECFOLIO_SIZE_STR, "%um", size >> 20);
	else if (!(size & ((1u << 10) - 1)))
		snprintf(buf, EXECFOLIO_SIZE_STR, "%uk", size >> 10);
	else
		snprintf(buf, EXECFOLIO_SIZE_STR, "%u", size);
	return buf;
}

const char *execfolio_source_name(enum execfolio_source source)
{
	switch (source) {
	case EXECFOLIO_SOURCE_XATTR:
		return "xattr";
	case EXECFOLIO_SOURCE_MOUNT:
		return "mount";
	case EXECFOLIO_SOURCE_NONE:
		break;
	}
	return "none";
}

int execfolio_parse_scope(const char *buf, size_t len,
			  enum execfolio_scope *scope)
{
	if (len == 4 && !memcmp(buf, "exec", 4))
		*scope = EXECFOLIO_SCOPE_EXEC;
	else if (len == 3 && !memcmp(buf, "all", 3))
		*scope = EXECFOLIO_SCOPE_ALL;
	else
		return -EINVAL;
	return 0;
}

int execfolio_parse_scope_str(const char *str, enum execfolio_scope *scope)
{
	return execfolio_parse_scope(str, strlen(str), scope);
}

const char *execfolio_scope_name(enum execfolio_scope scope)
{
	return scope == EXECFOLIO_SCOPE_ALL ? "all" : "exec";
}

void execfolio_resolve(const struct execfolio_inode *inode,
		       struct execfolio_policy *policy)
{
	uint32_t size;

	policy->size = 0;
	policy->source = EXECFOLIO_SOURCE_NONE;
	policy->xattr_invalid = false;

	if (!S_ISREG(inode->mode))
		return;

	if (inode->has_xattr) {
		if (!execfolio_parse_size(inode->xattr, inode->xattr_len,
					  &size)) {
			policy->size = size;
			policy->source = EXECFOLIO_SOURCE_XATTR;
			return;
		}
		policy->xattr_invalid = true;
	}

	if (inode->has_mount && ((inode->mode & 0111) ||
				 inode->mount_scope == EXECFOLIO_SCOPE_ALL)) {
		policy->size = inode->mount_size;
		policy->source = EXECFOLIO_SOURCE_MOUNT;
	}
}

unsigned int execfolio_max_order(uint32_t page_size)
{
	/*
	 * MAX_PAGECACHE_ORDER in 6.12: the PMD order, but no more than what
	 * one xarray node level can describe (MAX_XAS_ORDER, 11).
	 */
	unsigned int page_shift = execfolio_ilog2(page_size);
	unsigned int pmd_order = page_shift - 3;

	return pmd_order < 11 ? pmd_order : 11;
}

unsigned int execfolio_order(uint32_t size, uint32_t page_size,
			     uint32_t block_size, unsigned int max_order)
{
	unsigned int order = 0, block_order = 0;

	if (size > page_size)
		order = execfolio_ilog2(size / page_size);
	if (order > max_order)
		order = max_order;
	if (block_size > page_size)
		block_order = execfolio_ilog2(block_size / page_size);
	return order > block_order ? order : block_order;
}
