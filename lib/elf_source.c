// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bounded reads for the ELF parser, from memory or with pread() from a file
 * whose first bytes are already in memory.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "elf_source.h"

int elf_source_read(const struct elf_source *src, uint64_t off, void *dst,
		    size_t len)
{
	uint8_t *out = dst;
	size_t done = 0;
	ssize_t n;

	if (off > src->size || len > src->size - off)
		return -ERANGE;
	if (off <= src->buf_len && len <= src->buf_len - off) {
		memcpy(dst, src->buf + off, len);
		return 0;
	}
	if (src->fd < 0)
		return -ERANGE;
	while (done < len) {
		n = pread(src->fd, out + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}
