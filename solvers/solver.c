/* solvers/solver.c: the harness and registry helpers (see solver.h). */
#include "solvers/solver.h"

#include <inttypes.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"

const SolverModule *solver_find(const char *name) {
    for (int i = 0; solver_registry[i] != NULL; i++) {
        if (strcmp(solver_registry[i]->name, name) == 0) {
            return solver_registry[i];
        }
    }
    return NULL;
}

ErrCode solver_lookup(const char *spec, const SolverModule **out, SolveConfig *cfg, Error *err) {
    char name[64];
    const char *options;
    ErrCode rc = spec_split(spec, "solver", name, sizeof name, &options, err);
    if (rc != ERR_OK) {
        return rc;
    }
    const SolverModule *s = solver_find(name);
    if (s == NULL) {
        return error_set(err, ERR_USAGE, "unknown solver '%s' (solve --list shows the solvers)",
                         name);
    }
    char owner[96];
    snprintf(owner, sizeof owner, "solver '%s'", name);
    rc = options_parse(s->options, options, owner, &cfg->options, err);
    if (rc != ERR_OK) {
        return rc;
    }
    *out = s;
    return ERR_OK;
}

/* solver_supports, with the game taken as loopy or not. */
static bool supports(const SolverModule *s, const Game *g, bool loopy, char *why, size_t n) {
    const char *gname = g->module->name;
    const char *missing = NULL;
    if ((s->needs & NEEDS_GPS) && g->gps == NULL) {
        missing = "the GPS family (a board held in a state object, do!/undo!)";
    } else if ((s->needs & NEEDS_GPS_CACHED) && g->gps_cached == NULL) {
        missing = "the GPS-cached family (cached free moves, incremental win detection)";
    } else if ((s->needs & NEEDS_PARENTS) && g->ops->generate_parents == NULL) {
        missing = "generate_parents (un-moves)";
    } else if ((s->needs & NEEDS_TIERS) && g->tiers == NULL) {
        missing = "tiers (a stage layout of its positions)";
    } else if ((s->needs & NEEDS_ENCODING) && g->encoding == NULL) {
        missing = "a Boolean encoding (games/game.h GameEncoding: its positions as Boolean "
                  "variables, its moves as guarded assignments)";
    }
    if (missing != NULL) {
        if (why != NULL) {
            snprintf(why, n, "solver '%s' needs %s, which game '%s' does not provide", s->name,
                     missing, gname);
        }
        return false;
    }
    if (s->values_only && g->has_winby) {
        if (why != NULL) {
            snprintf(why, n,
                     "solver '%s' computes values only, and game '%s' has WinBy scores; use a "
                     "solver that keeps them (solve --list)",
                     s->name, gname);
        }
        return false;
    }
    if (loopy && !s->loopy_ok) {
        if (why != NULL && s->reads_db && g->tiers != NULL) {
            snprintf(why, n,
                     "game '%s' is loopy (positions can repeat): solver '%s' needs --db DIR, a "
                     "database of its loopy tiers solved (--solver tier:sector=T --db DIR)",
                     gname, s->name);
        } else if (why != NULL) {
            snprintf(why, n,
                     "game '%s' is loopy (positions can repeat), so the depth-first solver '%s' "
                     "would never finish; use a solver for loopy games (solve --list)",
                     gname, s->name);
        }
        return false;
    }
    return true;
}

bool solver_supports_cfg(const SolverModule *s, const Game *g, const SolveConfig *cfg, char *why,
                         size_t n) {
    /* With a database, the loops are in it; the search checks the rest. */
    bool db = s->reads_db && g->tiers != NULL && cfg != NULL && cfg->work_dir != NULL;
    return supports(s, g, g->loopy && !db, why, n);
}

bool solver_supports(const SolverModule *s, const Game *g, char *why, size_t n) {
    return supports(s, g, g->loopy, why, n);
}

ErrCode solver_check_table(const SolverModule *s, const Game *g, Error *err) {
    if (g->table_refusal != NULL && !s->bounded_memory) {
        return error_set(err, ERR_MEMORY, "%s", g->table_refusal);
    }
    return ERR_OK;
}

const SolverModule *solver_default(const Game *g) {
    for (int i = 0; solver_registry[i] != NULL; i++) {
        if (!solver_registry[i]->root_only && !solver_registry[i]->partial_db &&
            solver_registry[i]->variant_of == NULL &&
            solver_supports(solver_registry[i], g, NULL, 0)) {
            return solver_registry[i];
        }
    }
    return NULL;
}

ErrCode solver_run(const SolverModule *s, const Game *g, const SolveConfig *cfg, SolveResult *res,
                   Error *err) {
    memset(res, 0, sizeof *res);
    char why[512];
    if (!solver_supports_cfg(s, g, cfg, why, sizeof why)) {
        return error_set(err, ERR_UNSUPPORTED, "%s", why);
    }
    ErrCode refused = solver_check_table(s, g, err);
    if (refused != ERR_OK) {
        return refused;
    }
    res->threads = 1;
    stats_thread_reset();
    mem_rss_peak_reset();
    mem_thread_peak_reset();
    double t0 = clock_seconds();
    ErrCode rc = s->solve(g, cfg, res, err);
    double t1 = clock_seconds();
    res->peak_bytes = mem_thread_peak() + res->worker_peak_bytes;
    res->peak_rss_bytes = mem_rss_peak();
    stats_thread_collect(&res->counters);
    res->wall_seconds = t1 - t0;
    if (rc != ERR_OK) {
        solve_result_free(res);
        return rc;
    }
    return ERR_OK;
}

