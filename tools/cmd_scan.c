// SPDX-License-Identifier: GPL-2.0-or-later
/* execfolio scan: placeholder until the ELF analysis lands. */
#include "execfolio.h"

int cmd_scan(int argc, char **argv)
{
	return usage_error("scan", "not implemented yet");
}
