/* games/baghchal.h: what games/baghchal.c shows besides its GameModule
 * (registered in games/registry.c): a test hook.
 *
 * baghchal_test_nocache (default false): when true, the module decodes
 * every position it is asked about (one unhash a call, the code before
 * 2026-11-26) instead of reusing its thread's two most recently decoded
 * positions, so tests can check that the cache changes no value and no
 * record. Set it only while no solve is running.
 */
#ifndef GAMES_BAGHCHAL_H
#define GAMES_BAGHCHAL_H

#include <stdbool.h>

extern bool baghchal_test_nocache;

#endif /* GAMES_BAGHCHAL_H */
