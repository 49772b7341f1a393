/* The memo (memo.c): the position's key as words, and a search's memo of
 * positions proven dead (dfs.Searcher's ``dead``, ``_is_dead``, ``_bury``). */
#ifndef THEGAME_MEMO_H
#define THEGAME_MEMO_H

#include "hashtable.h"
#include "kernel.h"

/* ---- the key (Kernel.key) -------------------------------------------------- */

KeyShape key_shape(int players, int hand, int size, int total, int min_play, int extreme);

/* The largest turn count the key's field holds */
static inline int tmax_of(const KeyShape *ks) { return (1 << ks->tbits) - 1; }

/* The tops sorted within each direction, a byte each */
uint64_t tops_word(int n_asc, int n_piles, const int *marked);

/* The key's words into ``out`` (their number), or -1 when the position does
 * not fit the shape */
int key_words(const KeyShape *ks, int n_asc, int n_piles, int players, const int *marked,
              const CardMask *hands, int pos, int cur, int t, int flags, uint64_t *out);

/* The turn count the key holds (Kernel.key, ExtremeKernel.key) */
int key_turns(const Kernel *k);
int x_key_turns(const Kernel *k);

/* The position's key (key_words of the kernel's position) */
int make_key(const Kernel *k, uint64_t *out);

/* Whether a key is of a position at a turn's start (turn count 0) */
static inline int key_at_turn_start(const KeyShape *ks, const uint64_t *key) {
    if (ks->compact) return (key[1] & (((uint64_t)1 << ks->tbits) - 1)) == 0;
    return ((key[ks->kw - 1] >> 48) & 0xffff) == 0;
}

/* ---- the dead memo (dfs.Searcher) ------------------------------------------- */

typedef struct {
    Table *dead;   /* this search's dead positions (the DeadSet it returns) */
    Table *shared; /* turn-start dead positions shared between searches, or NULL */
    /* Searcher.buried: the tops of the positions proven dead, chained by
     * the rest of their key (``groups`` maps it to the head of a chain in
     * ``gtops``/``gnext``); only where tops dominate (not Extreme). Past
     * ``gmax`` entries the chains stop growing. */
    Table groups;
    uint64_t *gtops;
    int32_t *gnext;
    size_t gn, gcap, gmax;
    long long dominated; /* positions found dead by dominance */
} DeadMemo;

/* Searcher._is_dead: in a table, or dominated by a position in a chain */
int memo_is_dead(DeadMemo *m, const Kernel *k, const uint64_t *key);

void memo_add_dead(DeadMemo *m, const Kernel *k, const uint64_t *key, long long proof_nodes);

#endif
