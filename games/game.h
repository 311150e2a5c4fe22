/* games/game.h: the game interface.
 *
 * A game module (one file in games/) exports a const GameModule: its name,
 * its variant options and a constructor. The constructor fills a Game for
 * one variant ("connect4:w=6,h=5"): sizes, the initial position, and
 * pointers to const tables of functions, one table per interface family:
 *
 *   ops         stateless family, REQUIRED. Every call takes a position and
 *               unhashes it; do_move also hashes. The baseline the GPS
 *               document measures against.
 *   gps         GPS family, OPTIONAL. The board lives in a state object the
 *               solver owns (the seed's "global board" made explicit, so it is
 *               thread-safe): set (one unhash), then do_move/undo_move mutate
 *               it and no further unhash is needed.
 *   gps_cached  GPS-cached family, OPTIONAL. The same calls over a richer
 *               state (a free-move list, incremental win detection: the seed's
 *               "additional usage possibilities"), so that generate_moves and
 *               primitive do no board scan.
 *   tiers       tier (stage) layout, OPTIONAL: see TierOps (and its
 *               OPTIONAL names, game_tier_name).
 *   encoding    Boolean variables and guarded moves, OPTIONAL: see
 *               GameEncoding (symbolic solvers).
 *
 * Slots are marked REQUIRED or OPTIONAL; game_create() checks that a
 * variant provides every slot its flags promise (symmetric, has_winby,
 * loopy parents), so solvers may call them without checking.
 *
 * Solvers call the counted wrappers at the end of this file (game_do_move,
 * gps_do_move, ...), never the slots directly, so primitive/generate_moves/
 * do_move/undo_move/parents are counted the same way for every solver.
 * Games count hash and unhash themselves by hashing through hash/.
 *
 * Conventions: values are for the player to move (core/value.h); turn 0 is
 * the first player. A position for which primitive() is VALUE_UNDECIDED must
 * have at least one move (a game with passes generates a pass move).
 */
#ifndef GAMES_GAME_H
#define GAMES_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/options.h"
#include "core/stats.h"
#include "core/types.h"
#include "core/value.h"

#define GAME_MAX_MOVES 256      /* bound on moves from one position, for stack buffers */
#define GAME_MAX_CHILD_TIERS 64 /* bound on child tiers of one tier */
#define GAME_VARIANT_MAX 256    /* length of the normalized variant string */
#define GAME_TEXT_MAX 4096      /* buffer size for print() */

typedef struct Game Game;
typedef struct GameModule GameModule;

/* A module's GPS state. Opaque: each module defines its own struct and casts. */
typedef struct GpsState GpsState;

/* Stateless family and text. */
typedef struct GameOps {
    /* REQUIRED. VALUE_UNDECIDED when the game goes on; otherwise the value
     * for the player to move. */
    Value (*primitive)(const Game *g, Position pos);
    /* REQUIRED. Writes the moves of a non-primitive position (at most
     * g->max_moves) and returns how many. */
    int (*generate_moves)(const Game *g, Position pos, Move *moves);
    /* REQUIRED. The position after `move`. */
    Position (*do_move)(const Game *g, Position pos, Move move);

    /* OPTIONAL; REQUIRED when g->has_winby. 0 if the first player is to move. */
    int (*turn)(const Game *g, Position pos);
    /* REQUIRED when g->has_winby: the score of a primitive position, from the
     * first player's perspective (WinBy document). */
    WinBy (*winby)(const Game *g, Position pos);
    /* REQUIRED when g->symmetric: the representative of pos's symmetry class.
     * Solvers store values at canonical positions only. */
    Position (*canonical)(const Game *g, Position pos);
    /* OPTIONAL (loopy support): the positions with a move to pos (un-moves),
     * at most g->max_parents, each listed once, reachable or not. With
     * g->symmetric, parents of a canonical pos, canonicalized. */
    int (*generate_parents)(const Game *g, Position pos, Position *parents);

    /* REQUIRED. The one-line text of a position that parse() accepts
     * (e.g. "x-o------"); format(parse(t)) == t and parse(format(p)) == p. */
    void (*format)(const Game *g, Position pos, char *buf, size_t n);
    /* REQUIRED. Reads a position in format()'s text, or refuses it with a
     * message (wrong length, bad characters, illegal piece counts...). */
    ErrCode (*parse)(const Game *g, const char *text, Position *pos, Error *err);
    /* OPTIONAL. A picture of the board for people (multi-line). Default:
     * format(). */
    void (*print)(const Game *g, Position pos, char *buf, size_t n);
    /* OPTIONAL. How a move is shown to players. Default: its number. */
    void (*move_name)(const Game *g, Position pos, Move move, char *buf, size_t n);
} GameOps;

