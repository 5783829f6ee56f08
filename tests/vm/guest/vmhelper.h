/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmhelper's commands that take memory: a hog and a fragmenter
 * (vmhelper-memory.c).
 */
#ifndef VMHELPER_H
#define VMHELPER_H

int cmd_hog(const char *mib);
int cmd_fragment(const char *kib);

#endif /* VMHELPER_H */
