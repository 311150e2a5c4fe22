/* games/encoding.h: building a GameEncoding (games/game.h) in a game's
 * create().
 *
 * The builder owns fixed-size arrays sized by the caller's bounds (no
 * reallocation, so the pointers it hands out stay valid): literals are
 * appended to the current term, enc_term() closes it; moves and primitive
 * entries take closed terms. A bound too small is a bug of the game module:
 * enc_finish() then refuses with ERR_INTERNAL.
 *
 *     EncBuilder *b = enc_create(nvars, max_moves, max_terms, max_lits, err);
 *     enc_lit(b, 3, 0); enc_lit(b, 0, 1); GameEncTerm pre = enc_term(b);
 *     ...; enc_move(b, pre, set);
 *     enc_primitive(b, VALUE_LOSE); enc_primitive_term(b, line); ...
 *     rc = enc_finish(b, err);  then g->encoding = &b->enc; enc_destroy(b) in destroy().
 */
#ifndef GAMES_ENCODING_H
#define GAMES_ENCODING_H

#include <stdbool.h>
#include <stddef.h>

#include "games/game.h"

enum { ENC_MAX_PRIMITIVES = 8 };

typedef struct EncBuilder {
    GameEncoding enc; /* what the game publishes (g->encoding = &b->enc) */
    uint8_t *initial; /* nvars values, all 0 at first */
    GameEncMove *moves;
    int cap_moves;
    GameEncPrimitive prims[ENC_MAX_PRIMITIVES];
    GameEncTerm *terms; /* the primitive entries' terms, entry by entry */
    int nterms, cap_terms;
    GameEncLit *lits;
    size_t nlits, cap_lits, term_start;
    bool overflow; /* a bound was too small, or a variable out of range */
} EncBuilder;

/* A builder for nvars variables (initial values all 0), or NULL with err set. */
EncBuilder *enc_create(int nvars, int max_moves, int max_terms, size_t max_lits, Error *err);
void enc_destroy(EncBuilder *b);

/* Appends a literal to the current term. */
void enc_lit(EncBuilder *b, int var, int value);
/* Closes the current term and returns it. */
GameEncTerm enc_term(EncBuilder *b);
void enc_move(EncBuilder *b, GameEncTerm pre, GameEncTerm set);
/* Starts a primitive entry of the given value; enc_primitive_term adds a
 * disjunct to the latest entry. */
void enc_primitive(EncBuilder *b, Value value);
void enc_primitive_term(EncBuilder *b, GameEncTerm term);

/* Checks the bounds held; otherwise destroys b and returns ERR_INTERNAL
 * naming `game`. */
ErrCode enc_finish(EncBuilder *b, const char *game, Error *err);

#endif /* GAMES_ENCODING_H */