/* GPS and GPS-cached families (same calls, different states). */
typedef struct GpsOps {
    /* REQUIRED. A new state holding the initial position; NULL and err set on
     * failure. One state per thread. */
    GpsState *(*create)(const Game *g, Error *err);
    /* REQUIRED. */
    void (*destroy)(GpsState *st);
    /* REQUIRED. Loads pos into the state (one unhash) and clears the move
     * history. */
    void (*set)(GpsState *st, Position pos);
    /* REQUIRED. The position of the current board (at most one hash: a
     * state that keeps its hash up to date returns it without hashing). */
    Position (*position)(GpsState *st);
    /* REQUIRED. Like GameOps.primitive, on the current board. */
    Value (*primitive)(GpsState *st);
    /* REQUIRED. Like GameOps.generate_moves, on the current board. */
    int (*generate_moves)(GpsState *st, Move *moves);
    /* REQUIRED. Plays `move` on the board (do-move-bang) and returns the new
     * position (one hash). */
    Position (*do_move)(GpsState *st, Move move);
    /* REQUIRED. Restores the board before the last do_move (undo-move-bang:
     * the state keeps the history, so no argument). */
    void (*undo_move)(GpsState *st);
    /* REQUIRED when g->symmetric: canonical position of the current board. */
    Position (*canonical)(GpsState *st);
    /* OPTIONAL, for symmetric games: the canonical position after `move`
     * from the current board, which stays as it is (one hash): what
     * do_move, canonical and undo_move give, without the history, the
     * board's update and the child's own hash. Solvers that want only the
     * children's canonical positions use it when it is there
     * (gps_child). */
    Position (*child_canonical)(GpsState *st, Move move);
    /* REQUIRED when g->has_winby. */
    int (*turn)(GpsState *st);
    WinBy (*winby)(GpsState *st);
} GpsOps;

/* Tier (stage) layout. Tiers partition the position space so that a move
 * from tier t leads only to tiers in children(t) (for placement games, the
 * tier is the number of pieces on the board and the only child is t+1).
 * Within a tier, positions have local indices [0, size(t)). In a loopy
 * tier (the `loopy` slot) moves may also stay inside the tier; the tiers
 * still form a DAG through children().
 *
 * When `first` is provided the game's hash is tier-major: tier t occupies
 * positions [first(t), first(t) + size(t)) and index = pos - first(t), so
 * the sweep, the tier solver and a distributed solver share one layout.
 * Otherwise index_of/position_at convert (counting a hash/unhash each). */
/* What the tier solver's fast path (TierOps.expand_run) reports for one
 * position: the same as the GPS family would give it. */
typedef struct TierExpansion {
    Value primitive;                /* VALUE_UNDECIDED unless primitive */
    WinBy winby;                    /* a primitive's score (has_winby games) */
    int turn;                       /* the player to move (has_winby games) */
    int n;                          /* children; 0 for a primitive */
    Position child[GAME_MAX_MOVES]; /* canonical children, in generate_moves order */
} TierExpansion;

typedef void (*TierExpandVisit)(void *ctx, uint64_t index, Position pos, const TierExpansion *e);

