#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shared policy vectors against the kernel (see guest/vmvectors.c).
exec vmvectors /tests/policy.vec "$TEST_DISK" /mnt
