/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_CREATE_FILES_H
#define BENCH_CREATE_FILES_H

/* benchhelper create DIR N (bench/create_files.c). */
int cmd_create(int argc, char **argv);

#endif
