/* core/dbwriter.h: a background writer of record files (core/dbstore.h),
 * so that a solver keeps solving while a finished part of its database is
 * compressed and written.
 *
 * Files are written in the order they are submitted, each the same bytes
 * as a direct dbstore_write (atomic tmp + fsync + rename, the directory
 * flushed). A file is compressed in pieces (dbstore_compress_piece) by
 * background compressor threads, which work only while the caller has not
 * paused them (dbwriter_pause: the caller runs its own parallel loop and
 * wants every core), and by the caller's thread itself whenever it waits
 * (dbwriter_submit, dbwriter_wait); a separate I/O thread puts the pieces
 * into the file as they are done and closes it.
 *
 * At most one file is being compressed: dbwriter_submit first finishes
 * compressing the files queued before (helping), so when it returns the
 * buffers of every earlier submit are no longer read (their I/O may still
 * run, from the compressed pieces). The caller keeps the buffers of the
 * last submit alive and unchanged until the next submit or dbwriter_wait
 * returns. The files appear on disk in the order submitted (a resumed
 * solve sees a prefix of them).
 *
 * The first failed write is kept and returned by the next submit or wait;
 * later submits are then refused with the same error (nothing more is
 * written).
 *
 * Not thread-safe: one caller thread submits, waits, pauses and resumes.
 */
#ifndef CORE_DBWRITER_H
#define CORE_DBWRITER_H

#include <stdint.h>

#include "core/dbstore.h"
#include "core/error.h"

typedef struct DbWriter DbWriter;

/* Starts the writer's threads for directory d (kept open and locked by the
 * caller until dbwriter_stop): max(1, threads - 1) compressors, for the
 * cores a caller running `threads` threads leaves idle between its
 * parallel loops (its own thread is busy then), and one for I/O. */
ErrCode dbwriter_start(DbDir *d, int threads, DbWriter **w, Error *err);

/* Queues the write of `name` (the arguments of dbstore_write; the strings
 * and *info are copied). First compresses what is left of the files
 * queued before, on the calling thread beside the compressors, and waits
 * for the I/O of any file before those; returns the first error, if any
 * (then nothing is queued). *header_sum and *bytes are set when the write
 * completes, before the next dbwriter_wait (or the second submit after
 * this one) returns. */
ErrCode dbwriter_submit(DbWriter *w, const char *name, const DbStoreInfo *info, const void *records,
                        const int16_t *winby, uint64_t *header_sum, uint64_t *bytes, Error *err);

/* Waits until every queued file is written (compressing on the calling
 * thread meanwhile); returns the first error of any write. */
ErrCode dbwriter_wait(DbWriter *w, Error *err);

/* Pauses the background compressors (each after the piece in its hands,
 * about 16 blocks, well under a millisecond) until the matching
 * dbwriter_resume: around a parallel loop of the caller. Nests; NULL is
 * fine. The I/O thread goes on (it needs little CPU). */
void dbwriter_pause(DbWriter *w);
void dbwriter_resume(DbWriter *w);

/* CPU seconds spent compressing and writing files, summed over every
 * thread that did (the compressors, the I/O thread and the caller's
 * thread while it helped), and the wall seconds the caller spent inside
 * dbwriter_submit and dbwriter_wait (helping or waiting), since the
 * start. */
double dbwriter_busy_seconds(DbWriter *w);
double dbwriter_wait_seconds(DbWriter *w);

/* Finishes the queued files (as dbwriter_wait), stops the threads and
 * frees w (NULL is fine). Their error, if any, is dropped: call
 * dbwriter_wait first. */
void dbwriter_stop(DbWriter *w);

#endif /* CORE_DBWRITER_H */
