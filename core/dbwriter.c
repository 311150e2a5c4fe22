/* core/dbwriter.c: the background writer of record files (core/dbwriter.h).
 *
 * A mutex and a condition variable guard a queue of at most WRITER_QUEUE
 * files (jobs). A job is cut into pieces of DBSTORE_PIECE_BLOCKS blocks
 * (dbstore_compress_piece); a piece is taken by whichever thread asks
 * first, in queue and block order: one of the background compressor
 * threads (only while the caller has not paused them) or the caller
 * itself when it waits (dbwriter_submit, dbwriter_wait). The I/O thread
 * puts the compressed pieces of the oldest job into its file in block
 * order as they are done (dbstore_sink_put), freeing each, and closes the
 * file (index, header, fsync, rename). So a job's memory is its index (8
 * bytes a block) and the compressed pieces not yet written, whose bytes
 * are the same whichever thread compressed them.
 *
 * Why pieces and a gate, not a second thread team at a lower priority
 * (the design before, docs/database.md): a solver that runs one thread a
 * core leaves cores idle only between its parallel loops; compressing
 * beside its loops at any priority took its cores, its caches and memory
 * bandwidth (6x5: 66 s more CPU with the writer than without, for about
 * 40 s of compression). Here compression runs only in the caller's serial
 * sections (its other cores) and, for what is left, on every core when
 * the caller must wait.
 */
#define _GNU_SOURCE
#include "core/dbwriter.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"

/* Files queued at most: the one the I/O thread writes out, and the one
 * being compressed. */
#define WRITER_QUEUE 2

typedef struct Piece {
    void *data; /* its frames (NULL: none), owned until written */
    size_t bytes;
    bool done;
} Piece;

typedef struct Job {
    char name[DBSTORE_NAME_MAX];
    DbStoreInfo info;
    DbStoreDict dict; /* made by the caller at submission */
    const void *records;
    const int16_t *winby;
    uint64_t *header_sum, *bytes;
    uint64_t blocks, npieces;
    uint64_t taken, done; /* pieces handed out, pieces compressed */
    Piece *pieces;
    unsigned char *index; /* 8 bytes a block, set by the compressors */
} Job;

struct DbWriter {
    DbDir *dir;
    int nz; /* background compressor threads */
    pthread_t io, *z;
    DbStoreZ **zs; /* nz + 1 compressors: one per thread, the last the caller's */
    int zstarted;  /* compressor threads started */
    bool io_started;
    pthread_mutex_t mu;
    /* who waits for what: the compressors for work (zcv), the I/O thread
     * for a job or for the piece io_piece of io_job (iocv), the caller for
     * pieces or written files (ccv, when caller_waiting); each is woken
     * only for its own event, not by every piece */
    pthread_cond_t zcv, iocv, ccv;
    const struct Job *io_job;
    uint64_t io_piece;
    bool caller_waiting;
    Job jobs[WRITER_QUEUE]; /* a ring: jobs[head], then the next */
    int head, len;
    int paused; /* dbwriter_pause without its dbwriter_resume */
    bool stop;
    ErrCode rc; /* the first failure, kept */
    Error err;
    double busy, waited;
};

static double thread_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Keeps the first failure (w->mu held). */
static void fail(DbWriter *w, ErrCode rc, const Error *e) {
    if (rc != ERR_OK && w->rc == ERR_OK) {
        w->rc = rc;
        w->err = *e;
    }
}

/* The first queued job with a piece not yet taken, or NULL (w->mu held). */
static Job *job_to_compress(DbWriter *w) {
    for (int i = 0; i < w->len; i++) {
        Job *j = &w->jobs[(w->head + i) % WRITER_QUEUE];
        if (j->taken < j->npieces) {
            return j;
        }
    }
    return NULL;
}

static bool all_compressed(const DbWriter *w) {
    for (int i = 0; i < w->len; i++) {
        const Job *j = &w->jobs[(w->head + i) % WRITER_QUEUE];
        if (j->done < j->npieces) {
            return false;
        }
    }
    return true;
}

/* Takes the next piece of j and compresses it with z (w->mu held, released
 * while compressing). After a failure the piece is only marked done. */
static void compress_next(DbWriter *w, Job *j, DbStoreZ *z) {
    uint64_t p = j->taken++;
    bool skip = w->rc != ERR_OK;
    pthread_mutex_unlock(&w->mu);
    double c0 = thread_cpu();
    Error e = {0};
    ErrCode rc = ERR_OK;
    void *out = NULL;
    size_t n = 0;
    if (!skip) {
        uint64_t k0 = p * DBSTORE_PIECE_BLOCKS;
        uint64_t k1 = k0 + DBSTORE_PIECE_BLOCKS < j->blocks ? k0 + DBSTORE_PIECE_BLOCKS : j->blocks;
        rc = dbstore_compress_piece(z, &j->info, &j->dict, j->records, j->winby, k0, k1, j->index,
                                    &out, &n, &e);
    }
    double dt = thread_cpu() - c0;
    pthread_mutex_lock(&w->mu);
    w->busy += dt;
    fail(w, rc, &e);
    j->pieces[p] = (Piece){out, n, true};
    j->done++;
    if (w->io_job == j && w->io_piece == p) {
        pthread_cond_signal(&w->iocv);
    }
    if (w->caller_waiting) {
        pthread_cond_signal(&w->ccv);
    }
}

