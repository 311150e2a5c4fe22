/* fuzz/manifest.c: fuzz target of the manifest parser (core/dbstore.h
 * dbstore_manifest_read) and of what reads a database through it
 * (solvers/store.h store_open, store_get, store_analyze).
 *
 * Input: one mode byte, then the text of a manifest. Bit 0 of the mode
 * repairs the checksum line (fuzz_fix_manifest), so that the lines behind
 * it are parsed; bits 1..3 choose the reference database (a copy, in a
 * scratch directory, of a database that bin/solve wrote: tic-tac-toe by
 * the tier solver, the same by dfs (slots), by the symbolic solver (BDD
 * plies), the same by bin/solve-mpi on 2 ranks (an N-rank manifest naming
 * rank-R-of-N/ slices), Connect Four 4x4 by the tier solver; fuzz/corpus.sh)
 * whose `manifest` the text replaces (bits 1..3 mod 5, in that order; a
 * database that is not there: an empty directory). A manifest the parser
 * accepts is then opened with store_open against that database's game,
 * and store_get reads the positions along a game picked by the input's
 * bytes; bit 5 also runs store_analyze (every file streamed), bit 4
 * store_verify (every record checked; milliseconds to tens of them).
 * Without reference databases ($GAMESMAN_FUZZ_DBS unset) the text is
 * parsed in an empty directory.
 *
 * The N-rank solve's other manifest, DIR/manifest-of-N.txt, is written for
 * people and never parsed (the ranks resume from their slices' headers;
 * core/dbranks.c reads only its name, checking the rank layout), so it is not a
 * target; the N-rank database is read through DIR/manifest, covered here.
 *
 * Checked (a finding when false): a manifest the parser accepts names only
 * files inside DIR (no absolute name, no component "." or "..", at most
 * one rank-R-of-N/ level), lists nfiles entries within DBSTORE_MAX_FILES,
 * and has a width of 1 or 2; and no sanitizer report anywhere below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/db.h"
#include "core/dbstore.h"
#include "fuzz/fuzz.h"
#include "games/game.h"
#include "solvers/store.h"

#define NREF 5
static const char *const ref_names[NREF] = {"tictactoe-tier", "tictactoe-dfs", "tictactoe-symbolic",
                                            "tictactoe-mpi2", "connect4-4x4-tier"};

typedef struct Ref {
    char dir[4200];
    Game *g; /* NULL: no reference database (parse only) */
} Ref;

static Ref refs[NREF + 1]; /* [NREF]: an empty directory */

static void setup(void) {
    const char *scratch = fuzz_scratch();
    for (int i = 0; i < NREF; i++) {
        Ref *r = &refs[i];
        const char *from = fuzz_reference_db(ref_names[i]);
        snprintf(r->dir, sizeof r->dir, "%s/%s", scratch, ref_names[i]);
        if (from == NULL) {
            FUZZ_CHECK(mkdir(r->dir, 0700) == 0, "cannot make %s", r->dir);
            continue;
        }
        fuzz_copy_dir(from, r->dir);
        DbDir d;
        DbManifest m;
        bool found = false;
        Error err = {0};
        FUZZ_CHECK(dbstore_dir_open(r->dir, false, &d, &err) == ERR_OK, "%s", err.msg);
        FUZZ_CHECK(dbstore_manifest_read(&d, &m, &found, &err) == ERR_OK && found,
                   "reference %s: %s", from, err.msg);
        FUZZ_CHECK(game_create(m.spec, &r->g, &err) == ERR_OK, "%s", err.msg);
        dbstore_manifest_free(&m);
        dbstore_dir_close(&d);
    }
}

/* Inside DIR: NAME, or rank-R-of-N/NAME; never absolute, no component
 * "." or ".." (a name such as "slots-0000..gmdb" is inside). */
static bool name_inside(const char *name) {
    const char *slash = strchr(name, '/');
    if (name[0] == '/' || name[0] == '\0') {
        return false;
    }
    for (const char *c = name; c != NULL; c = strchr(c, '/') != NULL ? strchr(c, '/') + 1 : NULL) {
        size_t len = strcspn(c, "/");
        if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.')) {
            return false;
        }
    }
    return slash == NULL || (strncmp(name, "rank-", 5) == 0 && strchr(slash + 1, '/') == NULL);
}

/* store_get (what --query reads) on the positions along a game picked by
 * the input's bytes, and on every child of the initial position: the
 * positions a query can name (parsed, legal), not arbitrary hash slots. */
static void query_some(Store *st, const Game *g, const uint8_t *data, size_t size) {
    Error err = {0};
    uint32_t raw;
    WinBy w;
    Position pos = g->initial;
    for (size_t i = 0; i < 64; i++) {
        store_get(st, game_canonical(g, pos), &raw, &w, &err);
        Move moves[GAME_MAX_MOVES];
        int n = g->ops->primitive(g, pos) == VALUE_UNDECIDED ? g->ops->generate_moves(g, pos, moves)
                                                             : 0;
        if (n <= 0) {
            break;
        }
        for (int k = 0; i == 0 && k < n; k++) {
            store_get(st, game_canonical(g, g->ops->do_move(g, pos, moves[k])), &raw, &w, &err);
        }
        pos = g->ops->do_move(g, pos, moves[size > 0 ? data[i % size] % n : 0]);
    }
}

/* Setup once, before the first input (not counted in -timeout). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    Ref *r = &refs[(data[0] >> 1 & 7) % NREF];
    size_t n = size - 1;
    char *text = malloc(n + 41);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + 1, n);
    if (data[0] & 1) {
        n = fuzz_fix_manifest(text, n);
    }
    fuzz_write(r->dir, "manifest", text, n);
    free(text);

    DbDir d;
    Error err = {0};
    FUZZ_CHECK(dbstore_dir_open(r->dir, false, &d, &err) == ERR_OK, "%s", err.msg);
    DbManifest m;
    bool found = false;
    if (dbstore_manifest_read(&d, &m, &found, &err) == ERR_OK && found) {
        FUZZ_CHECK(m.nfiles >= 0 && m.nfiles <= DBSTORE_MAX_FILES, "nfiles %d", m.nfiles);
        FUZZ_CHECK(m.nfiles == 0 || m.files != NULL, "no file list");
        FUZZ_CHECK(m.width == 1 || m.width == 2, "width %u", m.width);
        for (int i = 0; i < m.nfiles; i++) {
            FUZZ_CHECK(name_inside(m.files[i].name), "file '%s' outside the directory",
                       m.files[i].name);
        }
        dbstore_manifest_free(&m);
    }
    dbstore_dir_close(&d);
    if (r->g == NULL) {
        return 0;
    }
    Store st;
    if (store_open(r->g, r->dir, &st, &err) != ERR_OK) {
        return 0;
    }
    query_some(&st, r->g, data, size);
    DbSummary sum;
    if ((data[0] & 32) && store_analyze(&st, &sum, 1, &err) == ERR_OK) {
        db_summary_free(&sum);
    }
    if (data[0] & 16) {
        uint64_t checked = 0;
        store_verify(&st, 1, false, &checked, &err);
    }
    store_close(&st);
    return 0;
}
