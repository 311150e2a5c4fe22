/* bench/matrix.c: the benchmark matrix's parser (bench/matrix.h has the
 * format): one line at a time (getline, any length), split into
 * whitespace-separated fields, each checked when read; solver lists go
 * through matrix_specs_split and solver_lookup. O(bytes of the file) apart
 * from the solver lookups.
 */
#include "bench/matrix.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "games/game.h"
#include "solvers/solver.h"

/* ----------------------------------------------------------- spec lists */

bool matrix_is_game_name(const char *name) { return game_find(name) != NULL; }
bool matrix_is_solver_name(const char *name) { return solver_find(name) != NULL; }

/* Splits text into specs. Spaces and ';' always separate; a comma separates
 * too, except that a piece without ':' that is not a registered name, after
 * a spec with options, continues that spec's options: "connect4:w=5,h=4,
 * tictactoe:misere,sym" is two specs. */
ErrCode matrix_specs_split(const char *text, MatrixIsName is_name, const char *what,
                           MatrixSpecs *out, Error *err) {
    char buf[4096];
    if (strlen(text) >= sizeof buf) {
        return error_set(err, ERR_USAGE, "%s list is too long", what);
    }
    strcpy(buf, text);
    bool may_continue = false;
    for (char *save = NULL, *group = strtok_r(buf, " \t;", &save); group != NULL;
         group = strtok_r(NULL, " \t;", &save)) {
        if (group[0] == ',' || group[strlen(group) - 1] == ',' || strstr(group, ",,") != NULL) {
            return error_set(err, ERR_USAGE, "empty %s in '%s' (a stray comma)", what, text);
        }
        may_continue = false;
        for (char *save2 = NULL, *piece = strtok_r(group, ",", &save2); piece != NULL;
             piece = strtok_r(NULL, ",", &save2)) {
            bool options = strchr(piece, ':') != NULL;
            if (may_continue && !options && !is_name(piece)) {
                char *prev = out->item[out->n - 1];
                if (strlen(prev) + strlen(piece) + 2 > MATRIX_SPEC_MAX) {
                    return error_set(err, ERR_USAGE, "%s '%s...' is too long", what, prev);
                }
                strcat(prev, ",");
                strcat(prev, piece);
                continue;
            }
            if (out->n == MATRIX_LIST_MAX) {
                return error_set(err, ERR_USAGE, "more than %d %ss in one list", MATRIX_LIST_MAX,
                                 what);
            }
            if (strlen(piece) >= MATRIX_SPEC_MAX) {
                return error_set(err, ERR_USAGE, "%s '%s' is too long", what, piece);
            }
            strcpy(out->item[out->n++], piece);
            may_continue = options;
        }
    }
    return ERR_OK;
}

/* The name part of a spec ("dfs-depth" of "dfs-depth:k=3"); "" if malformed. */
void matrix_spec_name(const char *spec, char *name, size_t n) {
    const char *options;
    if (spec_split(spec, "spec", name, n, &options, NULL) != ERR_OK) {
        name[0] = '\0';
    }
}

/* Checks a solver spec (name and options) and writes its benchmark form:
 * the name, plus the options as the user gave them. */
ErrCode matrix_solver_check(const char *spec, const SolverModule **s, Error *err) {
    SolveConfig cfg = {0};
    return solver_lookup(spec, s, &cfg, err);
}

/* ------------------------------------------------------------ the matrix */

/* Frees the lists of lines read from a file (not of copies). */
void matrix_free(Matrix *m) {
    for (int i = 0; i < m->n; i++) {
        free(m->lines[i].solvers);
        free(m->lines[i].extra);
        free(m->lines[i].skip);
    }
    free(m->lines);
    *m = (Matrix){0};
}

MatrixLine *matrix_add(Matrix *m) {
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 32;
        m->lines = realloc(m->lines, (size_t)m->cap * sizeof *m->lines);
        if (m->lines == NULL) {
            fprintf(stderr, "bench: out of memory reading the matrix\n");
            exit(ERR_MEMORY);
        }
    }
    MatrixLine *l = &m->lines[m->n++];
    memset(l, 0, sizeof *l);
    return l;
}

static ErrCode parse_threads(const char *text, MatrixLine *l, Error *err) {
    char buf[256];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof buf || text[0] == ',' || text[len - 1] == ',' ||
        strstr(text, ",,") != NULL) {
        return error_set(err, ERR_USAGE,
                         "%s: threads= needs up to %d whole numbers 1..1024, not '%s'", l->where,
                         MATRIX_THREADS_MAX, text);
    }
    snprintf(buf, sizeof buf, "%s", text);
    l->nthreads = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save)) {
        int64_t v;
        if (l->nthreads == MATRIX_THREADS_MAX || !parse_int64(t, 1, 1024, &v)) {
            return error_set(err, ERR_USAGE,
                             "%s: threads= needs up to %d whole numbers 1..1024, not '%s'",
                             l->where, MATRIX_THREADS_MAX, text);
        }
        l->threads[l->nthreads++] = (int)v;
    }
    return ERR_OK;
}

/* A solver list of a matrix line, checked (every name and its options
 * known, no empty item) and kept as written in *keep. */