typedef struct TierOps {
    int (*count)(const Game *g);                 /* REQUIRED */
    uint64_t (*size)(const Game *g, int tier);   /* REQUIRED */
    int (*tier_of)(const Game *g, Position pos); /* REQUIRED */
    int (*children)(const Game *g, int tier,
                    int *child_tiers);          /* REQUIRED, <= GAME_MAX_CHILD_TIERS */
    Position (*first)(const Game *g, int tier); /* OPTIONAL: tier-major hash */
    /* REQUIRED without first: a tier's local index [0, size) and back. The
     * index may cover fewer positions than the hash has in the tier (Morris
     * with `sym`: one slot per symmetry class of the canonical positions);
     * then position_at(index_of(p)) == p for every position the solvers
     * store (canonical ones), and index_of returns size or more for a
     * position without a slot. */
    uint64_t (*index_of)(const Game *g, Position pos);
    Position (*position_at)(const Game *g, int tier, uint64_t i);
    /* OPTIONAL fast path of the tier solver (solvers/tier/), for a game
     * that can walk a tier in index order more cheaply than one GPS `set`
     * per position. Calls visit(ctx, i, position, expansion), in increasing
     * i, for every local index i in [lo, hi) of tier `tier` whose bit is
     * set: bit i % 64 of reach[i / 64 - lo / 64] (reach points at the word
     * that holds bit lo, so that a caller may hold a slice of the tier's
     * bitmap, not all of it: tier:blocks); the expansion is exactly what
     * the game's GPS families give (primitive value, or the canonical
     * children in generate_moves order), so databases do not depend on the
     * path. It counts each step as the GPS call it replaces (one unhash and
     * one primitive per position, one generate_moves per non-primitive
     * one, one do_move, hash and undo_move per child), so counters do not
     * depend on it either. Thread-safe: threads call it on disjoint ranges.
     * `tier:generic` ignores it. */
    void (*expand_run)(const Game *g, int tier, const uint64_t *reach, uint64_t lo, uint64_t hi,
                       TierExpandVisit visit, void *ctx);
    /* OPTIONAL: true when moves from tier `tier` may stay inside it (a loopy
     * tier: its positions can repeat), besides leading to its child tiers.
     * The tier solver solves such a tier by retrograde analysis within it
     * (solvers/tier/loopy.c). Default: every tier of a loopy game is loopy,
     * no tier of a loop-free game is. */
    bool (*loopy)(const Game *g, int tier);
    /* OPTIONAL: false for a slot of tier `tier` that is no position of the
     * game (a Morris placement sector with the wrong player to move).
     * `tier:sector`, which solves every position of a tier, skips those.
     * Default: every slot is a position. */
    bool (*legal)(const Game *g, int tier, Position pos);
    /* OPTIONAL fast path of `tier:sector`'s bitmaps: words [w0, w0 +
     * nwords) of the bitmap of tier `tier`'s slots that hold a position the
     * tier solver stores (bit i % 64 of bits[i / 64 - w0] for local index
     * i; no bit at or past the tier's size): exactly the slots i whose
     * position p (first + i, or position_at(i)) is legal(p), with the
     * game's symmetry also canonical(p) == p. Thread-safe on disjoint
     * ranges. tests/test_games.c compares it with that test slot by slot
     * on every tier of every test variant. Default: the test slot by slot
     * (unhash, legal, canonical: most of a Bagh Chal sector's run). */
    void (*positions_run)(const Game *g, int tier, uint64_t w0, uint64_t nwords, uint64_t *bits);
    /* OPTIONAL, with generate_parents: the parents of pos (a position of
     * tier `tier`) that lie in that tier, as generate_parents lists them
     * (canonical, each once); it may list parents of other tiers too,
     * which the caller skips. The loopy tier solver's un-moves use it when
     * it is there: a game can skip the un-moves that leave the tier (a
     * Morris capture taken back) before hashing them. Default:
     * generate_parents. */
    int (*parents_in)(const Game *g, int tier, Position pos, Position *parents);
    /* OPTIONAL (GamesmanOne's GetTierName): the name of tier `tier`, for
     * people and scripts: progress lines, tier:estimate, bin/tier-plan's
     * listing, and the Morris scripts, which select tiers by it (a Morris
     * movement sector is "9-7", as Gasser named them). Writes at most n
     * bytes with the NUL (n >= GAME_TIER_NAME_MAX always). The contract,
     * which tests/test_games checks over every test variant:
     *   - short: fewer than GAME_TIER_NAME_MAX characters, at least one;
     *   - one word: only letters, digits, '-' and '_' (no space, no comma,
     *     nothing a shell, awk or grep treats specially), so a listing's
     *     columns and a script's arguments need no quoting;
     *   - not a decimal number: at least one character is not a digit, so
     *     that "312" always means tier number 312 (game_tier_find takes
     *     either, and the default name is the number);
     *   - unique among the variant's tiers, and stable: a function of the
     *     rules' counts (pieces on the board, in hand...) alone, the same in
     *     every build, since scripts and notes keep it.
     * Tier FILES keep the number (tier-NNNN.gmdb, docs/database.md): the
     * name is for people, the number is the on-disk key. Default: the
     * tier's number in decimal (game_tier_name). */
    void (*name)(const Game *g, int tier, char *buf, size_t n);
    /* OPTIONAL, tier-major games: a tier's slots run in blocks of this
     * many consecutive local indices (the last one may be shorter), such
     * that the children of one block lie in a few blocks of the child
     * tiers (Connect Four: one block per vector of column heights, whose
     * children lie in the <= w blocks that add a disc to one column).
     * `tier:blocks` (solvers/tier/blocks.c) cuts a tier into part files at
     * block boundaries when it can. Default: no blocks (cuts anywhere). */
    uint64_t (*block_size)(const Game *g, int tier);
} TierOps;

