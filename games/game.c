/* games/game.c: creating games from specs and checking their promises. */
#include "games/game.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const GameModule *game_find(const char *name) {
    for (int i = 0; game_registry[i] != NULL; i++) {
        if (strcmp(game_registry[i]->name, name) == 0) {
            return game_registry[i];
        }
    }
    return NULL;
}

/* Checks that the variant provides every slot its flags promise. A failure
 * here is a bug in the module, reported rather than crashed on later. */
static ErrCode validate(const Game *g, Error *err) {
    const char *name = g->module->name;
    const GameOps *o = g->ops;
#define NEED(cond, what)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return error_set(err, ERR_INTERNAL, "game module '%s': %s", name, what);               \
        }                                                                                          \
    } while (0)
    NEED(o != NULL, "no stateless family (ops)");
    NEED(o->primitive && o->generate_moves && o->do_move, "stateless family is incomplete");
    NEED(o->format && o->parse, "format and parse are required");
    NEED(g->num_positions > 0, "num_positions is 0");
    NEED(g->initial < g->num_positions, "the initial position is outside the hash space");
    NEED(g->max_moves >= 1 && g->max_moves <= GAME_MAX_MOVES, "max_moves is out of 1..256");
    NEED(!g->symmetric || o->canonical, "symmetric variant without canonical()");
    NEED(!g->has_winby || (o->turn && o->winby), "WinBy variant without turn() and winby()");
    NEED(!o->generate_parents || g->max_parents > 0, "generate_parents without max_parents");
    NEED(!g->loopy || !g->has_winby, "WinBy is defined for non-loopy games only");
    const GpsOps *fams[2] = {g->gps, g->gps_cached};
    for (int i = 0; i < 2; i++) {
        const GpsOps *f = fams[i];
        if (f == NULL) {
            continue;
        }
        NEED(f->create && f->destroy && f->set && f->position && f->primitive &&
                 f->generate_moves && f->do_move && f->undo_move,
             "a GPS family is incomplete");
        NEED(!g->symmetric || f->canonical, "symmetric variant without GPS canonical()");
        NEED(!g->has_winby || (f->turn && f->winby), "WinBy variant without GPS turn()/winby()");
    }
    if (g->tiers != NULL) {
        const TierOps *t = g->tiers;
        NEED(t->count && t->size && t->tier_of && t->children, "tier family is incomplete");
        NEED(t->first || (t->index_of && t->position_at),
             "tier family needs first() or index_of()/position_at()");
    }
#undef NEED
    return ERR_OK;
}

ErrCode game_create(const char *spec, Game **out, Error *err) {
    *out = NULL;
    char name[64];
    const char *options;
    ErrCode rc = spec_split(spec, "game", name, sizeof name, &options, err);
    if (rc != ERR_OK) {
        return rc;
    }
    const GameModule *m = game_find(name);
    if (m == NULL) {
        return error_set(err, ERR_USAGE, "unknown game '%s' (solve --list shows the games)", name);
    }
    Game *g = calloc(1, sizeof *g);
    if (g == NULL) {
        return error_set(err, ERR_MEMORY, "out of memory creating game '%s'", name);
    }
    g->module = m;
    char owner[96];
    snprintf(owner, sizeof owner, "game '%s'", name);
    rc = options_parse(m->options, options, owner, &g->options, err);
    if (rc == ERR_OK) {
        options_format(&g->options, g->variant, sizeof g->variant);
        rc = m->create(g, err);
        if (rc != ERR_OK) {
            error_prefix(err, "%s: ", owner);
            g->self = NULL; /* create() cleans up after itself on failure */
        }
    }
    if (rc == ERR_OK) {
        rc = validate(g, err);
    }
    if (rc != ERR_OK) {
        game_destroy(g);
        return rc;
    }
    *out = g;
    return ERR_OK;
}

void game_destroy(Game *g) {
    if (g == NULL) {
        return;
    }
    if (g->module != NULL && g->module->destroy != NULL) {
        g->module->destroy(g);
    } else {
        free(g->self);
    }
    free(g);
}

void game_spec(const Game *g, char *buf, size_t n) {
    if (g->variant[0] == '\0') {
        snprintf(buf, n, "%s", g->module->name);
    } else {
        snprintf(buf, n, "%s:%s", g->module->name, g->variant);
    }
}

void game_print(const Game *g, Position pos, char *buf, size_t n) {
    if (g->ops->print != NULL) {
        g->ops->print(g, pos, buf, n);
    } else {
        g->ops->format(g, pos, buf, n);
    }
}

void game_move_name(const Game *g, Position pos, Move move, char *buf, size_t n) {
    if (g->ops->move_name != NULL) {
        g->ops->move_name(g, pos, move, buf, n);
    } else {
        snprintf(buf, n, "%" PRId32, move);
    }
}

const char *game_tier_name(const Game *g, int tier, char *buf, size_t n) {
    if (g->tiers->name != NULL) {
        g->tiers->name(g, tier, buf, n);
    } else {
        snprintf(buf, n, "%d", tier);
    }
    return buf;
}

const char *game_tier_label(const Game *g, int tier, char *buf, size_t n) {
    if (g->tiers->name == NULL) {
        snprintf(buf, n, "%d", tier);
    } else {
        char name[GAME_TIER_NAME_MAX];
        g->tiers->name(g, tier, name, sizeof name);
        snprintf(buf, n, "%d (%s)", tier, name);
    }
    return buf;
}

/* A decimal number (digits only, as the contract keeps names from being)
 * is the tier's number; anything else is looked up by name. */
int game_tier_find(const Game *g, const char *text) {
    int count = g->tiers->count(g);
    int64_t number;
    if (text[0] >= '0' && text[0] <= '9') {
        bool digits = true;
        for (const char *c = text; *c != '\0'; c++) {
            digits = digits && *c >= '0' && *c <= '9';
        }
        if (digits) {
            return parse_int64(text, 0, count - 1, &number) ? (int)number : -1;
        }
    }
    for (int t = 0; t < count && g->tiers->name != NULL; t++) {
        char name[GAME_TIER_NAME_MAX];
        g->tiers->name(g, t, name, sizeof name);
        if (strcmp(name, text) == 0) {
            return t;
        }
    }
    return -1;
}
