/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conventions: how every libexecfolio function reports a failure. Each
 * header of the library includes this one.
 *
 * - A function that can fail returns a negative errno, and 0 (or the
 *   count or flag its header documents) on success. Its header lists the
 *   errnos that mean something in particular.
 * - Where the errno cannot tell a user what was wrong (which ELF field,
 *   which line of a trace, that a file is immutable), the function also
 *   takes `char *err, size_t errlen` and, when it fails, writes there one
 *   line: no program name, no trailing newline, naming what it is about as
 *   the caller named it (the path: "/bin/ls: truncated ELF header", the
 *   PID, the trace's NAME:LINE), so that a program prints it whole after
 *   its own prefix ("execfolio scan: "). A function given only a buffer
 *   (an ELF image, a trace line) says what in it is wrong, and its caller
 *   where the buffer came from. A line too long for @errlen is cut short;
 *   @err may be NULL when @errlen is 0, for a caller that wants only the
 *   errno. What @err holds after a success is unspecified.
 * - Every other failure is for the caller to put in words: what it was
 *   doing, then strerror(-ret).
 * - The library never prints and never exits: that is the programs' job
 *   (frontend/).
 */
#ifndef EXECFOLIO_ERROR_H
#define EXECFOLIO_ERROR_H

#include <limits.h>

/* Room for any message of the library: a path and what is wrong with it. */
#define EXECFOLIO_ERR_MAX (PATH_MAX + 512)

#endif /* EXECFOLIO_ERROR_H */