typedef struct ZArg {
    DbWriter *w;
    int k;
} ZArg;

static void *z_main(void *arg) {
    DbWriter *w = ((ZArg *)arg)->w;
    DbStoreZ *z = w->zs[((ZArg *)arg)->k];
    free(arg);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        Job *j = NULL;
        while (!w->stop && (w->paused > 0 || (j = job_to_compress(w)) == NULL)) {
            pthread_cond_wait(&w->zcv, &w->mu);
        }
        if (j == NULL) {
            break; /* stop: the queue is empty (dbwriter_stop waited for it) */
        }
        compress_next(w, j, z);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Writes out the oldest job once its pieces come, then drops it. */
static void *io_main(void *arg) {
    DbWriter *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->len == 0 && !w->stop) {
            pthread_cond_wait(&w->iocv, &w->mu);
        }
        if (w->len == 0) {
            break;
        }
        Job *j = &w->jobs[w->head];
        ErrCode rc = w->rc;
        Error e = {0};
        DbStoreSink sink = {.fd = -1};
        pthread_mutex_unlock(&w->mu);
        double c0 = thread_cpu();
        if (rc == ERR_OK) {
            rc = dbstore_sink_open(w->dir, j->name, &j->dict, &sink, &e);
        }
        for (uint64_t p = 0; p < j->npieces; p++) {
            pthread_mutex_lock(&w->mu);
            while (!j->pieces[p].done) {
                w->io_job = j;
                w->io_piece = p;
                pthread_cond_wait(&w->iocv, &w->mu);
            }
            w->io_job = NULL;
            Piece piece = j->pieces[p];
            j->pieces[p].data = NULL;
            pthread_mutex_unlock(&w->mu);
            if (rc == ERR_OK && piece.bytes > 0) {
                rc = dbstore_sink_put(&sink, piece.data, piece.bytes, &e);
            }
            free(piece.data);
        }
        pthread_mutex_lock(&w->mu);
        if (rc == ERR_OK) {
            rc = w->rc; /* a piece failed: the file is not kept */
        }
        pthread_mutex_unlock(&w->mu);
        uint64_t sum = 0, bytes = 0;
        if (sink.fd >= 0) {
            Error e2 = {0};
            ErrCode rc2 = dbstore_sink_close(w->dir, &sink, &j->info, j->index, rc, &sum, &bytes,
                                             rc == ERR_OK ? &e : &e2);
            rc = rc == ERR_OK ? rc2 : rc;
        }
        double dt = thread_cpu() - c0;
        pthread_mutex_lock(&w->mu);
        w->busy += dt;
        fail(w, rc, &e);
        if (rc == ERR_OK) {
            if (j->header_sum != NULL) {
                *j->header_sum = sum;
            }
            if (j->bytes != NULL) {
                *j->bytes = bytes;
            }
        }
        free(j->pieces);
        free(j->index);
        memset(j, 0, sizeof *j);
        w->head = (w->head + 1) % WRITER_QUEUE;
        w->len--;
        pthread_cond_signal(&w->ccv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* The caller sleeps until a piece is done or a file written (w->mu held). */
static void caller_wait(DbWriter *w) {
    w->caller_waiting = true;
    pthread_cond_wait(&w->ccv, &w->mu);
    w->caller_waiting = false;
}

/* The caller compresses pieces until every queued job is compressed (w->mu
 * held). */
static void help(DbWriter *w) {
    for (;;) {
        Job *j = job_to_compress(w);
        if (j != NULL) {
            compress_next(w, j, w->zs[w->nz]);
        } else if (all_compressed(w)) {
            return;
        } else {
            caller_wait(w); /* a piece in another thread's hands */
        }
    }
}

static void writer_free(DbWriter *w) {
    for (int k = 0; w->zs != NULL && k <= w->nz; k++) {
        dbstore_z_free(w->zs[k]);
    }
    free(w->zs);
    free(w->z);
    pthread_cond_destroy(&w->zcv);
    pthread_cond_destroy(&w->iocv);
    pthread_cond_destroy(&w->ccv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

ErrCode dbwriter_start(DbDir *d, int threads, DbWriter **out, Error *err) {
    *out = NULL;
    DbWriter *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the database writer");
    }
    w->dir = d;
    w->nz = threads > 2 ? threads - 1 : 1;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return error_set(err, ERR_MEMORY, "cannot create the database writer's lock");
    }
    if (pthread_cond_init(&w->zcv, NULL) != 0 || pthread_cond_init(&w->iocv, NULL) != 0 ||
        pthread_cond_init(&w->ccv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu); /* the conditions hold no resources on Linux */
        free(w);
        return error_set(err, ERR_MEMORY, "cannot create the database writer's conditions");
    }
    w->z = calloc((size_t)w->nz, sizeof *w->z);
    w->zs = calloc((size_t)w->nz + 1, sizeof *w->zs);
    bool ok = w->z != NULL && w->zs != NULL;
    for (int k = 0; ok && k <= w->nz; k++) {
        ok = (w->zs[k] = dbstore_z_new()) != NULL;
    }
    if (!ok) {
        writer_free(w);
        return error_set(err, ERR_MEMORY, "cannot allocate the database writer's compressors");
    }
    ok = pthread_create(&w->io, NULL, io_main, w) == 0;
    w->io_started = ok;
    for (int k = 0; ok && k < w->nz; k++) {
        ZArg *a = malloc(sizeof *a);
        ok = a != NULL;
        if (ok) {
            *a = (ZArg){w, k};
            ok = pthread_create(&w->z[k], NULL, z_main, a) == 0;
            if (!ok) {
                free(a);
            }
        }
        w->zstarted += ok;
    }
    if (!ok) {
        dbwriter_stop(w);
        return error_set(err, ERR_MEMORY, "cannot start the database writer's threads");
    }
    *out = w;
    return ERR_OK;
}

static ErrCode failure(DbWriter *w, Error *err) {
    if (w->rc != ERR_OK && err != NULL) {
        *err = w->err;
    }
    return w->rc;
}

ErrCode dbwriter_submit(DbWriter *w, const char *name, const DbStoreInfo *info, const void *records,
                        const int16_t *winby, uint64_t *header_sum, uint64_t *bytes, Error *err) {
    double t0 = clock_seconds();
    /* The dictionary first, outside the lock (the compressors go on with
     * the previous file meanwhile). */
    DbStoreDict dict;
    Error derr = {0};
    ErrCode drc = dbstore_dict_make(info, records, winby, &dict, &derr);
    pthread_mutex_lock(&w->mu);
    fail(w, drc, &derr);
    help(w);
    while (w->len == WRITER_QUEUE) {
        caller_wait(w); /* the oldest file's I/O */
    }
    ErrCode rc = failure(w, err);
    if (rc == ERR_OK) {
        Job *j = &w->jobs[(w->head + w->len) % WRITER_QUEUE];
        memset(j, 0, sizeof *j);
        snprintf(j->name, sizeof j->name, "%s", name);
        j->info = *info;
        j->dict = dict;
        j->records = records;
        j->winby = winby;
        j->header_sum = header_sum;
        j->bytes = bytes;
        j->blocks = dbstore_blocks(info);
        j->npieces = (j->blocks + DBSTORE_PIECE_BLOCKS - 1) / DBSTORE_PIECE_BLOCKS;
        j->pieces = calloc((size_t)j->npieces + 1, sizeof *j->pieces);
        j->index = calloc((size_t)j->blocks + 1, 8);
        if (info->width == 0 || j->pieces == NULL || j->index == NULL) {
            free(j->pieces);
            free(j->index);
            memset(j, 0, sizeof *j);
            rc = info->width == 0
                     ? error_set(err, ERR_INTERNAL, "dbstore: bad file description for %s", name)
                     : error_set(err, ERR_MEMORY, "cannot allocate the index of %s", name);
        } else {
            w->len++;
            pthread_cond_broadcast(&w->zcv);
            pthread_cond_signal(&w->iocv);
        }
    }
    w->waited += clock_seconds() - t0;
    pthread_mutex_unlock(&w->mu);
    return rc;
}

ErrCode dbwriter_wait(DbWriter *w, Error *err) {
    double t0 = clock_seconds();
    pthread_mutex_lock(&w->mu);
    help(w);
    while (w->len > 0) {
        caller_wait(w);
    }
    ErrCode rc = failure(w, err);
    w->waited += clock_seconds() - t0;
    pthread_mutex_unlock(&w->mu);
    return rc;
}

void dbwriter_pause(DbWriter *w) {
    if (w != NULL) {
        pthread_mutex_lock(&w->mu);
        w->paused++;
        pthread_mutex_unlock(&w->mu);
    }
}

void dbwriter_resume(DbWriter *w) {
    if (w != NULL) {
        pthread_mutex_lock(&w->mu);
        w->paused--;
        pthread_cond_broadcast(&w->zcv);
        pthread_mutex_unlock(&w->mu);
    }
}

double dbwriter_busy_seconds(DbWriter *w) {
    pthread_mutex_lock(&w->mu);
    double v = w->busy;
    pthread_mutex_unlock(&w->mu);
    return v;
}

double dbwriter_wait_seconds(DbWriter *w) {
    pthread_mutex_lock(&w->mu);
    double v = w->waited;
    pthread_mutex_unlock(&w->mu);
    return v;
}

void dbwriter_stop(DbWriter *w) {
    if (w == NULL) {
        return;
    }
    pthread_mutex_lock(&w->mu);
    help(w);
    while (w->len > 0 && w->io_started) {
        caller_wait(w);
    }
    w->stop = true;
    pthread_cond_broadcast(&w->zcv);
    pthread_cond_signal(&w->iocv);
    pthread_mutex_unlock(&w->mu);
    if (w->io_started) {
        pthread_join(w->io, NULL);
    }
    for (int k = 0; k < w->zstarted; k++) {
        pthread_join(w->z[k], NULL);
    }
    writer_free(w);
}
