/* solvers/store_internal.h: what solvers/store.c (saving, opening,
 * reading, analyzing) shares with solvers/store_verify.c (the
 * verification) and nothing else uses; the interface is solvers/store.h.
 */
#ifndef SOLVERS_STORE_INTERNAL_H
#define SOLVERS_STORE_INTERNAL_H

#include <stdint.h>

#include "core/db.h"
#include "core/error.h"
#include "solvers/store.h"

#define REMEDY "remove the directory and solve again, or use another --db"

/* Opens file k of the manifest (header, index) on first use; checks it is
 * the file the manifest lists. */
ErrCode store_open_file(Store *st, int k, Error *err);

/* Reads file k whole into a new database of its records (db_create'd). */
ErrCode store_load_file(Store *st, int k, int threads, Database *v, Error *err);

/* Tier t's records, read whole from its file or assembled from its
 * slices (layout tiers). */
ErrCode store_load_tier(Store *st, int t, int threads, Database *v, Error *err);

/* A record the game can hold: NULL if fine, else why not. */
const char *store_record_problem(const Store *st, uint32_t raw);

/* The summary of the records streamed: allocated empty, a record added n
 * times, and the totals checked against the manifest's (ERR_IO naming
 * both). */
ErrCode store_summary_alloc(const Store *st, DbSummary *sum, Error *err);
void store_summary_add_n(const Store *st, DbSummary *sum, uint32_t raw, uint64_t n);
ErrCode store_check_counts(const Store *st, const DbSummary *sum, Error *err);

#endif /* SOLVERS_STORE_INTERNAL_H */