/* Buffer sizes for a tier's name (TierOps.name) and label
 * (game_tier_label), NUL included. */
#define GAME_TIER_NAME_MAX 32
#define GAME_TIER_LABEL_MAX 48

/* Boolean encoding (OPTIONAL), for symbolic solvers (solvers/symbolic.c:
 * BDDs). A position is an assignment of nvars Boolean variables; a move is a
 * guarded assignment: from a position satisfying `pre`, it sets the
 * variables of `set` to their values and keeps every other variable. That
 * covers placement games: Connect Four encodes each cell as "occupied" and
 * "owner" plus one variable for the side to move, and a drop into column c
 * is one move per row r (pre: cell (c, r) empty, the cell below occupied,
 * the mover to move; set: the cell occupied and owned, the turn flipped).
 *
 * Contract (the solver relies on it; the tests check it against dfs):
 *   - one assignment per position: variables that mean nothing in a
 *     position hold fixed values (an empty cell's owner is 0), so counting
 *     assignments counts positions;
 *   - every move adds one ply, and a position is only ever reached after
 *     the same number of moves (the piece count of a placement game), at
 *     most g->max_depth of them;
 *   - primitive[] lists the primitive positions: the first entry with a
 *     term that the position satisfies gives its value (for the player to
 *     move); every other position has at least one move whose `pre` holds;
 *   - position() gives the game's hash (not canonicalized) of a reachable
 *     assignment, so a symbolic solver can export an ordinary Database.
 * Variables are numbered in the order the game recommends for BDDs (the
 * variable number is its level: Connect Four interleaves the two variables
 * of a cell, column by column, bottom to top). */
typedef struct GameEncLit {
    uint16_t var;  /* 0..nvars-1 */
    uint8_t value; /* 0 or 1 */
} GameEncLit;

/* A conjunction of literals (true when n == 0). */
typedef struct GameEncTerm {
    int n;
    const GameEncLit *lits;
} GameEncTerm;

typedef struct GameEncMove {
    GameEncTerm pre; /* when the move is legal (outside primitive positions) */
    GameEncTerm set; /* the variables it changes and their new values */
} GameEncMove;

