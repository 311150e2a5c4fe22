/* fuzz/symdb.c: fuzz target of the BDD ply reader (solvers/symbolic_db.h:
 * symdb_ply_read, symdb_ply_lookup, symdb_open, symdb_get, symdb_analyze).
 *
 * Input: one mode byte, one ply byte, then the bytes of a ply file
 * (ply-NNNN.gmdb: a record file of kind DBSTORE_BDD holding one node dump).
 * The file replaces ply (ply byte mod the plies) of a copy, in a scratch
 * directory, of a reference database the symbolic solver wrote
 * (tic-tac-toe, or Connect Four 4x4 when mode bit 6 is set and it is
 * there; fuzz/corpus.sh); the other plies stay the solver's. Mode bit 0
 * repairs the file's checksums (fuzz_fix_record_file) and makes the
 * manifest's line for that ply agree with the file (records from the
 * header, the file's size, the header checksum), as a crafted database
 * with valid checksums would; without it the manifest is the solver's.
 * Then the ply is read directly (symdb_ply_read); a dump it accepts is
 * looked up (symdb_ply_lookup) on the positions of that ply along a path
 * of moves picked by the input's bytes, and the database is opened
 * (symdb_open: ply 0), queried at the path's end (symdb_get: its ply) and,
 * with mode bit 1, analyzed (symdb_analyze reads every ply). A file that
 * symdb_ply_read refuses is refused by every other entry point the same
 * way, so those run only on accepted files. The replaced file is restored after each input.
 *
 * Checked (a finding when false): an accepted dump's roots and node
 * children lie below its node count + 2 (what symdb_ply_lookup relies on),
 * and no sanitizer report anywhere below. Without $GAMESMAN_FUZZ_DBS (no
 * reference database) the target returns at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/db.h"
#include "core/dbstore.h"
#include "core/le.h"
#include "fuzz/fuzz.h"
#include "games/game.h"
#include "solvers/symbolic_db.h"

typedef struct Ref {
    char dir[4200];
    Game *g;
    DbManifest m;
    unsigned char **orig; /* each ply file's bytes */
    size_t *orig_n;
    Database fmt; /* the record format symdb_get answers in */
} Ref;

static Ref refs[2];
static int nrefs;

static void setup_one(const char *name) {
    const char *from = fuzz_reference_db(name);
    if (from == NULL) {
        return;
    }
    Ref *r = &refs[nrefs];
    snprintf(r->dir, sizeof r->dir, "%s/%s", fuzz_scratch(), name);
    fuzz_copy_dir(from, r->dir);
    DbDir d;
    bool found = false;
    Error err = {0};
    FUZZ_CHECK(dbstore_dir_open(r->dir, false, &d, &err) == ERR_OK, "%s", err.msg);
    FUZZ_CHECK(dbstore_manifest_read(&d, &r->m, &found, &err) == ERR_OK && found, "%s: %s", from,
               err.msg);
    dbstore_dir_close(&d);
    FUZZ_CHECK(r->m.nfiles > 0, "%s: no plies", from);
    FUZZ_CHECK(game_create(r->m.spec, &r->g, &err) == ERR_OK, "%s", err.msg);
    r->orig = calloc((size_t)r->m.nfiles, sizeof *r->orig);
    r->orig_n = calloc((size_t)r->m.nfiles, sizeof *r->orig_n);
    FUZZ_CHECK(r->orig != NULL && r->orig_n != NULL, "out of memory");
    for (int k = 0; k < r->m.nfiles; k++) {
        r->orig[k] = fuzz_read(r->dir, r->m.files[k].name, &r->orig_n[k]);
        FUZZ_CHECK(r->orig[k] != NULL, "cannot read %s/%s", r->dir, r->m.files[k].name);
    }
    r->fmt.size = r->g->num_positions;
    r->fmt.width = r->m.width;
    r->fmt.shift = r->m.width == 1 ? 6 : 14;
    r->fmt.max_remoteness = r->m.width == 1 ? DB_MAX_REMOTENESS_8 : DB_MAX_REMOTENESS_16;
    nrefs++;
}

/* The position reached from the initial one by `steps` moves picked by the
 * input's bytes (fewer when the game ends); path[i] after i moves. */