static ErrCode line_list(const char *field, const char *text, char **keep, Error *err) {
    MatrixSpecs list = {0};
    ErrCode rc = matrix_specs_split(text, matrix_is_solver_name, "solver", &list, err);
    if (rc == ERR_OK && list.n == 0) {
        rc = error_set(err, ERR_USAGE, "%s= needs a list of solvers", field);
    }
    for (int i = 0; rc == ERR_OK && i < list.n; i++) {
        const SolverModule *s;
        rc = matrix_solver_check(list.item[i], &s, err);
        if (rc != ERR_OK) {
            error_prefix(err, "%s=: ", field);
        }
    }
    if (rc == ERR_OK && (*keep = strdup(text)) == NULL) {
        rc = error_set(err, ERR_MEMORY, "out of memory reading the matrix");
    }
    return rc;
}

/* One line: GAME[:OPTS] [solvers=LIST] [extra=LIST] [skip=LIST] [series=NAME]
 * [threads=N,...] [full], each field at most once. */
static ErrCode parse_line(char *text, MatrixLine *l, Error *err) {
    static const char *const fields[] = {
        "full", "solvers=", "extra=", "skip=", "series=", "threads="};
    enum { NFIELDS = sizeof fields / sizeof fields[0] };
    bool seen[NFIELDS] = {0};
    char *save = NULL;
    char *tok = strtok_r(text, " \t", &save);
    snprintf(l->game, sizeof l->game, "%s", tok);
    while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
        int f = -1;
        for (int k = 0; k < NFIELDS && f < 0; k++) {
            size_t n = strlen(fields[k]);
            if (k == 0 ? strcmp(tok, fields[k]) == 0 : strncmp(tok, fields[k], n) == 0) {
                f = k;
            }
        }
        if (f < 0) {
            return error_set(err, ERR_USAGE,
                             "%s: unknown field '%s' (fields: solvers=, extra=, skip=, series=, "
                             "threads=, full)",
                             l->where, tok);
        }
        if (seen[f]) {
            return error_set(err, ERR_USAGE, "%s: field '%s' given twice", l->where, fields[f]);
        }
        seen[f] = true;
        const char *val = strchr(tok, '=') != NULL ? strchr(tok, '=') + 1 : "";
        ErrCode rc = ERR_OK;
        switch (f) {
        case 0:
            l->full = true;
            break;
        case 1:
            l->has_solvers = true;
            rc = line_list("solvers", val, &l->solvers, err);
            break;
        case 2:
            rc = line_list("extra", val, &l->extra, err);
            break;
        case 3:
            rc = line_list("skip", val, &l->skip, err);
            break;
        case 4:
            if (val[0] == '\0' || strlen(val) >= sizeof l->series) {
                rc = error_set(err, ERR_USAGE, "series= needs a name of 1 to %zu characters",
                               sizeof l->series - 1);
            }
            snprintf(l->series, sizeof l->series, "%s", val);
            break;
        default:
            rc = parse_threads(val, l, err);
            break;
        }
        if (rc != ERR_OK) {
            if (err->msg[0] != '\0' && strncmp(err->msg, l->where, strlen(l->where)) != 0) {
                error_prefix(err, "%s: ", l->where);
            }
            return rc;
        }
    }
    return ERR_OK;
}

/* Lines of the form "#pending: GAME ..." are matrix lines for games not yet
 * in the registry; once the game is registered, say so (they stay off until
 * someone removes the marker). */
static void note_pending(const char *path, int lineno, const char *rest) {
    char spec[MATRIX_SPEC_MAX], name[64];
    rest += strspn(rest, " \t");
    snprintf(spec, sizeof spec, "%.*s", (int)strcspn(rest, " \t"), rest);
    matrix_spec_name(spec, name, sizeof name);
    if (game_find(name) != NULL) {
        char where[512];
        fprintf(stderr,
                "bench: note: %s:%d: game '%s' is registered now; enable the line by "
                "removing '#pending:'\n",
                text_escape(path, where, sizeof where), lineno, name);
    }
}

ErrCode matrix_read(const char *path, Matrix *m, Error *err) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return error_set(err, ERR_IO, "cannot read the matrix %s: %s (give one with --matrix)",
                         path, strerror(errno));
    }
    ErrCode rc = matrix_read_stream(f, path, m, err);
    fclose(f);
    return rc;
}

ErrCode matrix_read_stream(FILE *f, const char *path, Matrix *m, Error *err) {
    char *text = NULL; /* a whole line, however long (getline) */
    size_t cap = 0;
    int lineno = 0;
    ErrCode rc = ERR_OK;
    ssize_t len;
    while (rc == ERR_OK && (len = getline(&text, &cap, f)) != -1) {
        lineno++;
        /* A NUL byte would end the line's text there, silently. */
        if (memchr(text, '\0', (size_t)len) != NULL) {
            rc = error_set(err, ERR_USAGE, "%s:%d: a NUL byte in the line", path, lineno);
            break;
        }
        text[strcspn(text, "\r\n")] = '\0';
        if (strncmp(text, "#pending:", 9) == 0) {
            note_pending(path, lineno, text + 9);
            continue;
        }
        char *hash = strchr(text, '#');
        if (hash != NULL) {
            *hash = '\0';
        }
        if (strspn(text, " \t") == strlen(text)) {
            continue;
        }
        MatrixLine *l = matrix_add(m);
        snprintf(l->where, sizeof l->where, "%s:%d", path, lineno);
        rc = parse_line(text, l, err);
    }
    if (rc == ERR_OK && ferror(f)) {
        rc = error_set(err, ERR_IO, "cannot read the matrix %s: %s", path, strerror(errno));
    }
    free(text);
    return rc;
}
