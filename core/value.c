/* core/value.c: see value.h. */
#include "core/value.h"

const char *value_name(Value v) {
    switch (v) {
    case VALUE_WIN:
        return "win";
    case VALUE_LOSE:
        return "lose";
    case VALUE_TIE:
        return "tie";
    case VALUE_DRAW:
        return "draw";
    case VALUE_UNDECIDED:
        break;
    }
    return "undecided";
}

/* Wins, ties, draws, losses, then anything undecided. */
static int move_rank(Value v) {
    switch (v) {
    case VALUE_WIN:
        return 0;
    case VALUE_TIE:
        return 1;
    case VALUE_DRAW:
        return 2;
    case VALUE_LOSE:
        return 3;
    case VALUE_UNDECIDED:
        break;
    }
    return 4;
}

int value_move_order(Value va, uint32_t ra, Value vb, uint32_t rb) {
    int ka = move_rank(va), kb = move_rank(vb);
    if (ka != kb) {
        return ka - kb;
    }
    if (ra == rb) {
        return 0;
    }
    bool slower_first = va == VALUE_LOSE;
    return (ra < rb) == slower_first ? 1 : -1;
}
