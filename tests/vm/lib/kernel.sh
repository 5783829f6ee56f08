# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the guest's kernel is (/tests/lib/kernel.sh).

# The kernel base the guest runs: 6.12 (the backport) or 7.3.
kbase() { case $(uname -r) in 6.12*) echo 6.12 ;; *) echo 7.3 ;; esac; }
# Does the kernel give executable mappings large folios without any policy?
# On arm64 upstream's exec_folio_order() does (64K; 7.3, and the 6.12
# backport carries it); nowhere else.
arch_exec_default() { [ "$(uname -m)" = aarch64 ]; }
