/* core/value.h: game values, remoteness, and the rule that combines children.
 *
 * Values are for the player to move. Remoteness counts moves to the end of
 * the game under the GamesCrafters conventions:
 *   primitive           remoteness 0
 *   win   (some child loses)          1 + min over losing children
 *   tie   (no losing child, a tie)    1 + min over tie children
 *   draw  (loopy only: never ends)    no remoteness
 *   lose  (every child wins)          1 + max over all children
 * A tie is a game that ends without a winner; a draw is a position of a loopy
 * game that never resolves under perfect play. They are never merged.
 */
#ifndef CORE_VALUE_H
#define CORE_VALUE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum Value {
    VALUE_UNDECIDED = 0, /* not (yet) known, or not primitive */
    VALUE_WIN = 1,
    VALUE_LOSE = 2,
    VALUE_TIE = 3,
    VALUE_DRAW = 4,
} Value;

#define VALUE_COUNT 5

/* "undecided", "win", "lose", "tie", "draw". */
const char *value_name(Value v);

/* The value of a move for the player who makes it, given the child's value
 * (the child's value is for the opponent): lose <-> win, tie and draw stay. */
static inline Value value_for_mover(Value child) {
    switch (child) {
    case VALUE_WIN:
        return VALUE_LOSE;
    case VALUE_LOSE:
        return VALUE_WIN;
    default:
        return child;
    }
}

/* The order of a position's moves, best first for the player making them
 * (bin/solve --query lists them so; its default pick is the first), by each
 * move's value for the mover and remoteness counted with the move: wins,
 * the quickest first; ties, the quickest first; draws; losses, the slowest
 * first (lose as late as possible). Negative when move a comes first,
 * positive when b does, 0 when they rank alike (the caller breaks the tie,
 * by the order of generate_moves). An undecided value ranks last. */
int value_move_order(Value va, uint32_t ra, Value vb, uint32_t rb);

/* A solved position: value and remoteness (remoteness is 0 for draws). */
typedef struct Outcome {
    Value value;
    uint32_t remoteness;
} Outcome;

/* Folds the outcomes of a position's children into the position's outcome.
 * Usage: fold_init, fold_add per child, fold_result. O(1) per child. */
typedef struct ChildFold {
    uint32_t children;
    uint32_t losing;     /* children that lose (for the opponent) */
    uint32_t tying;      /* children that tie */
    uint32_t drawing;    /* children that draw */
    uint32_t min_lose_r; /* min remoteness over losing children */
    uint32_t min_tie_r;  /* min remoteness over tie children */
    uint32_t max_r;      /* max remoteness over all children */
} ChildFold;

static inline void fold_init(ChildFold *f) {
    *f = (ChildFold){.min_lose_r = UINT32_MAX, .min_tie_r = UINT32_MAX};
}

static inline void fold_add(ChildFold *f, Value v, uint32_t r) {
    f->children++;
    if (r > f->max_r) {
        f->max_r = r;
    }
    if (v == VALUE_LOSE) {
        f->losing++;
        if (r < f->min_lose_r) {
            f->min_lose_r = r;
        }
    } else if (v == VALUE_TIE) {
        f->tying++;
        if (r < f->min_tie_r) {
            f->min_tie_r = r;
        }
    } else if (v == VALUE_DRAW) {
        f->drawing++;
    }
}

/* The outcome once every child is folded in. A non-primitive position must
 * have at least one child; with none, the result is VALUE_UNDECIDED so that
 * the solver can report the game module's error. */
static inline Outcome fold_result(const ChildFold *f) {
    if (f->children == 0) {
        return (Outcome){VALUE_UNDECIDED, 0};
    }
    if (f->losing > 0) {
        return (Outcome){VALUE_WIN, f->min_lose_r + 1};
    }
    if (f->tying > 0) {
        return (Outcome){VALUE_TIE, f->min_tie_r + 1};
    }
    if (f->drawing > 0) {
        return (Outcome){VALUE_DRAW, 0};
    }
    return (Outcome){VALUE_LOSE, f->max_r + 1};
}

/* WinBy (scores from player one's perspective, WinBy document): player one
 * (turn 0) maximizes over its children, player two (turn 1) minimizes. */
typedef int32_t WinBy;
#define WINBY_MIN INT16_MIN
#define WINBY_MAX INT16_MAX

static inline WinBy winby_better(int turn, WinBy best, WinBy candidate) {
    return turn == 0 ? (candidate > best ? candidate : best)
                     : (candidate < best ? candidate : best);
}

static inline WinBy winby_worst(int turn) { return turn == 0 ? INT32_MIN : INT32_MAX; }

#endif /* CORE_VALUE_H */
