// SPDX-License-Identifier: GPL-2.0-or-later
/* placeholder until the ELF analysis lands */
#include "execfolio.h"

int cmd_set(int argc, char **argv)
{
	return usage_error("set", "not implemented yet");
}

int cmd_clear(int argc, char **argv)
{
	return usage_error("clear", "not implemented yet");
}