static int walk_path(const Game *g, const uint8_t *data, size_t size, int steps, Position *path) {
    Position pos = g->initial;
    int i = 0;
    path[i] = pos;
    while (i < steps && g->ops->primitive(g, pos) == VALUE_UNDECIDED) {
        Move moves[GAME_MAX_MOVES];
        int n = g->ops->generate_moves(g, pos, moves);
        if (n <= 0) {
            break;
        }
        uint8_t pick = size > 0 ? data[(size_t)i % size] : 0;
        pos = game_canonical(g, g->ops->do_move(g, pos, moves[pick % n]));
        path[++i] = pos;
    }
    return i;
}

static void check_ply(const SymPly *sp) {
    uint64_t top = sp->nnodes + 2;
    for (uint64_t i = 0; i < (uint64_t)SYMDB_CLASSES * sp->nlayers; i++) {
        FUZZ_CHECK(sp->roots[i] < top, "root %llu = %u of %llu nodes", (unsigned long long)i,
                   sp->roots[i], (unsigned long long)sp->nnodes);
    }
    for (uint64_t k = 0; k < sp->nnodes; k++) {
        FUZZ_CHECK(sp->nodes[3 * k + 1] < k + 2 && sp->nodes[3 * k + 2] < k + 2 &&
                       sp->nodes[3 * k] < sp->nvars,
                   "node %llu out of order", (unsigned long long)k);
    }
}

/* Setup once, before the first input (not counted in -timeout). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    nrefs = 0;
    setup_one("tictactoe-symbolic");
    setup_one("connect4-4x4-symbolic");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (nrefs == 0 || size < 2) {
        return 0;
    }
    Ref *r = &refs[(data[0] & 64) && nrefs > 1 ? 1 : 0];
    const Game *g = r->g;
    int ply = data[1] % r->m.nfiles;
    size_t n = size - 2;
    unsigned char *b = malloc(n + 1);
    FUZZ_CHECK(b != NULL, "out of memory");
    memcpy(b, data + 2, n);

    /* The manifest: the solver's, its line for the ply made to agree with
     * the file when repairing. */
    DbManifest m = r->m;
    m.files = malloc((size_t)m.nfiles * sizeof *m.files);
    FUZZ_CHECK(m.files != NULL, "out of memory");
    memcpy(m.files, r->m.files, (size_t)m.nfiles * sizeof *m.files);
    if (data[0] & 1) {
        fuzz_fix_record_file(b, n);
        DbManifestFile *e = &m.files[ply];
        e->bytes = n;
        if (n >= DBSTORE_HEADER_BYTES) {
            e->records = le_get64(b + 32);
            e->header_sum = le_get64(b + 504);
        }
    }
    fuzz_write(r->dir, m.files[ply].name, b, n);
    free(b);

    DbDir d;
    Error err = {0};
    FUZZ_CHECK(dbstore_dir_open(r->dir, false, &d, &err) == ERR_OK, "%s", err.msg);
    Position path[64];
    int steps = walk_path(g, data + 2, n, ply < 63 ? ply : 63, path);
    uint8_t *values = calloc((size_t)g->encoding->nvars + 1, 1);
    FUZZ_CHECK(values != NULL, "out of memory");

    /* The reader reads a ply only through symdb_ply_read: when it refuses
     * the file, the database does too (nothing more to run). */
    SymPly sp;
    if (symdb_ply_read(&d, g, &m.files[ply], &sp, &err) == ERR_OK) {
        check_ply(&sp);
        for (int i = 0; i <= steps; i++) {
            if (g->encoding->values(g, path[i], values) == ply) {
                int cls;
                uint32_t rem;
                symdb_ply_lookup(&sp, values, &cls, &rem);
            }
        }
        symdb_ply_free(&sp);
        SymDb *db = NULL;
        if (symdb_open(g, &d, &m, &db, &err) == ERR_OK) {
            uint32_t raw;
            symdb_get(db, &r->fmt, path[steps], &raw, &err);
            DbSummary sum;
            if ((data[0] & 2) && symdb_analyze(db, &sum, NULL, &err) == ERR_OK) {
                db_summary_free(&sum);
            }
            symdb_close(db);
        }
    }
    free(values);
    dbstore_dir_close(&d);
    fuzz_write(r->dir, m.files[ply].name, r->orig[ply], r->orig_n[ply]);
    free(m.files);
    return 0;
}