void solve_result_free(SolveResult *res) {
    if (res->has_db) {
        db_destroy(&res->db);
        res->has_db = false;
    }
    if (res->has_summary) {
        db_summary_free(&res->summary);
        res->has_summary = false;
    }
}

void solve_result_extra(SolveResult *res, const char *name, double value) {
    if (res->nextra < SOLVE_EXTRA_MAX) {
        SolveExtra *e = &res->extra[res->nextra++];
        snprintf(e->name, sizeof e->name, "%s", name);
        e->value = value;
    }
}

ErrCode solver_db_create(const Game *g, Database *db, Error *err) {
    return db_create(db, g->num_positions, db_width_for(g->max_depth), g->has_winby, err);
}

ErrCode solver_store(const Game *g, Database *db, Position pos, Outcome out, WinBy winby,
                     Error *err) {
    if (!db_put(db, pos, out.value, out.remoteness)) {
        return db_overflow_error(db, pos, out.remoteness, err);
    }
    if (!g->has_winby) {
        return ERR_OK;
    }
    if (winby < WINBY_MIN || winby > WINBY_MAX) {
        return error_set(err, ERR_LIMIT,
                         "WinBy score %" PRId32 " at position %" PRIu64
                         " is outside the stored range %d..%d",
                         winby, pos, WINBY_MIN, WINBY_MAX);
    }
    db->winby[pos] = (int16_t)winby;
    return ERR_OK;
}

ErrCode solver_depth_error(const Game *g, Error *err) {
    return error_set(err, ERR_LIMIT,
                     "game '%s' went deeper than its declared max_depth %" PRIu32 " (is it loopy?)",
                     g->module->name, g->max_depth);
}

ErrCode solver_no_moves_error(const Game *g, Position pos, Error *err) {
    return error_set(err, ERR_INTERNAL,
                     "game '%s': position %" PRIu64 " is not primitive but has no moves",
                     g->module->name, pos);
}

/* Sanitizers enlarge stack frames (redzones), so deep recursions get more. */
#if defined(__SANITIZE_ADDRESS__)
#define STACK_FACTOR 4
#else
#define STACK_FACTOR 1
#endif

typedef struct DeepCall {
    void (*fn)(void *arg);
    void *arg;
    Counters counters;
    uint64_t peak;
} DeepCall;

static void *deep_trampoline(void *p) {
    DeepCall *c = p;
    stats_thread_reset();
    mem_thread_peak_reset();
    c->fn(c->arg);
    c->peak = mem_thread_peak();
    stats_thread_collect(&c->counters);
    return NULL;
}

ErrCode solver_run_deep(const Game *g, size_t frame_bytes, void (*fn)(void *arg), void *arg,
                        SolveResult *res, Error *err) {
    uint64_t depth = (uint64_t)g->max_depth + 64;
    /* The stack the recursion touches counts against the budget together
     * with the database already allocated; the thread reserves 8 MiB more
     * address space for library calls, which costs memory only if touched. */
    uint64_t used = depth * (uint64_t)frame_bytes * STACK_FACTOR;
    uint64_t need = used + (8u << 20);
    uint64_t held = res->has_db ? db_bytes(res->db.size, res->db.width, res->db.winby != NULL) : 0;
    char what[256], buf[32];
    snprintf(what, sizeof what,
             "%sthe stack of a depth-first solve of game '%s' (%s for up to %" PRIu32 " plies)",
             held != 0 ? "the value database and " : "", g->module->name,
             mem_format(used, buf, sizeof buf), g->max_depth);
    ErrCode rc = mem_check(held + used, what, err);
    if (rc != ERR_OK) {
        return rc;
    }
    pthread_attr_t attr;
    pthread_t thread;
    DeepCall call = {.fn = fn, .arg = arg};
    mem_reserve(used); /* memory the solve checks inside the thread counts the stack */
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, (size_t)need) != 0 ||
        pthread_create(&thread, &attr, deep_trampoline, &call) != 0) {
        pthread_attr_destroy(&attr);
        mem_reserve(0);
        return error_set(err, ERR_MEMORY,
                         "cannot start a solver thread with %" PRIu64 " bytes of stack", need);
    }
    pthread_join(thread, NULL);
    mem_reserve(0);
    pthread_attr_destroy(&attr);
    counters_add(&res->counters, &call.counters);
    res->worker_peak_bytes += call.peak;
    return ERR_OK;
}

void solver_worker_begin(void) {
    if (omp_get_thread_num() != 0) {
        stats_thread_reset();
        mem_thread_peak_reset();
    }
}

void solver_worker_end(SolveResult *res, uint64_t *worker_peak) {
    int id = omp_get_thread_num();
    if (id == 0) {
        return;
    }
    uint64_t peak = mem_thread_peak();
    if (peak > worker_peak[id]) {
        worker_peak[id] = peak;
    }
#pragma omp critical(solver_worker_counters)
    stats_thread_collect(&res->counters);
}
