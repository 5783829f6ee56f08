/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BENCH_DM_DELAY_H
#define BENCH_DM_DELAY_H

/* benchhelper dm-delay NAME DEVICE MS (bench/dm_delay.c). */
int cmd_dm_delay(int argc, char **argv);

#endif
