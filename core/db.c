/* core/db.c: see db.h. */
#include "core/db.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"

unsigned db_width_for(uint32_t max_depth) {
    return (max_depth != 0 && max_depth <= DB_MAX_REMOTENESS_8) ? 1 : 2;
}

uint64_t db_bytes(uint64_t size, unsigned width, bool winby) {
    return size * width + (winby ? size * sizeof(int16_t) : 0);
}

ErrCode db_create(Database *db, uint64_t size, unsigned width, bool winby, Error *err) {
    memset(db, 0, sizeof *db);
    if (width != 1 && width != 2) {
        return error_set(err, ERR_INTERNAL, "database width must be 1 or 2 bytes, not %u", width);
    }
    if (size > SIZE_MAX / 4) {
        return error_set(err, ERR_MEMORY, "a database of %" PRIu64 " positions cannot be addressed",
                         size);
    }
    ErrCode rc = mem_check(db_bytes(size, width, winby), "the value database", err);
    if (rc != ERR_OK) {
        return rc;
    }
    db->size = size;
    db->width = width;
    db->shift = width == 1 ? 6 : 14;
    db->max_remoteness = width == 1 ? DB_MAX_REMOTENESS_8 : DB_MAX_REMOTENESS_16;
    if (width == 1) {
        db->r8 = mem_calloc((size_t)size, 1, "the value database", err);
    } else {
        db->r16 = mem_calloc((size_t)size, 2, "the value database", err);
    }
    if (db->r8 == NULL && db->r16 == NULL) {
        return ERR_MEMORY;
    }
    if (winby) {
        db->winby = mem_calloc((size_t)size, sizeof(int16_t), "the WinBy array", err);
        if (db->winby == NULL) {
            db_destroy(db);
            return ERR_MEMORY;
        }
    }
    return ERR_OK;
}

void db_destroy(Database *db) {
    free(db->r8);
    free(db->r16);
    free(db->winby);
    memset(db, 0, sizeof *db);
}

ErrCode db_overflow_error(const Database *db, Position p, uint32_t r, Error *err) {
    return error_set(err, ERR_LIMIT,
                     "position %" PRIu64 " has remoteness %" PRIu32
                     ", more than the %u-bit database record holds (%" PRIu32
                     "); the game's max_depth bound is wrong",
                     p, r, db->width * 8, db->max_remoteness);
}

ErrCode db_summarize(const Database *db, bool with_histogram, DbSummary *s, Error *err) {
    memset(s, 0, sizeof *s);
    for (uint64_t p = 0; p < db->size; p++) {
        uint32_t raw = db_peek(db, p);
        if (!db_raw_reached(raw)) {
            continue;
        }
        if (!db_raw_solved(db, raw)) {
            s->undecided++;
            continue;
        }
        s->positions++;
        s->count[db_raw_value(db, raw)]++;
        uint32_t r = db_raw_remoteness(db, raw);
        if (r > s->max_remoteness) {
            s->max_remoteness = r;
        }
    }
    if (!with_histogram) {
        return ERR_OK;
    }
    s->by_remoteness = mem_calloc((size_t)s->max_remoteness + 1, sizeof *s->by_remoteness,
                                  "the remoteness histogram", err);
    if (s->by_remoteness == NULL) {
        return ERR_MEMORY;
    }
    for (uint64_t p = 0; p < db->size; p++) {
        uint32_t raw = db_peek(db, p);
        if (db_raw_solved(db, raw)) {
            s->by_remoteness[db_raw_remoteness(db, raw)][db_raw_value(db, raw)]++;
        }
    }
    return ERR_OK;
}

void db_summary_free(DbSummary *s) {
    free(s->by_remoteness);
    s->by_remoteness = NULL;
    free(s->by_tier);
    s->by_tier = NULL;
}
