/* games/registry.c: the list of game modules.
 *
 * To add a game (docs/adding-a-game.md walks through it):
 *   1. Write games/<name>.c exporting `const GameModule <name>_module`.
 *   2. Declare it below with `extern const GameModule <name>_module;`.
 *   3. Add `&<name>_module,` to game_registry, before the NULL.
 * The Makefile picks up every .c file in games/; the tests run every registered game
 * through the round-trip, consistency and solver cross-checks by itself.
 */
#include "games/game.h"

extern const GameModule tictactoe_module;
extern const GameModule othello_module;
extern const GameModule ponghauki_module;
extern const GameModule mutorere_module;
extern const GameModule dodgem_module;
extern const GameModule achi_module;
extern const GameModule morris_module;
extern const GameModule baghchal_module;
extern const GameModule topitop_module;
extern const GameModule subtract_module;
extern const GameModule nim_module;
extern const GameModule hexapawn_module;
extern const GameModule quarto_module;
extern const GameModule connect4_module;

/* One per line, so that adding a game is a one-line change. */
/* clang-format off */
const GameModule *const game_registry[] = {
    /* placement and line games */
    &tictactoe_module,
    &connect4_module,
    &quarto_module,
    &othello_module,
    /* take-away games */
    &subtract_module,
    &nim_module,
    /* moving games */
    &hexapawn_module,
    /* loopy games */
    &dodgem_module,
    &ponghauki_module,
    &mutorere_module,
    &achi_module,
    &morris_module,
    &baghchal_module,
    &topitop_module,
    NULL,
};
/* clang-format on */
