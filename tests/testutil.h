/* tests/testutil.h: helpers shared by the test programs. */
#ifndef TESTS_TESTUTIL_H
#define TESTS_TESTUTIL_H

#include <setjmp.h> /* cmocka needs these before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "games/game.h"
#include "solvers/solver.h"

/* A game spec ("name:options") for each test variant of every registered
 * game; heavy variants only when TEST_HEAVY is not "0". NULL-terminated,
 * strings owned by the list; *count (when not NULL) gets their number. */
char **test_game_specs(size_t *count);
void test_free_specs(char **specs);

/* True unless the environment says TEST_HEAVY=0 (the sanitizer run). */
bool test_heavy_enabled(void);

/* True when the environment says TEST_HEAVY=1 (make test TEST_HEAVY=1):
 * the heavy cases, larger twins of cases the default set runs on smaller
 * boards, run too (docs/testing.md). */
bool test_heavy_all(void);

/* Creates a game or fails the test with the error message. */
Game *test_game(const char *spec);

/* The children of p, canonical when the game is symmetric, one per move
 * in move order (a child reached by two moves is listed twice); 0 when p
 * is primitive. Calls the stateless family directly (uncounted). */
int test_children(const Game *g, Position p, Position *children);

/* The positions reachable from the initial position, by breadth-first
 * search over the stateless family (canonical positions when the game is
 * symmetric), in BFS order. *seen gets a byte per position (1 = reached);
 * free both with free(). */
typedef struct Reach {
    Position *list;
    uint64_t count;
    uint8_t *seen;
} Reach;
void test_reach(const Game *g, Reach *r);
void test_reach_free(Reach *r);

/* Runs a registered solver (by name) on g or fails the test. */
void test_solve(const char *solver, const Game *g, SolveResult *res);

/* The solver figure `name` of res (solver_stats), or fails the test. */
double test_extra(const SolveResult *res, const char *name);

/* Fails the test unless a and b hold the same records byte for byte (size,
 * width, records, and WinBy scores when either has them). */
void test_assert_same_db(const Database *a, const Database *b);

/* xorshift64 (Marsaglia, "Xorshift RNGs", 2003: shifts 13, 7, 17): the next
 * number of the sequence in *state (never 0 once seeded with a non-zero
 * value). Tests seed it with constants, so their cases are fixed. */
uint64_t test_rng(uint64_t *state);

/* Whether the mapping that holds p is advised MADV_HUGEPAGE: 1 or 0 from
 * its VmFlags in /proc/self/smaps ("hg"), -1 when the kernel has no
 * transparent huge pages or smaps does not say. */
int test_advised_huge(const void *p);

/* Runs a group of dynamically built tests; frees the names. */
int test_run_group(const char *name, struct CMUnitTest *tests, size_t n);

/* printf into a new heap string. */
char *test_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A new empty directory /tmp/NAME.XXXXXX (heap string), and its removal
 * with everything in it (frees the string). */
char *test_make_dir(const char *name);
void test_remove_dir(char *dir);

/* Runs the tier solver with OPTS (its option string, e.g. "sector=3") on
 * THREADS threads, its files in DIR (NULL: none); returns its code. */
ErrCode test_run_tier(const Game *g, const char *opts, int threads, const char *dir,
                      SolveResult *res, Error *err);

/* Positions and moves by their text (the game's parse, format and move
 * names), for the rule tests of the test_known_* programs:
 * test_parse_ok fails the test when `text` does not parse;
 * test_assert_moves checks the moves of `text` by name against `expected`
 * (space-separated, any order; none for a primitive position);
 * test_assert_after checks the text after the move named `name`. */
Position test_parse_ok(const Game *g, const char *text);
void test_assert_moves(const Game *g, const char *text, const char *expected);
void test_assert_after(const Game *g, const char *text, const char *name, const char *after);

#endif /* TESTS_TESTUTIL_H */
