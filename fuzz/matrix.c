/* fuzz/matrix.c: fuzz target of bin/bench's matrix parser (bench/matrix.h:
 * matrix_read_stream, and matrix_specs_split on the lists it keeps).
 *
 * Input: the text of a matrix file, read from memory (fmemopen) under the
 * name "fuzz.txt". Each line the parser accepts has its solver lists split
 * again as bench/driver.c splits them when it selects the line, and its
 * game spec split into name and options (matrix_spec_name); the games are
 * not created (bench/driver.c does that, and game_create is the options
 * parser's own matter).
 *
 * Checked (a finding when false): a refusal carries a message of one line
 * of printable ASCII naming the line ("fuzz.txt:N" or the field); a
 * matrix with a NUL byte anywhere is refused (it would cut a line short,
 * silently, as C strings end there); an
 * accepted line has a game, 0..MATRIX_THREADS_MAX thread counts each in
 * 1..1024, and solver lists that split again without error into at most
 * MATRIX_LIST_MAX specs; and no sanitizer report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/matrix.h"
#include "fuzz/fuzz.h"

static void check_message(const Error *err) {
    FUZZ_CHECK(err->msg[0] != '\0', "a refusal without a message");
    for (const char *c = err->msg; *c != '\0'; c++) {
        FUZZ_CHECK(*c >= 0x20 && *c < 0x7f, "a message with byte 0x%02x: %s", (unsigned char)*c,
                   err->msg);
    }
}

static void check_list(const char *list) {
    static MatrixSpecs specs; /* 20 KiB: not on the stack */
    if (list == NULL) {
        return;
    }
    specs = (MatrixSpecs){0};
    Error err = {0};
    FUZZ_CHECK(matrix_specs_split(list, matrix_is_solver_name, "solver", &specs, &err) == ERR_OK,
               "a kept list '%s' does not split again: %s", list, err.msg);
    FUZZ_CHECK(specs.n >= 1 && specs.n <= MATRIX_LIST_MAX, "%d specs in '%s'", specs.n, list);
    for (int i = 0; i < specs.n; i++) {
        char name[64];
        matrix_spec_name(specs.item[i], name, sizeof name);
        FUZZ_CHECK(matrix_is_solver_name(name), "'%s' of a kept list is no solver", specs.item[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) {
        return 0; /* fmemopen refuses an empty buffer */
    }
    char *text = malloc(size);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    FILE *f = fmemopen(text, size, "r");
    FUZZ_CHECK(f != NULL, "fmemopen failed");
    Matrix m = {0};
    Error err = {0};
    ErrCode rc = matrix_read_stream(f, "fuzz.txt", &m, &err);
    fclose(f);
    free(text);
    if (rc != ERR_OK) {
        check_message(&err);
    }
    /* A NUL byte would end a line's text early, silently: refused. */
    FUZZ_CHECK(rc != ERR_OK || memchr(data, '\0', size) == NULL,
               "a matrix with a NUL byte accepted");
    /* The lines before a refused one stay in m, each whole. */
    for (int i = 0; i < m.n - (rc != ERR_OK ? 1 : 0); i++) {
        const MatrixLine *l = &m.lines[i];
        FUZZ_CHECK(l->game[0] != '\0', "%s: a line without a game", l->where);
        FUZZ_CHECK(l->nthreads >= 0 && l->nthreads <= MATRIX_THREADS_MAX, "%s: %d thread counts",
                   l->where, l->nthreads);
        for (int t = 0; t < l->nthreads; t++) {
            FUZZ_CHECK(l->threads[t] >= 1 && l->threads[t] <= 1024, "%s: threads %d", l->where,
                       l->threads[t]);
        }
        check_list(l->solvers);
        check_list(l->extra);
        check_list(l->skip);
        char name[64];
        matrix_spec_name(l->game, name, sizeof name);
    }
    matrix_free(&m);
    return 0;
}
