/* bench/matrix.h: the benchmark matrix's parser (bin/bench, bench/driver.c).
 *
 * The matrix (bench/matrix.txt, whose header documents it) has one game
 * variant a line:
 *
 *     GAME[:OPTS] [solvers=LIST] [extra=LIST] [skip=LIST] [series=NAME]
 *                 [threads=N,...] [full]
 *
 * each field at most once; everything after '#' is a comment; a line
 * "#pending: GAME ..." is a line for a game not yet registered (a note is
 * printed once the game is). Solver lists are checked when read (every
 * name and its options known, no empty item); the game is not created here
 * (bench/driver.c does, when it selects the line). Lines of any length
 * (getline); a NUL byte anywhere is refused. Every refusal is ERR_USAGE (ERR_IO for a file that
 * cannot be read) with one line naming FILE:LINE.
 */
#ifndef BENCH_MATRIX_H
#define BENCH_MATRIX_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "solvers/solver.h"

#define MATRIX_SPEC_MAX 320
#define MATRIX_LIST_MAX 64
#define MATRIX_THREADS_MAX 16

/* A list of game or solver specs ("connect4:w=5,h=4", "dfs-depth:k=3"). */
typedef struct MatrixSpecs {
    int n;
    char item[MATRIX_LIST_MAX][MATRIX_SPEC_MAX];
} MatrixSpecs;

typedef bool (*MatrixIsName)(const char *name);
/* A registered game's / solver's name (game_find, solver_find). */
bool matrix_is_game_name(const char *name);
bool matrix_is_solver_name(const char *name);

/* Splits text into specs, appended to *out. Spaces and ';' always
 * separate; a comma separates too, except that a piece without ':' that is
 * not a registered name (is_name), after a spec with options, continues
 * that spec's options: "connect4:w=5,h=4, tictactoe:misere,sym" is two
 * specs. `what` names the list in messages ("solver", "game"). */
ErrCode matrix_specs_split(const char *text, MatrixIsName is_name, const char *what,
                           MatrixSpecs *out, Error *err);

/* The name part of a spec ("dfs-depth" of "dfs-depth:k=3"); "" if malformed. */
void matrix_spec_name(const char *spec, char *name, size_t n);

/* Checks a solver spec (name and options): solver_lookup's verdict. */
ErrCode matrix_solver_check(const char *spec, const SolverModule **s, Error *err);

/* One line of the matrix. */
typedef struct MatrixLine {
    char where[300]; /* "bench/matrix.txt:12" or "--games" */
    char game[MATRIX_SPEC_MAX];
    bool full;        /* only with --full */
    bool has_solvers; /* solvers= replaces the default set */
    /* The solvers=, extra= and skip= lists as written (checked when read;
     * split again where used, which keeps a line small for long matrices).
     * Owned by the matrix read from the file; copies share them. */
    char *solvers, *extra, *skip;
    char series[64];
    int nthreads;
    int threads[MATRIX_THREADS_MAX];
} MatrixLine;

typedef struct Matrix {
    int n, cap;
    MatrixLine *lines;
} Matrix;

/* Reads the matrix file `path` (matrix_read_stream of its contents). */
ErrCode matrix_read(const char *path, Matrix *m, Error *err);

/* Reads a matrix from f, appending its lines to *m; `path` names it in the
 * lines' `where` and in messages. Stops at the first bad line (the lines
 * before it stay in *m: free with matrix_free either way). */
ErrCode matrix_read_stream(FILE *f, const char *path, Matrix *m, Error *err);

/* Frees the lists of lines read from a file (not of copies) and the lines. */
void matrix_free(Matrix *m);

/* Appends a zeroed line (exits with ERR_MEMORY when out of memory). */
MatrixLine *matrix_add(Matrix *m);

#endif /* BENCH_MATRIX_H */
