/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmhelper's commands in files of their own: those that take memory, a
 * hog and a fragmenter (vmhelper-memory.c), the folios a read leaves
 * (vmhelper-readfolios.c) and the hardware poison test
 * (vmhelper-hwpoison.c).
 */
#ifndef VMHELPER_H
#define VMHELPER_H

int cmd_hog(const char *mib);
int cmd_fragment(const char *kib);
int cmd_readfolios(const char *path, const char *offset_arg,
		   const char *len_arg);
int cmd_hwpoison(const char *path, const char *poison_arg,
		 const char *touch_arg);

#endif /* VMHELPER_H */
