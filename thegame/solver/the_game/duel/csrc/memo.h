/* The memo of one player's states alone (hand, draw-pile position, tops):
 * the races' and the survival bounds' tables (race.c, bounds.c). A state's
 * key and value in one 16-byte slot, so that a lookup waits for memory
 * once; past MEMO_MAX_SLOTS a state is no longer remembered, which costs
 * time, never soundness. Open addressing, linear probing, a power-of-two
 * number of slots; a slot holds the hand and the rest of the state packed
 * with a used bit (at | (a + 1) << 8 | (d + 1) << 16 | 1 << 31: each below
 * 2^7). */
#ifndef THEGAME_DUEL_MEMO_H
#define THEGAME_DUEL_MEMO_H

#include <stdint.h>
#include <stdlib.h>

#include "duel.h"

#define MEMO_MAX_SLOTS ((size_t)1 << 22)
#define MEMO_USED ((uint32_t)1 << 31)

typedef struct {
    uint64_t hand;
    uint32_t rest;
    int32_t value;
} MemoSlot;

typedef struct {
    MemoSlot *slots;
    size_t cap, count;
} Memo;

static inline uint32_t memo_rest(const SoloState *st) {
    return (uint32_t)st->at | (uint32_t)(st->a + 1) << 8 | (uint32_t)(st->d + 1) << 16 | MEMO_USED;
}

/* The state's slot, or the empty slot where it would go */
static inline MemoSlot *memo_slot(const Memo *m, uint64_t hand, uint32_t rest) {
    const uint64_t w[2] = {hand, rest};
    size_t i = hash_words(w, 2) & (m->cap - 1);
    while (m->slots[i].rest && (m->slots[i].rest != rest || m->slots[i].hand != hand))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static inline int memo_init(Memo *m) {
    m->cap = 1 << 12;
    m->count = 0;
    m->slots = calloc(m->cap, sizeof(MemoSlot));
    return m->slots != NULL;
}

static inline void memo_free(Memo *m) {
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

static inline void memo_clear(Memo *m) {
    for (size_t i = 0; i < m->cap; i++) m->slots[i].rest = 0;
    m->count = 0;
}

/* Keep (or overwrite) the value of a state (silently not when full or out
 * of memory: an entry only saves work) */
static inline void memo_put(Memo *m, const SoloState *st, int32_t value) {
    if ((m->count + 1) * 10 > m->cap * 7) {
        MemoSlot *bigger =
            m->cap * 2 <= MEMO_MAX_SLOTS ? calloc(m->cap * 2, sizeof(MemoSlot)) : NULL;
        if (bigger) {
            Memo grown = {bigger, m->cap * 2, m->count};
            for (size_t i = 0; i < m->cap; i++)
                if (m->slots[i].rest)
                    *memo_slot(&grown, m->slots[i].hand, m->slots[i].rest) = m->slots[i];
            free(m->slots);
            *m = grown;
        } else if ((m->count + 1) * 10 > m->cap * 9) {
            return;
        }
    }
    const uint32_t rest = memo_rest(st);
    MemoSlot *slot = memo_slot(m, st->hand, rest);
    if (!slot->rest) m->count++;
    slot->hand = st->hand;
    slot->rest = rest;
    slot->value = value;
}

static inline const int32_t *memo_get(const Memo *m, const SoloState *st) {
    const MemoSlot *slot = memo_slot(m, st->hand, memo_rest(st));
    return slot->rest ? &slot->value : NULL;
}

#endif
