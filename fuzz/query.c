/* fuzz/query.c: fuzz target of every game's position parser (GameOps.parse,
 * what `bin/solve --query TEXT` and `--query -` call) and of what the CLI
 * then does with a parsed position.
 *
 * Input: one byte choosing the game variant (mod the list: every
 * registered game's default variant, then each module's test variants,
 * then a few more: misère, symmetric, Tromp's encoding, larger boards),
 * then the text, up to its first NUL (a C string, as the CLI passes it;
 * refusing a NUL inside a query line is the CLI's job, tests/cli.sh).
 *
 * The seed corpus is written by the target itself (GAMESMAN_FUZZ_SEEDS,
 * below), since the variant byte depends on the registry's order.
 *
 * Checked (a finding when false):
 *   - a refusal carries a message of one line of printable ASCII
 *     (core/error.h);
 *   - an accepted position lies in [0, num_positions), and the round trip
 *     holds: parse(format(p)) == p and format is stable (game.h);
 *   - canonical(p), every child (do_move of each generated move, at most
 *     max_moves of them) and its canonical form lie in the hash space;
 *   - and no sanitizer report in primitive, generate_moves, do_move,
 *     move_name, format, print, turn and winby (has_winby games), the tier
 *     of p and its local index (tier games: what the database reader
 *     computes for a query, solvers/store.c locate_pos), and the encoding's
 *     values (symbolic games: what the BDD reader computes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "games/game.h"

#define VARIANTS_MAX 128

static const char *const extra_specs[] = {"tictactoe:misere,sym",
                                          "connect4:w=7,h=6,k=4,sym",
                                          "connect4:w=6,h=5,k=4,tromp",
                                          "connect4:w=4,h=4,misere",
                                          "othello:n=6,sym",
                                          "quarto:n=4,attrs=4",
                                          "nim:heaps=1-2-3-4,sym",
                                          "subtract:n=1000000000,moves=1-3-7,misere",
                                          "hexapawn:w=8,h=8,sym",
                                          "dodgem:n=5,sym",
                                          "morris:n=9",
                                          "morris:n=6,fly=2,sym",
                                          NULL};

static Game *games[VARIANTS_MAX];
static int ngames;

static void add(const char *spec) {
    Error err = {0};
    Game *g = NULL;
    if (ngames < VARIANTS_MAX && game_create(spec, &g, &err) == ERR_OK) {
        games[ngames++] = g;
    } else if (getenv("FUZZ_VERBOSE") != NULL) {
        fprintf(stderr, "fuzz-query: %s left out: %s\n", spec, err.msg);
    }
}

/* With $GAMESMAN_FUZZ_SEEDS (fuzz/corpus.sh): the seed corpus, written into
 * that directory: for variant i, its initial position and the positions
 * after the first move and after the first two, as format() writes them. */
static void write_seeds(const char *dir, int i) {
    const Game *g = games[i];
    Position pos = g->initial;
    for (int depth = 0; depth < 3; depth++) {
        char name[64], text[GAME_TEXT_MAX + 1];
        text[0] = (char)i;
        g->ops->format(g, pos, text + 1, sizeof text - 1);
        snprintf(name, sizeof name, "seed-%03d-%d", i, depth);
        fuzz_write(dir, name, text, 1 + strlen(text + 1));
        Move moves[GAME_MAX_MOVES];
        if (g->ops->primitive(g, pos) != VALUE_UNDECIDED ||
            g->ops->generate_moves(g, pos, moves) <= 0) {
            break;
        }
        pos = g->ops->do_move(g, pos, moves[0]);
    }
}

static void setup(void) {
    char spec[512];
    for (int i = 0; game_registry[i] != NULL; i++) {
        add(game_registry[i]->name);
    }
    for (int i = 0; game_registry[i] != NULL; i++) {
        const GameModule *mod = game_registry[i];
        for (const GameTestVariant *v = mod->test_variants; v->options != NULL; v++) {
            snprintf(spec, sizeof spec, "%s%s%s", mod->name, v->options[0] ? ":" : "", v->options);
            add(spec);
        }
    }
    for (int i = 0; extra_specs[i] != NULL; i++) {
        add(extra_specs[i]);
    }
    FUZZ_CHECK(ngames > 0, "no game could be created");
    const char *seeds = getenv("GAMESMAN_FUZZ_SEEDS");
    for (int i = 0; seeds != NULL && i < ngames; i++) {
        write_seeds(seeds, i);
    }
}