/* A disjunction of terms and the value of the positions satisfying it. */
typedef struct GameEncPrimitive {
    Value value;
    int nterms;
    const GameEncTerm *terms;
} GameEncPrimitive;

typedef struct GameEncoding {
    int nvars;              /* 1..65535 */
    const uint8_t *initial; /* the initial position's values, nvars of them */
    int nmoves;
    const GameEncMove *moves;
    int nprimitive;
    const GameEncPrimitive *primitive; /* the first match decides */
    /* REQUIRED. The hash of a reachable position given its nvars values. */
    Position (*position)(const Game *g, const uint8_t *values);
    /* OPTIONAL (needed to answer queries from saved BDDs): the inverse of
     * position(): fills values[0..nvars) for the hash pos and returns the
     * number of moves that reach it (its ply), or -1 when pos cannot be a
     * reachable position. */
    int (*values)(const Game *g, Position pos, uint8_t *values);
} GameEncoding;

/* One game variant, filled by the module's create(). */
struct Game {
    const GameModule *module;
    OptionValues options;           /* parsed variant options */
    char variant[GAME_VARIANT_MAX]; /* normalized options, e.g. "w=6,h=5,k=4" */
    void *self;                     /* the module's variant data, freed by destroy() */

    const GameOps *ops;       /* REQUIRED */
    const GpsOps *gps;        /* OPTIONAL */
    const GpsOps *gps_cached; /* OPTIONAL */
    const TierOps *tiers;     /* OPTIONAL */

    uint64_t num_positions; /* positions are in [0, num_positions) */
    Position initial;
    int max_moves;      /* bound on generate_moves(), 1..GAME_MAX_MOVES */
    int max_parents;    /* bound on generate_parents(), when provided */
    uint32_t max_depth; /* longest game in moves (bounds remoteness); 0 if
                           unknown, as for loopy games */
    bool loopy;         /* positions can repeat: depth-first solvers refuse */
    bool symmetric;     /* positions are canonicalized */
    bool has_winby;     /* primitives have WinBy scores */
    /* OPTIONAL: the Boolean encoding for symbolic solvers (GameEncoding);
     * the module owns it (freed by its destroy()). */
    const GameEncoding *encoding;
    /* OPTIONAL (default NULL): for a variant whose database of its hash
     * space cannot fit the memory budget but whose positions a search with
     * a bounded memo can still explore (full Quarto), the refusal with its
     * estimate (one line, ERR_MEMORY) that every solver gives before it
     * solves, except one with SolverModule.bounded_memory (search):
     * solver_check_table. The module owns the text. */
    const char *table_refusal;
};

/* A small variant for the exhaustive tests; heavy ones are skipped by the
 * sanitizer build. Lists end with {NULL}. */
typedef struct GameTestVariant {
    const char *options;
    bool heavy;
} GameTestVariant;

struct GameModule {
    const char *name;                     /* REQUIRED: "tictactoe" */
    const char *title;                    /* REQUIRED: "Tic-tac-toe" */
    const char *description;              /* REQUIRED: one line for --list */
    const OptionSpec *options;            /* OPTIONAL: variant options, ending {0} */
    const GameTestVariant *test_variants; /* REQUIRED: at least one */
    /* REQUIRED. g->module and g->options are set; fill the rest, or refuse
     * the variant with a message. */
    ErrCode (*create)(Game *g, Error *err);
    /* OPTIONAL. Frees g->self (default: free(g->self)). */
    void (*destroy)(Game *g);
};

/* Registry (games/registry.c). */
extern const GameModule *const game_registry[]; /* NULL-terminated */
const GameModule *game_find(const char *name);

/* Creates a game from "name" or "name:opt=val,...". */
ErrCode game_create(const char *spec, Game **out, Error *err);
void game_destroy(Game *g);

/* "tictactoe" or "tictactoe:misere,sym": the spec of g's normalized variant. */
void game_spec(const Game *g, char *buf, size_t n);

/* Text helpers with the defaults of the OPTIONAL slots. */
void game_print(const Game *g, Position pos, char *buf, size_t n);
void game_move_name(const Game *g, Position pos, Move move, char *buf, size_t n);

