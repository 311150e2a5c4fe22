/* games/encoding.c: the GameEncoding builder (see encoding.h). */
#include "games/encoding.h"

#include <stdlib.h>

#include "core/mem.h"

EncBuilder *enc_create(int nvars, int max_moves, int max_terms, size_t max_lits, Error *err) {
    EncBuilder *b = mem_calloc(1, sizeof *b, "a game's Boolean encoding", err);
    if (b == NULL) {
        return NULL;
    }
    b->initial = mem_calloc((size_t)nvars, 1, "a game's Boolean encoding", err);
    b->moves = mem_calloc((size_t)max_moves, sizeof *b->moves, "a game's Boolean encoding", err);
    b->terms = mem_calloc((size_t)max_terms, sizeof *b->terms, "a game's Boolean encoding", err);
    b->lits = mem_calloc(max_lits, sizeof *b->lits, "a game's Boolean encoding", err);
    if (b->initial == NULL || b->moves == NULL || b->terms == NULL || b->lits == NULL) {
        enc_destroy(b);
        return NULL;
    }
    b->cap_moves = max_moves;
    b->cap_terms = max_terms;
    b->cap_lits = max_lits;
    b->enc.nvars = nvars;
    b->enc.initial = b->initial;
    b->enc.moves = b->moves;
    b->enc.primitive = b->prims;
    return b;
}

void enc_destroy(EncBuilder *b) {
    if (b != NULL) {
        free(b->initial);
        free(b->moves);
        free(b->terms);
        free(b->lits);
        free(b);
    }
}

void enc_lit(EncBuilder *b, int var, int value) {
    if (b->nlits >= b->cap_lits || var < 0 || var >= b->enc.nvars || (value != 0 && value != 1)) {
        b->overflow = true;
        return;
    }
    b->lits[b->nlits++] = (GameEncLit){.var = (uint16_t)var, .value = (uint8_t)value};
}

GameEncTerm enc_term(EncBuilder *b) {
    GameEncTerm t = {.n = (int)(b->nlits - b->term_start), .lits = b->lits + b->term_start};
    b->term_start = b->nlits;
    return t;
}

void enc_move(EncBuilder *b, GameEncTerm pre, GameEncTerm set) {
    if (b->enc.nmoves >= b->cap_moves) {
        b->overflow = true;
        return;
    }
    b->moves[b->enc.nmoves++] = (GameEncMove){.pre = pre, .set = set};
}

void enc_primitive(EncBuilder *b, Value value) {
    if (b->enc.nprimitive >= ENC_MAX_PRIMITIVES) {
        b->overflow = true;
        return;
    }
    b->prims[b->enc.nprimitive++] =
        (GameEncPrimitive){.value = value, .nterms = 0, .terms = b->terms + b->nterms};
}

void enc_primitive_term(EncBuilder *b, GameEncTerm term) {
    if (b->enc.nprimitive == 0 || b->nterms >= b->cap_terms) {
        b->overflow = true;
        return;
    }
    b->terms[b->nterms++] = term;
    b->prims[b->enc.nprimitive - 1].nterms++;
}

ErrCode enc_finish(EncBuilder *b, const char *game, Error *err) {
    if (b->overflow || b->term_start != b->nlits) {
        enc_destroy(b);
        return error_set(err, ERR_INTERNAL,
                         "game '%s': its Boolean encoding overflowed the builder's bounds (or "
                         "named a variable out of range, or left a term open)",
                         game);
    }
    return ERR_OK;
}
