// SPDX-License-Identifier: GPL-2.0-or-later
/* execfolio stat: placeholder until the folio measurement lands. */
#include "execfolio.h"

int cmd_stat(int argc, char **argv)
{
	return usage_error("stat", "not implemented yet");
}
