#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shared policy vectors against the kernel (see guest/vmvectors.c).
# The 6.12 backport's order is a minimum lowered to the file's size.
case $(uname -r) in
6.12*) exec vmvectors --lbs /tests/policy.vec "$TEST_DISK" /mnt ;;
*) exec vmvectors /tests/policy.vec "$TEST_DISK" /mnt ;;
esac
