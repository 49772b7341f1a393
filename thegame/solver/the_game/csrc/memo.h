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

/* The turn count the key holds (Kernel.key) */
static inline int key_turns(const Kernel *k) {
    const State *s = &k->s;
    int t = s->t;
    if (t > s->turn_min && (s->max_turn == INF || s->pos >= k->total)) t = s->turn_min;
    return t;
}

/* ExtremeKernel.key: each top marked 2 * top + (this turn's cards went
 * there), the turn count capped at max(m, 3), and the stop/three flags, held
 * in the turn count's word above its low 8 bits */
static inline int x_key_turns(const Kernel *k) {
    const State *s = &k->s;
    int cap = s->turn_min > 3 ? s->turn_min : 3;
    return s->t < cap ? s->t : cap;
}

/* The position's key (key_words of the kernel's position) */
int make_key(const Kernel *k, uint64_t *out);

/* Whether a key is of a position at a turn's start (turn count 0) */
static inline int key_at_turn_start(const KeyShape *ks, const uint64_t *key) {
    if (ks->compact) return (key[1] & (((uint64_t)1 << ks->tbits) - 1)) == 0;
    return ((key[ks->kw - 1] >> 48) & 0xffff) == 0;
}

/* ---- the dead memo (dfs.Searcher) ------------------------------------------- */

/* The new entries of a shared table worth telling other processes about
 * (the split search's workers trade them): each one's key words and value,
 * appended as the search proves them; ``on`` is cleared when memory runs
 * out (the entries then stay unshared, which costs only work). */
typedef struct {
    uint64_t *keys;
    int32_t *vals;
    size_t n, cap;
    int kw, on;
    int32_t min_val; /* only proofs of at least 2^(min_val-1) nodes */
} Journal;

static inline void journal_add(Journal *j, const uint64_t *key, int32_t val) {
    if (j->n == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 1 << 12;
        uint64_t *keys = realloc(j->keys, cap * (size_t)j->kw * sizeof(uint64_t));
        if (keys) j->keys = keys;
        int32_t *vals = keys ? realloc(j->vals, cap * sizeof(int32_t)) : NULL;
        if (vals) j->vals = vals;
        if (!keys || !vals) {
            j->on = 0;
            return;
        }
        j->cap = cap;
    }
    memcpy(j->keys + j->n * (size_t)j->kw, key, (size_t)j->kw * sizeof(uint64_t));
    j->vals[j->n++] = val;
}

typedef struct {
    Table *dead;   /* this search's dead positions (the DeadSet it returns) */
    Table *shared; /* turn-start dead positions shared between searches, or NULL */
    /* every dead position goes to ``shared``: the searches sharing it all
     * start at turn starts (the split search), so the turn cap is the same
     * for each and a position inside a turn is a fact of the deal too */
    int share_all;
    /* Searcher.buried: the tops of the positions proven dead, chained by
     * the rest of their key (``groups`` maps it to the head of a chain in
     * ``gtops``/``gnext``); only where tops dominate (not Extreme). Past
     * ``gmax`` entries the chains stop growing. */
    Table groups;
    uint64_t *gtops;
    int32_t *gnext;
    size_t gn, gcap, gmax;
    long long dominated; /* positions found dead by dominance */
    Journal *journal;    /* the shared table's journal, or NULL */
} DeadMemo;

/* memo.c: Searcher._is_dead's dominance, and Searcher._bury's chains */
int memo_dominated(DeadMemo *m, const Kernel *k, const uint64_t *key);
void memo_bury(DeadMemo *m, const Kernel *k, const uint64_t *key);

/* Searcher._is_dead: in a table, or dominated by a position in a chain
 * (inline, as memo_add_dead: every node asks) */
static inline int memo_is_dead(DeadMemo *m, const Kernel *k, const uint64_t *key) {
    return tab_get(m->dead, key) || (m->shared && tab_get(m->shared, key)) ||
           memo_dominated(m, k, key);
}

/* A dead position's value in the memo: the bits of the nodes its proof
 * took (at least 1) */
static inline int32_t work_bits(long long nodes) {
    int32_t b = 1;
    while (b < 63 && nodes >> b) b++;
    return b;
}

/* Searcher._bury: a position proven dead into the memo, valued by the nodes
 * its proof took. With a shared table, positions at a turn start (capped
 * turn count 0) go there: a fact about the position that every search of
 * the deal may reuse; positions inside a turn depend on where the search
 * started (the solo turn cap) and stay in the search's own table. Extreme
 * has no turn cap (ExtremeKernel.max_turn is INF), so there every dead
 * position is such a fact and goes to the shared table, as the puzzle
 * rating's Python search of Extreme shares them all. */
static inline void memo_add_dead(DeadMemo *m, const Kernel *k, const uint64_t *key,
                                 long long proof_nodes) {
    int32_t val = work_bits(proof_nodes);
    if (m->shared && (m->share_all || k->extreme || key_at_turn_start(&k->ks, key))) {
        tab_keep(m->shared, key, val);
        if (m->journal && m->journal->on && val >= m->journal->min_val)
            journal_add(m->journal, key, val);
    } else
        tab_keep(m->dead, key, val);
    memo_bury(m, k, key);
}

#endif
