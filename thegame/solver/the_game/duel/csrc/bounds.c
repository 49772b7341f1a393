/* survival.relaxed_turns, survival.Endurance and race.RelaxedRace (see
 * bounds.h), compiled. */
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "race.h"

typedef struct {
    KeySet *seen;   /* or NULL: */
    Seen64 *seen64; /* where the hands draw from few cards */
    SoloState *out;
    size_t n, cap;
} Relaxed;

/* 1 added, 0 there already, -1 out of memory */
static int relaxed_add(Relaxed *L, CardMask64 hand, int at, int a, int d) {
    int added;
    if (L->seen64) {
        added = seen64_add(L->seen64, seen64_key(compact(L->seen64, hand), a, d, at, 0));
    } else {
        const SetKey key = seen_key(hand, a, d, at, 0);
        added = keyset_add(L->seen, &key);
    }
    if (added <= 0) return added;
    if (L->n == L->cap) {
        const size_t cap = L->cap ? 2 * L->cap : 64;
        SoloState *o = realloc(L->out, cap * sizeof(SoloState));
        if (!o) return -1;
        L->out = o;
        L->cap = cap;
    }
    L->out[L->n++] = (SoloState){hand, at, a, d};
    return 1;
}

static inline CardMask64 drawn_cards(const DuelRules *g, int p, int at, int take) {
    return g->rest[p][at] & ~g->rest[p][at + take];
}

/* The results of one own-plays state r: the turn ends (draw 2, D5), or one
 * card of the hand leaves for the opponent and the hand refills. */
static int relaxed_of(const DuelRules *g, int p, int at, int m, int empty, const SoloResult *r,
                      Relaxed *L, int *won) {
    const int stock = g->deck_len[p] - at;
    if (r->n >= m) {
        if (r->hand == 0 && empty) {
            *won = 1;
        } else {
            const int take = g->draw_own < stock ? g->draw_own : stock;
            if (relaxed_add(L, r->hand | drawn_cards(g, p, at, take), at + take, r->a, r->d) < 0)
                return 0;
        }
    }
    if (r->n + 1 < m) return 1;
    for (CardMask64 left = r->hand; left; left &= left - 1) {
        const CardMask64 kept = r->hand & ~(left & (0 - left));
        if (kept == 0 && empty) {
            *won = 1;
            continue;
        }
        int take = g->hand_size - card_count64(kept);
        if (take > stock) take = stock;
        if (take < 0) take = 0;
        if (relaxed_add(L, kept | drawn_cards(g, p, at, take), at + take, r->a, r->d) < 0) return 0;
    }
    return 1;
}

int relaxed_list(const DuelRules *g, int p, const SoloState *st, SoloState **out, size_t *n,
                 int *won) {
    /* Every state the own plays reach with at least one play (a dump needs
     * one own play, D2); the minimum is applied in relaxed_of. */
    const int m = st->at == g->deck_len[p] ? g->min_play_empty : g->min_play;
    SoloSearch S;
    *out = NULL;
    *n = 0;
    *won = 0;
    if (!solo_list(g, &S, p, st, 0, m - 1 > 1 ? m - 1 : 1, 0)) return 0;
    /* the hands after: the hand's cards and the next ones drawn */
    const int stock = g->deck_len[p] - st->at, most = g->hand_size > g->draw_own ? g->hand_size
                                                                                 : g->draw_own;
    const CardMask64 cards = st->hand | drawn_cards(g, p, st->at, most < stock ? most : stock);
    Relaxed L = {NULL, NULL, NULL, 0, 0};
    if (card_count64(cards) <= SEEN_CARDS) {
        L.seen64 = scratch_seen(2);
        seen64_cards(L.seen64, cards);
    } else {
        L.seen = scratch_set(2);
    }
    int ok = L.seen != NULL || L.seen64 != NULL;
    for (size_t i = 0; ok && i < S.n_out; i++)
        ok = relaxed_of(g, p, st->at, m, S.empty, &S.out[i], &L, won);
    free(S.out);
    if (!ok) {
        free(L.out);
        return 0;
    }
    *out = L.out;
    *n = L.n;
    return 1;
}

/* ---- the orders of the references' sorts --------------------------------- */

/* survival._order, the tuple (hand, at, a, d), as one number; with
 * ``left``, race._relaxed_order: the cards left first. Each field in 8
 * bits (a top is at least -1, at most 64; the cards left -64..64). */
static inline u128 order_key(const SoloState *s, int left) {
    const int ahead = left ? card_count64(s->hand) - s->at + 64 : 0;
    return (u128)(uint32_t)ahead << 88 | (u128)s->hand << 24 | (u128)(uint32_t)s->at << 16 |
           (u128)(uint32_t)(s->a + 1) << 8 | (u128)(uint32_t)(s->d + 1);
}

static inline SoloState of_key(u128 k) {
    return (SoloState){(CardMask64)(k >> 24), (int)(k >> 16 & 0xff), (int)(k >> 8 & 0xff) - 1,
                       (int)(k & 0xff) - 1};
}

/* A state's turns as a heap of their order keys: the searches below take
 * them in order and mostly stop after the first few, so a heap (built in
 * linear time, a pop in log n) costs less than sorting them all. */
typedef struct {
    u128 *heap;
    size_t n;
} Turns;

