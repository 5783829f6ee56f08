/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_ASK_DAEMON_H
#define BENCH_ASK_DAEMON_H

/* benchhelper ask OUTFILE ADDRESS REQUEST REPLY [TIMEOUT_MS] (bench/ask_daemon.c). */
int cmd_ask(int argc, char **argv);

#endif
