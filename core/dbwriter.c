/* core/dbwriter.c: the background writer of record files (core/dbwriter.h).
 *
 * A mutex and a condition variable guard one job slot: the caller fills
 * it (after waiting for it to be empty), the thread runs dbstore_write
 * outside the lock and empties it. Cost: one thread, one job's copies of
 * the name and the header description.
 *
 * The thread runs at a lower priority (nice DBWRITER_NICE): the solver
 * beside it leaves cores idle between and within its parallel loops, and
 * the writer should fill those, not take a share of the solver's cores
 * while both of its threads run (it only has to keep pace with the tiers).
 */
#define _GNU_SOURCE /* gettid */
#include "core/dbwriter.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"

typedef struct Job {
    char name[DBSTORE_NAME_MAX];
    DbStoreInfo info;
    const void *records;
    const int16_t *winby;
    uint64_t *header_sum, *bytes;
} Job;

struct DbWriter {
    DbDir *dir;
    int threads;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool has_job; /* the slot holds a job not yet finished */
    bool stop;
    Job job;
    ErrCode rc; /* the first failure, kept */
    Error err;
    double busy, waited;
};

#ifndef DBWRITER_NICE
#define DBWRITER_NICE 10
#endif

static void *writer_main(void *arg) {
    DbWriter *w = arg;
    /* Linux: a thread's own nice value (best effort: ignored on failure). */
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), getpriority(PRIO_PROCESS, 0) + DBWRITER_NICE);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->has_job && !w->stop) {
            pthread_cond_wait(&w->cv, &w->mu);
        }
        if (!w->has_job) {
            break; /* stop, and nothing left */
        }
        Job j = w->job;
        pthread_mutex_unlock(&w->mu);
        double t0 = clock_seconds();
        Error e = {0};
        uint64_t sum = 0, bytes = 0;
        ErrCode rc = dbstore_write(w->dir, j.name, &j.info, j.records, j.winby, w->threads, &sum,
                                   &bytes, &e);
        double dt = clock_seconds() - t0;
        pthread_mutex_lock(&w->mu);
        w->busy += dt;
        if (rc == ERR_OK) {
            if (j.header_sum != NULL) {
                *j.header_sum = sum;
            }
            if (j.bytes != NULL) {
                *j.bytes = bytes;
            }
        } else if (w->rc == ERR_OK) {
            w->rc = rc;
            w->err = e;
        }
        w->has_job = false;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

ErrCode dbwriter_start(DbDir *d, int threads, DbWriter **out, Error *err) {
    *out = NULL;
    DbWriter *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return error_set(err, ERR_MEMORY, "cannot allocate the database writer");
    }
    w->dir = d;
    w->threads = threads < 1 ? 1 : threads;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return error_set(err, ERR_MEMORY, "cannot create the database writer's lock");
    }
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return error_set(err, ERR_MEMORY, "cannot create the database writer's condition");
    }
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return error_set(err, ERR_MEMORY, "cannot start the database writer thread");
    }
    *out = w;
    return ERR_OK;
}

/* Waits (w->mu held) until the slot is empty; counts the time. */
static void wait_idle(DbWriter *w) {
    if (!w->has_job) {
        return;
    }
    double t0 = clock_seconds();
    while (w->has_job) {
        pthread_cond_wait(&w->cv, &w->mu);
    }
    w->waited += clock_seconds() - t0;
}

static ErrCode failure(DbWriter *w, Error *err) {
    if (w->rc != ERR_OK && err != NULL) {
        *err = w->err;
    }
    return w->rc;
}

ErrCode dbwriter_submit(DbWriter *w, const char *name, const DbStoreInfo *info, const void *records,
                        const int16_t *winby, uint64_t *header_sum, uint64_t *bytes, Error *err) {
    pthread_mutex_lock(&w->mu);
    wait_idle(w);
    ErrCode rc = failure(w, err);
    if (rc == ERR_OK) {
        snprintf(w->job.name, sizeof w->job.name, "%s", name);
        w->job.info = *info;
        w->job.records = records;
        w->job.winby = winby;
        w->job.header_sum = header_sum;
        w->job.bytes = bytes;
        w->has_job = true;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return rc;
}

ErrCode dbwriter_wait(DbWriter *w, Error *err) {
    pthread_mutex_lock(&w->mu);
    wait_idle(w);
    ErrCode rc = failure(w, err);
    pthread_mutex_unlock(&w->mu);
    return rc;
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
    wait_idle(w);
    w->stop = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
