/* core/db.h: the value database, a dense array indexed by position.
 *
 * One record per position of the game's hash space, 8 or 16 bits wide:
 *
 *     8-bit:   7 6 | 5 4 3 2 1 0        16-bit:  15 14 | 13 .. 0
 *             class| remoteness                  class | remoteness
 *
 *   class 1 win, 2 lose, 3 tie, with remoteness 0..63 (8-bit) or 0..16383;
 *   class 0 is special: remoteness field 0 = unreached (the zero byte, so a
 *   calloc'ed database starts all-unreached), 1 = reached but not decided
 *   (the sweep's visited bit), 2 = draw (loopy games).
 *
 * The width comes from the game's bound on remoteness (db_width_for): a
 * byte per position when the game cannot last more than 63 moves. A solver
 * that meets a larger remoteness gets `false` from db_put and reports
 * ERR_LIMIT; nothing is silently truncated. Games with WinBy scores keep them
 * in a parallel int16 array (WinBy document: scores from player one's
 * perspective, range -32768..32767).
 *
 * db_get/db_put count db_reads/db_writes; db_peek does not (for reports).
 * Concurrent writes to distinct positions are safe (no read-modify-write).
 */
#ifndef CORE_DB_H
#define CORE_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/stats.h"
#include "core/types.h"
#include "core/value.h"

#define DB_MAX_REMOTENESS_8 63u
#define DB_MAX_REMOTENESS_16 16383u

/* Raw records of the special class. */
#define DB_UNREACHED 0u
#define DB_VISITED 1u
#define DB_DRAW 2u

typedef struct Database {
    uint64_t size;           /* number of records (the game's num_positions) */
    unsigned width;          /* bytes per record: 1 or 2 */
    unsigned shift;          /* 6 or 14: position of the class bits */
    uint32_t max_remoteness; /* 63 or 16383 */
    uint8_t *r8;             /* records when width == 1, else NULL */
    uint16_t *r16;           /* records when width == 2, else NULL */
    int16_t *winby;          /* WinBy per position, NULL unless the game has scores */
} Database;

/* Bytes per record for a game whose remoteness never exceeds max_depth
 * (0: unknown bound, e.g. a loopy game). */
unsigned db_width_for(uint32_t max_depth);

/* Bytes a database of `size` records would take (for memory estimates). */
uint64_t db_bytes(uint64_t size, unsigned width, bool winby);

/* Allocates an all-unreached database after checking the memory budget. */
ErrCode db_create(Database *db, uint64_t size, unsigned width, bool winby, Error *err);
void db_destroy(Database *db);

/* Raw record access (uncounted). */
static inline uint32_t db_peek(const Database *db, Position p) {
    return db->width == 1 ? db->r8[p] : db->r16[p];
}

static inline void db_poke(Database *db, Position p, uint32_t raw) {
    if (db->width == 1) {
        db->r8[p] = (uint8_t)raw;
    } else {
        db->r16[p] = (uint16_t)raw;
    }
}

/* Record decoding. */
/* Adds to hist[b] the one-byte records of value b among r[0..n), b > 0
 * (hist[0] is left inexact): 8 records at a time, most of which are zero
 * (unreached) in a sparse tier and passed in one test. */
static inline void db_count_bytes(const uint8_t *r, uint64_t n, uint64_t hist[256]) {
    uint64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        uint64_t x;
        memcpy(&x, r + j, 8);
        for (; x != 0; x >>= 8) {
            hist[x & 0xff]++;
        }
    }
    for (; j < n; j++) {
        hist[r[j]]++;
    }
}

static inline bool db_raw_reached(uint32_t raw) { return raw != DB_UNREACHED; }

static inline Value db_raw_value(const Database *db, uint32_t raw) {
    static const Value by_class[4] = {VALUE_UNDECIDED, VALUE_WIN, VALUE_LOSE, VALUE_TIE};
    uint32_t cls = raw >> db->shift;
    if (cls == 0) {
        return raw == DB_DRAW ? VALUE_DRAW : VALUE_UNDECIDED;
    }
    return by_class[cls];
}

static inline uint32_t db_raw_remoteness(const Database *db, uint32_t raw) {
    return (raw >> db->shift) == 0 ? 0 : raw & db->max_remoteness;
}

/* True when the record holds a final value (win, lose, tie or draw). */
static inline bool db_raw_solved(const Database *db, uint32_t raw) {
    return (raw >> db->shift) != 0 || raw == DB_DRAW;
}

/* Encodes an outcome. Returns false when the remoteness does not fit. */
static inline bool db_encode(const Database *db, Value v, uint32_t r, uint32_t *raw) {
    switch (v) {
    case VALUE_WIN:
    case VALUE_LOSE:
    case VALUE_TIE:
        if (r > db->max_remoteness) {
            return false;
        }
        *raw = ((uint32_t)v << db->shift) | r;
        return true;
    case VALUE_DRAW:
        *raw = DB_DRAW;
        return true;
    case VALUE_UNDECIDED:
        break;
    }
    *raw = DB_VISITED;
    return true;
}

/* Counted solver access. */
static inline uint32_t db_get(const Database *db, Position p) {
    STAT_INC(db_reads);
    return db_peek(db, p);
}

/* Stores an outcome; false when its remoteness exceeds the record width. */
static inline bool db_put(Database *db, Position p, Value v, uint32_t r) {
    uint32_t raw;
    if (!db_encode(db, v, r, &raw)) {
        return false;
    }
    STAT_INC(db_writes);
    db_poke(db, p, raw);
    return true;
}

/* The message for a remoteness that does not fit. Returns ERR_LIMIT. */
ErrCode db_overflow_error(const Database *db, Position p, uint32_t r, Error *err);

/* Totals over the reached positions of a database. */
typedef struct DbSummary {
    uint64_t positions; /* reached and solved */
    uint64_t undecided; /* reached but left without a value (should be 0) */
    uint64_t count[VALUE_COUNT];
    uint32_t max_remoteness; /* largest remoteness seen */
    /* by_remoteness[r][v]: positions of value v at remoteness r, r <= max_remoteness */
    uint64_t (*by_remoteness)[VALUE_COUNT];
    /* by_tier[t][v]: positions of value v in tier t, t < ntiers; NULL
     * unless the counts were taken from a database of layout tiers
     * (store_analyze) */
    int ntiers;
    uint64_t (*by_tier)[VALUE_COUNT];
} DbSummary;

/* Counts values over the database; with_histogram also fills by_remoteness
 * (free with db_summary_free). */
ErrCode db_summarize(const Database *db, bool with_histogram, DbSummary *s, Error *err);
void db_summary_free(DbSummary *s);

#endif /* CORE_DB_H */
