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
 * strings owned by the list. */
char **test_game_specs(void);
void test_free_specs(char **specs);

/* True unless the environment says TEST_HEAVY=0 (the sanitizer run). */
bool test_heavy_enabled(void);

/* Creates a game or fails the test with the error message. */
Game *test_game(const char *spec);

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

/* Runs a group of dynamically built tests; frees the names. */
int test_run_group(const char *name, struct CMUnitTest *tests, size_t n);

/* printf into a new heap string. */
char *test_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TESTS_TESTUTIL_H */
