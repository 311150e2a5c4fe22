/* core/types.h: positions and moves (GamesCrafters conventions).
 *
 * A position is an index in [0, num_positions), the game's hash space; a
 * move is a small integer whose meaning belongs to the game module.
 */
#ifndef CORE_TYPES_H
#define CORE_TYPES_H

#include <stdint.h>

typedef uint64_t Position;
typedef int32_t Move;

#endif /* CORE_TYPES_H */