static void check_message(const Error *err) {
    FUZZ_CHECK(err->msg[0] != '\0', "a refusal without a message");
    for (const char *c = err->msg; *c != '\0'; c++) {
        FUZZ_CHECK(*c >= 0x20 && *c < 0x7f, "a message with byte 0x%02x: %s", (unsigned char)*c,
                   err->msg);
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
    const Game *g = games[data[0] % ngames];
    char *text = malloc(size);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    Position pos = 0;
    Error err = {0};
    ErrCode rc = g->ops->parse(g, text, &pos, &err);
    free(text);
    char spec[512];
    game_spec(g, spec, sizeof spec);
    if (rc != ERR_OK) {
        check_message(&err);
        return 0;
    }
    FUZZ_CHECK(pos < g->num_positions, "%s: parse gives %llu of %llu", spec,
               (unsigned long long)pos, (unsigned long long)g->num_positions);

    char t1[GAME_TEXT_MAX], t2[GAME_TEXT_MAX], board[GAME_TEXT_MAX];
    g->ops->format(g, pos, t1, sizeof t1);
    Position again = 0;
    rc = g->ops->parse(g, t1, &again, &err);
    FUZZ_CHECK(rc == ERR_OK && again == pos, "%s: parse(format(%llu) = '%s') = %llu (%s)", spec,
               (unsigned long long)pos, t1, (unsigned long long)again,
               rc == ERR_OK ? "accepted" : err.msg);
    g->ops->format(g, again, t2, sizeof t2);
    FUZZ_CHECK(strcmp(t1, t2) == 0, "%s: format is not stable: '%s', then '%s'", spec, t1, t2);

    Position canon = game_canonical(g, pos);
    FUZZ_CHECK(canon < g->num_positions, "%s: canonical '%s' out of the hash space", spec, t1);
    game_print(g, pos, board, sizeof board);
    Value v = g->ops->primitive(g, pos);
    if (g->has_winby) {
        g->ops->turn(g, pos);
        if (v != VALUE_UNDECIDED) {
            g->ops->winby(g, pos);
        }
    }
    if (v == VALUE_UNDECIDED) {
        Move moves[GAME_MAX_MOVES];
        int n = g->ops->generate_moves(g, pos, moves);
        FUZZ_CHECK(n >= 0 && n <= g->max_moves, "%s: '%s' has %d moves, max_moves %d", spec, t1, n,
                   g->max_moves);
        for (int i = 0; i < n; i++) {
            char name[256];
            game_move_name(g, pos, moves[i], name, sizeof name);
            Position c = g->ops->do_move(g, pos, moves[i]);
            FUZZ_CHECK(c < g->num_positions, "%s: move %s from '%s' out of the hash space", spec,
                       name, t1);
            g->ops->format(g, c, t2, sizeof t2);
            FUZZ_CHECK(game_canonical(g, c) < g->num_positions,
                       "%s: canonical of '%s' out of the hash space", spec, t2);
        }
    }
    if (g->tiers != NULL) {
        int t = g->tiers->tier_of(g, canon);
        if (t >= 0 && t < g->tiers->count(g)) {
            if (g->tiers->first != NULL) {
                (void)g->tiers->first(g, t);
            } else {
                uint64_t i = g->tiers->index_of(g, canon);
                if (i < g->tiers->size(g, t)) {
                    (void)g->tiers->position_at(g, t, i);
                }
            }
        }
    }
    if (g->encoding != NULL && g->encoding->values != NULL) {
        uint8_t *values = calloc((size_t)g->encoding->nvars + 1, 1);
        FUZZ_CHECK(values != NULL, "out of memory");
        g->encoding->values(g, canon, values);
        free(values);
    }
    return 0;
}
