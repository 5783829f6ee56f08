/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fetches kept in order to be fed to the model later: on arm64 the
 * plugin cannot read the guest's tables while user code runs, so from
 * the first walk it cannot do until the next kernel instruction it logs
 * the fetches and replays them then.  Fetches of the same page in a row
 * are one record: after the first, each is an L1 hit that changes
 * nothing (its entry is already the most recently used), unless the
 * first could not be walked, and then neither can they.
 */
#ifndef ITLB_FETCH_LOG_H
#define ITLB_FETCH_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"

struct fetch_record {
	uint64_t va;
	uint32_t key; /* the caller's address space key */
	uint32_t count; /* fetches of the page in a row */
};

struct fetch_log {
	struct fetch_record *records; /* allocated at the first fetch */
	unsigned int n;
	unsigned int capacity;
};

void fetch_log_init(struct fetch_log *log, unsigned int capacity);
void fetch_log_destroy(struct fetch_log *log);

/* Logs a fetch of @va's page in @key; false when the log is full (or
 * cannot be allocated): the fetch is not logged. */
bool fetch_log_add(struct fetch_log *log, uint64_t va, uint32_t key);

/* What a fetch, or @count fetches of one outcome, did to @key. */
typedef void (*fetch_account_fn)(void *ctx, uint32_t key, uint64_t count,
				 const struct fetch_result *r);

/* Feeds the log, in order, to @m (lookups tagged @asid) and empties it. */
void fetch_log_replay(struct fetch_log *log, struct core_model *m,
		      uint16_t asid, core_walk_fn walk, void *walk_ctx,
		      fetch_account_fn account, void *account_ctx);

#endif
