/* A node's children for the compiled search (solver.h's Expansion): what
 * _cduel.Game.expand gives the Python search (the turns, the undominated
 * ones, each one's score and whether the opponent then has a turn), made
 * once and kept in a small direct-mapped cache, since df-pn comes back to
 * the same nodes again and again. The order of the search (score, then the
 * turns' order) is sorted once here too. */
#include <stdlib.h>
#include <string.h>

#include "solver.h"

/* The children of a SEARCH node into ``e``; 0 when out of memory */
static int fill(Solver *S, const DuelPos *pos, const TurnResult *r, size_t m, Expansion *e) {
    /* the order's keys (and room to sort them), then the dropped marks */
    u128 *keys = scratch_buffer(1, 2 * m * sizeof(u128) + m);
    if (!keys) return 0;
    unsigned char *dropped = (unsigned char *)(keys + 2 * m);
    memset(dropped, 0, m);
    if (!undominated(&S->g, pos->cur, r, m, dropped)) return 0;
    size_t kept = 0;
    for (size_t i = 0; i < m; i++) kept += !dropped[i];
    e->kids = malloc((kept ? kept : 1) * sizeof(Child));
    e->rank = malloc((kept ? kept : 1) * sizeof(uint32_t));
    int ok = e->kids && e->rank;
    uint32_t n = 0;
    /* The opponent's dead cards, the same after every turn that gives them
     * no card (their hand and tops unchanged): counted once */
    const int o = 1 - pos->cur;
    const SoloState opp = {pos->h[o], pos->at[o], pos->a[o], pos->d[o]};
    const int odead = dead_count(&S->g, o, &opp);
    for (size_t i = 0; ok && i < m; i++) {
        if (dropped[i]) continue;
        Child *c = &e->kids[n];
        c->after = r[i].after;
        pos_key(&c->after, c->key);
        c->hash = hash_words(c->key, 3);
        /* the dominance group's key (solver.c's group_key) from the table's */
        const uint64_t group[3] = {c->key[0], c->key[1],
                                   (c->key[2] & 0xffff) | (c->key[2] >> 48 & 0xff) << 16};
        c->group_hash = hash_words(group, 3);
        c->moves = has_turn(&S->g, &c->after);
        c->score = c->after.a[o] == pos->a[o] && c->after.d[o] == pos->d[o]
                       ? score_with(&S->g, pos, &c->after, odead)
                       : score(&S->g, pos, &c->after);
        if (c->moves < 0) ok = 0;
        keys[n] = (u128)((uint64_t)((int64_t)c->score + ((int64_t)1 << 31)) << 32 | n);
        n++;
    }
    if (ok) {
        sort_u128(keys, keys + n, n);
        for (uint32_t i = 0; i < n; i++) e->rank[i] = (uint32_t)keys[i];
    }
    e->n = n;
    return ok;
}

static void clear(Expansion *e) {
    free(e->kids);
    free(e->rank);
    e->kids = NULL;
    e->rank = NULL;
    e->used = 0;
    e->n = 0;
}

const Expansion *expansion_of(Solver *S, const DuelPos *pos) {
    if (!S->cache) {
        S->cache = calloc(EXPANSIONS, sizeof(Expansion));
        if (!S->cache) return NULL;
    }
    uint64_t key[3];
    pos_key(pos, key);
    Expansion *e = &S->cache[hash_words(key, 3) & (EXPANSIONS - 1)];
    if (e->used && words_eq(e->key, key, 3)) return e;
    clear(e);
    TurnSearch T;
    if (!list_turns(&T, &S->g, pos, 0, 0, 2)) return NULL;
    const size_t m = T.n_out;
    e->status = m == 0 ? 0 : 2; /* D6: no turn, the mover loses */
    for (size_t i = 0; i < m && e->status == 2; i++)
        if (T.out[i].won) e->status = 1; /* D6: a turn lays every card */
    const int ok = e->status != 2 || fill(S, pos, T.out, m, e);
    turns_free(&T);
    if (!ok) {
        clear(e);
        return NULL;
    }
    memcpy(e->key, key, sizeof key);
    e->used = 1;
    return e;
}

void expansions_free(Solver *S) {
    if (!S->cache) return;
    for (size_t i = 0; i < EXPANSIONS; i++) clear(&S->cache[i]);
    free(S->cache);
    S->cache = NULL;
}
