/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace mode (-o trace=FILE): touch_recorder.c records the first touch of
 * each page a workload makes into the trace file, in the format
 * libexecfolio writes (include/execfolio/trace.h).
 */
#ifndef EXECFOLIOFS_TOUCH_RECORDER_H
#define EXECFOLIOFS_TOUCH_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct efs_inode;
struct efs_file;

/* Create the trace file @path: 0, or -errno with a message in @err. */
int efs_trace_open(const char *path, char *err, size_t err_len);
/* A new stream number, one per open(2) of a file. */
uint32_t efs_trace_stream(void);
/* Record a read of @len bytes at @off of @inode by task @tid. */
void efs_trace_read(struct efs_inode *inode, const struct efs_file *file,
		    off_t off, size_t len, pid_t tid);
void efs_trace_close(void);

#endif /* EXECFOLIOFS_TOUCH_RECORDER_H */
