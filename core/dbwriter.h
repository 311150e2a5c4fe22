/* core/dbwriter.h: a background writer of record files (core/dbstore.h),
 * so that a solver keeps solving while a finished part of its database is
 * compressed and written.
 *
 * One thread takes the writes in the order they are submitted and runs
 * dbstore_write on each (the same files, byte for byte, as a direct call:
 * atomic tmp + fsync + rename, the directory flushed). At most one write
 * is in flight: dbwriter_submit first waits for the previous one, so the
 * caller holds at most one finished part beyond what it would hold
 * anyway, and the files appear on disk in the order submitted (a resumed
 * solve sees a prefix of them). The caller keeps the submitted buffers
 * alive and unchanged until dbwriter_wait (or the next submit) returns.
 *
 * The first failed write is kept and returned by the next submit or wait;
 * later submits are then refused with the same error (nothing more is
 * written).
 *
 * Not thread-safe: one caller thread submits and waits.
 */
#ifndef CORE_DBWRITER_H
#define CORE_DBWRITER_H

#include <stdint.h>

#include "core/dbstore.h"
#include "core/error.h"

typedef struct DbWriter DbWriter;

/* Starts the writer thread for directory d (kept open and locked by the
 * caller until dbwriter_stop). Each file is compressed on `threads`
 * OpenMP threads (1: in the writer thread alone, which is what a solver
 * running its own threads meanwhile wants). */
ErrCode dbwriter_start(DbDir *d, int threads, DbWriter **w, Error *err);

/* Queues the write of `name` (the arguments of dbstore_write; the strings
 * and *info are copied). Waits for the previous write first and returns
 * its error, if any (then nothing is queued). *header_sum and *bytes are
 * set when the write completes, before the next submit or wait returns. */
ErrCode dbwriter_submit(DbWriter *w, const char *name, const DbStoreInfo *info, const void *records,
                        const int16_t *winby, uint64_t *header_sum, uint64_t *bytes, Error *err);

/* Waits until the queued write (if any) is done; returns the first error
 * of any write. */
ErrCode dbwriter_wait(DbWriter *w, Error *err);

/* Seconds the writer spent writing (busy), and the caller spent waiting
 * for it, since the start. */
double dbwriter_busy_seconds(DbWriter *w);
double dbwriter_wait_seconds(DbWriter *w);

/* Waits for the queued write, stops the thread and frees w (NULL is
 * fine). Its error, if any, is dropped: call dbwriter_wait first. */
void dbwriter_stop(DbWriter *w);

#endif /* CORE_DBWRITER_H */