/* Tier names (TierOps.name; not counted: no position is touched). g must
 * have tiers and 0 <= tier < count. */
/* The name of `tier`, or its number in decimal when the game gives none;
 * returns buf. */
const char *game_tier_name(const Game *g, int tier, char *buf, size_t n);
/* "312 (9-7)": the number and, when the game names its tiers, the name in
 * parentheses; just "312" otherwise. For messages and progress lines, so
 * that the number (the tier file's key) and the name are both there;
 * returns buf (n >= GAME_TIER_LABEL_MAX). */
const char *game_tier_label(const Game *g, int tier, char *buf, size_t n);
/* The tier named `text`, or numbered `text` (decimal, in range); -1 when
 * there is none. O(tiers) name calls. */
int game_tier_find(const Game *g, const char *text);

/* Counted calls, used by every solver. */
static inline Value game_primitive(const Game *g, Position pos) {
    STAT_INC(primitive);
    return g->ops->primitive(g, pos);
}
static inline int game_generate_moves(const Game *g, Position pos, Move *moves) {
    STAT_INC(generate_moves);
    return g->ops->generate_moves(g, pos, moves);
}
static inline Position game_do_move(const Game *g, Position pos, Move move) {
    STAT_INC(do_move);
    return g->ops->do_move(g, pos, move);
}
static inline int game_generate_parents(const Game *g, Position pos, Position *parents) {
    STAT_INC(parents);
    return g->ops->generate_parents(g, pos, parents);
}
/* The parents of pos in its tier `tier` (TierOps.parents_in, else every
 * parent), counted as a generate_parents call. */
static inline int game_tier_parents(const Game *g, int tier, Position pos, Position *parents) {
    if (g->tiers != NULL && g->tiers->parents_in != NULL) {
        STAT_INC(parents);
        return g->tiers->parents_in(g, tier, pos, parents);
    }
    return game_generate_parents(g, pos, parents);
}
static inline Position game_canonical(const Game *g, Position pos) {
    return g->symmetric ? g->ops->canonical(g, pos) : pos;
}

static inline Value gps_primitive(const GpsOps *f, GpsState *st) {
    STAT_INC(primitive);
    return f->primitive(st);
}
static inline int gps_generate_moves(const GpsOps *f, GpsState *st, Move *moves) {
    STAT_INC(generate_moves);
    return f->generate_moves(st, moves);
}
static inline Position gps_do_move(const GpsOps *f, GpsState *st, Move move) {
    STAT_INC(do_move);
    return f->do_move(st, move);
}
static inline void gps_undo_move(const GpsOps *f, GpsState *st) {
    STAT_INC(undo_move);
    f->undo_move(st);
}
/* The child by `move` of the state's board, the board left as it was:
 * canonical in a symmetric game (child_canonical when the family has it,
 * counted as a do_move), else do_move, canonical if symmetric, undo_move. */
static inline Position gps_child(const Game *g, const GpsOps *f, GpsState *st, Move move) {
    if (g->symmetric && f->child_canonical != NULL) {
        STAT_INC(do_move);
        return f->child_canonical(st, move);
    }
    Position c = gps_do_move(f, st, move);
    c = g->symmetric ? f->canonical(st) : c;
    gps_undo_move(f, st);
    return c;
}

/* The bits of bitmap word w (indices w * 64 ..) that stand for indices in
 * [lo, hi): how a walk over a span of a reach bitmap (expand_run, the
 * tier solver's walks and tallies) cuts its first and last word. */
static inline uint64_t game_bits_in(uint64_t bits, uint64_t w, uint64_t lo, uint64_t hi) {
    if (w * 64 < lo) {
        bits &= ~UINT64_C(0) << (lo % 64);
    }
    if (hi - w * 64 < 64) {
        bits &= (UINT64_C(1) << (hi - w * 64)) - 1;
    }
    return bits;
}

#endif /* GAMES_GAME_H */