static inline void sift_down(u128 *h, size_t n, size_t i) {
    const u128 x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) c++;
        if (!(h[c] < x)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* The next turn in order into *s; 0 when none is left */
static inline int next_turn(Turns *t, SoloState *s) {
    if (t->n == 0) return 0;
    *s = of_key(t->heap[0]);
    t->heap[0] = t->heap[--t->n];
    if (t->n > 1) sift_down(t->heap, t->n, 0);
    return 1;
}

/* A state's turns (won: one lays every card, always first) in order;
 * relaxed: the relaxed turns, else the robust ones. 0: out of memory. */
static int turns_of(const DuelRules *g, int p, const SoloState *st, int relaxed, int left,
                    Turns *t, int *won) {
    SoloState *states = NULL;
    size_t n = 0;
    t->heap = NULL;
    t->n = 0;
    if (relaxed) {
        if (!relaxed_list(g, p, st, &states, &n, won)) return 0;
        t->heap = malloc((n ? n : 1) * sizeof(u128));
        if (!t->heap) {
            free(states);
            return 0;
        }
        for (size_t i = 0; i < n; i++) t->heap[i] = order_key(&states[i], left);
        free(states);
    } else {
        SoloSearch S;
        if (!solo_list(g, &S, p, st, 1, 0, 0)) return 0;
        int take = g->deck_len[p] - st->at;
        if (g->draw_own < take) take = g->draw_own;
        if (take < 0) take = 0;
        const CardMask64 drawn = drawn_cards(g, p, st->at, take);
        *won = 0;
        t->heap = malloc((S.n_out ? S.n_out : 1) * sizeof(u128));
        if (!t->heap) {
            free(S.out);
            return 0;
        }
        for (size_t i = 0; i < S.n_out; i++) {
            const SoloResult *r = &S.out[i];
            if (r->hand == 0 && S.empty) {
                *won = 1;
            } else {
                const SoloState after = {r->hand | drawn, st->at + take, r->a, r->d};
                t->heap[n++] = order_key(&after, left);
            }
        }
        free(S.out);
    }
    t->n = n;
    for (size_t i = n / 2; i-- > 0;) sift_down(t->heap, n, i);
    return 1;
}

/* ---- survival.Endurance ---------------------------------------------------- */

int endurance_init(Endurance *E, const DuelRules *g, int p, int relaxed) {
    memset(E, 0, sizeof *E);
    E->g = g;
    E->p = p;
    E->relaxed = relaxed;
    return memo_init(&E->memo);
}

/* Endurance._lasts; -1: out of budget */
static int lasts(Endurance *E, const SoloState *st, int k) {
    if (k <= 0) return 0;
    const int32_t *got = memo_get(&E->memo, st);
    if (got) {
        const int value = *got >> 1, exact = *got & 1;
        if (exact || value >= k) return value < k ? value : k;
    }
    if (++E->nodes > E->limit) return -1;
    Turns kids;
    SoloState kid;
    int won;
    if (!turns_of(E->g, E->p, st, E->relaxed, 0, &kids, &won)) {
        E->failed = 1;
        return -1;
    }
    int best = won ? FOREVER : 0;
    while (best < k && next_turn(&kids, &kid)) {
        const int v = lasts(E, &kid, k - 1);
        if (v < 0) {
            free(kids.heap);
            return -1;
        }
        if (1 + v > best) best = 1 + v;
    }
    free(kids.heap);
    memo_put(&E->memo, st, best * 2 + (best < k));
    return best < k ? best : k;
}

int endurance_lasts(Endurance *E, const SoloState *st, int k, long long nodes) {
    E->limit = E->nodes + nodes;
    if (E->memo.count > BOUNDS_MEMO) memo_clear(&E->memo);
    return lasts(E, st, k);
}

/* ---- race.RelaxedRace ------------------------------------------------------- */

int relaxed_init(RelaxedRace *R, const DuelRules *g, int p) {
    memset(R, 0, sizeof *R);
    R->g = g;
    R->p = p;
    return memo_init(&R->memo);
}

static int relaxed_floor(const RelaxedRace *R, const SoloState *st) {
    const int low = fewest_turns(R->g, card_count64(st->hand), R->g->deck_len[R->p] - st->at);
    const int dead = dead_count(R->g, R->p, st);
    return low > dead ? low : dead;
}

static int fewest_relaxed(RelaxedRace *R, const SoloState *st) {
    const int32_t *got = memo_get(&R->memo, st);
    if (got) return *got;
    if (++R->nodes > R->limit) return -1;
    const int floor = relaxed_floor(R, st);
    Turns kids;
    SoloState kid;
    int won;
    if (!turns_of(R->g, R->p, st, 1, 1, &kids, &won)) {
        R->failed = 1;
        return -1;
    }
    int best = won ? 1 : RACE_INF;
    while (best > floor && next_turn(&kids, &kid)) {
        const int v = fewest_relaxed(R, &kid);
        if (v < 0) {
            free(kids.heap);
            return -1;
        }
        if (1 + v < best) best = 1 + v;
    }
    free(kids.heap);
    memo_put(&R->memo, st, best);
    return best;
}

int relaxed_fewest(RelaxedRace *R, const SoloState *st, long long nodes) {
    R->limit = R->nodes + nodes;
    if (R->memo.count > BOUNDS_MEMO) memo_clear(&R->memo);
    return fewest_relaxed(R, st);
}
