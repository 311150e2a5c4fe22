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
