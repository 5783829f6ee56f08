// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The log of fetches replayed later (fetch_log.h).
 */
#include <stdlib.h>

#include "fetch_log.h"

void fetch_log_init(struct fetch_log *log, unsigned int capacity)
{
	log->records = NULL;
	log->n = 0;
	log->capacity = capacity;
}

void fetch_log_destroy(struct fetch_log *log)
{
	free(log->records);
	log->records = NULL;
	log->n = 0;
}

bool fetch_log_add(struct fetch_log *log, uint64_t va, uint32_t key)
{
	struct fetch_record *last = log->n ? &log->records[log->n - 1] : NULL;

	if (last && last->key == key && last->va >> 12 == va >> 12 &&
	    last->count < UINT32_MAX) {
		last->count++;
		return true;
	}
	if (log->n == log->capacity)
		return false;
	if (!log->records) {
		log->records = malloc(sizeof(*log->records) * log->capacity);
		if (!log->records)
			return false;
	}
	log->records[log->n++] = (struct fetch_record){ va, key, 1 };
	return true;
}

void fetch_log_replay(struct fetch_log *log, struct core_model *m,
		      uint16_t asid, core_walk_fn walk, void *walk_ctx,
		      fetch_account_fn account, void *account_ctx)
{
	static const struct fetch_result hit = { FETCH_L1_HIT, 0, 0 };
	unsigned int i;

	for (i = 0; i < log->n; i++) {
		const struct fetch_record *rec = &log->records[i];
		struct fetch_result r =
			core_fetch(m, rec->va, asid, walk, walk_ctx);

		if (r.outcome == FETCH_UNWALKABLE) {
			account(account_ctx, rec->key, rec->count, &r);
			continue;
		}
		account(account_ctx, rec->key, 1, &r);
		if (rec->count > 1)
			account(account_ctx, rec->key, rec->count - 1, &hit);
	}
	log->n = 0;
}
