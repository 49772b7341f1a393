/* What an expansion asks beyond the turns (duel/search.py, duel/race.py):
 * which results dominate others (search.undominated), the ordering score
 * (DuelSearch.score) and the cards dead on one's own piles
 * (race.dead_cards). */
#include <stdlib.h>

#include "duel.h"

static int same_group(const DuelPos *x, const DuelPos *y) {
    return x->h[0] == y->h[0] && x->h[1] == y->h[1] && x->at[0] == y->at[0] &&
           x->at[1] == y->at[1];
}

int dominates(const DuelRules *g, int p, const DuelPos *y, const DuelPos *x, CardMask64 un_p,
              CardMask64 un_o) {
    const int o = 1 - p, step = g->step;
    return takes_all_of(1, y->a[p], x->a[p], step, un_p) &&
           takes_all_of(0, y->d[p], x->d[p], step, un_p) &&
           takes_all_of(1, x->a[o], y->a[o], step, un_o) &&
           takes_all_of(0, x->d[o], y->d[o], step, un_o);
}

/* ---- race.dead_cards: cards that can never go on one's own piles alone ---- */

/* The same closure as race.dead_cards, a mask at a time: from the cards a
 * pile takes now, add those beyond the lowest (ascending) or highest
 * (descending) card it can take, and those a step below (above) one it can
 * take, until nothing is added. */
int dead_count(const DuelRules *g, int p, const SoloState *st) {
    const CardMask64 all = st->hand | g->rest[p][st->at];
    const int step = g->step;
    CardMask64 asc = all & (cards64_above(st->a) | card_bit64(st->a - step));
    for (;;) {
        const CardMask64 reach = (asc ? cards64_above(__builtin_ctzll(asc)) : 0) | (asc >> step);
        const CardMask64 add = all & ~asc & reach;
        if (!add) break;
        asc |= add;
    }
    CardMask64 desc = all & (cards64_below(st->d) | card_bit64(st->d + step));
    for (;;) {
        const CardMask64 reach =
            (desc ? cards64_below(63 - __builtin_clzll(desc)) : 0) | (desc << step);
        const CardMask64 add = all & ~desc & reach;
        if (!add) break;
        desc |= add;
    }
    return card_count64(all & ~asc & ~desc);
}

int score(const DuelRules *g, const DuelPos *pos, const DuelPos *after) {
    const int p = pos->cur, o = 1 - p;
    const int a = after->a[p], d = after->d[p];
    const CardMask64 between = cards64_above(d - 1) & cards64_below(a + 1); /* d <= c <= a */
    const int stuck = card_count64(unplayed(g, after, p) & between);
    const int gift = (pos->a[o] - after->a[o]) + (after->d[o] - pos->d[o]);
    const int left = card_count64(after->h[p]) + g->deck_len[p] - after->at[p];
    const int ja = a - pos->a[p], jd = pos->d[p] - d;
    const int jumps = (ja > 0 ? ja : 0) + (jd > 0 ? jd : 0);
    /* the opponent's cards dead on their own piles: each costs them a turn */
    const SoloState opp = {after->h[o], after->at[o], after->a[o], after->d[o]};
    const int odead = dead_count(g, o, &opp);
    return 8 * stuck + gift + 2 * left + jumps - 4 * odead;
}

/* ---- search.undominated ------------------------------------------------------ */

int dominated(const DuelRules *g, int p, const TurnResult *r, size_t n, size_t x) {
    const DuelPos *rx = &r[x].after;
    const CardMask64 un_p = unplayed(g, rx, p), un_o = unplayed(g, rx, 1 - p);
    for (size_t y = 0; y < n; y++)
        if (y != x && !r[y].won && same_group(&r[y].after, rx) &&
            dominates(g, p, &r[y].after, rx, un_p, un_o))
            return 1;
    return 0;
}

/* Within one group (the results ``group[0..k)``, which share their
 * unplayed cards): mark those another one dominates. Dominance is a strict
 * order (takes_all_of is transitive, and two results of a group differ in
 * their tops) and a dominating result has the lower sum of its own
 * ascending top, minus its own descending top, minus the opponent's
 * ascending, plus the opponent's descending top. So, in the order of that
 * sum, a result is dominated exactly when one of the undominated results
 * before it dominates it (an undominated result dominates whatever its
 * dominators dominate): each result is compared with those survivors only,
 * first by the plain order of the tops, which dominance needs. */
static void drop_dominated(const DuelRules *g, int p, const TurnResult *r, const size_t *group,
                           size_t k, int (*t)[4], u128 *keys, unsigned char *dropped) {
    const int o = 1 - p;
    const CardMask64 un_p = unplayed(g, &r[group[0]].after, p);
    const CardMask64 un_o = unplayed(g, &r[group[0]].after, o);
    for (size_t i = 0; i < k; i++) {
        const DuelPos *x = &r[group[i]].after;
        const int sum = x->a[p] - x->d[p] - x->a[o] + x->d[o] + 256;
        keys[i] = (u128)((uint64_t)(uint32_t)sum << 32 | i);
    }
    sort_u128(keys, keys + k, k);
    size_t kept = 0; /* the survivors: tops in t[0..kept), results in keys[0..kept) >> 64 */
    for (size_t s = 0; s < k; s++) {
        const size_t x = group[(uint32_t)keys[s]];
        const DuelPos *rx = &r[x].after;
        const int xa = rx->a[p], xd = rx->d[p], xoa = rx->a[o], xod = rx->d[o];
        int beaten = 0;
        for (size_t y = 0; y < kept && !beaten; y++) {
            if (t[y][0] > xa || t[y][1] < xd || xoa > t[y][2] || xod < t[y][3]) continue;
            beaten = dominates(g, p, &r[(size_t)(keys[y] >> 64)].after, rx, un_p, un_o);
        }
        if (beaten) {
            dropped[x] = 1;
            continue;
        }
        t[kept][0] = xa;
        t[kept][1] = xd;
        t[kept][2] = xoa;
        t[kept][3] = xod;
        keys[kept] = (u128)x << 64; /* kept <= s: that key is read already */
        kept++;
    }
}

int undominated(const DuelRules *g, int p, const TurnResult *r, size_t n, unsigned char *dropped) {
    /* Only results with the same hands and draw piles (a group) can
     * dominate each other: chain each group's results through a hash of
     * the group (first[] over the buckets, one representative a group;
     * next[] links the results of a group), then compare within each
     * group. Every result of a group has the same unplayed cards. */
    size_t cap = 8;
    while (cap < 2 * n) cap <<= 1;
    size_t *order = malloc((cap + 3 * n) * sizeof(size_t));
    if (!order) return 0;
    size_t *first = order, *bucket_next = order + cap, *next = bucket_next + n,
           *group = next + n;
    const size_t none = (size_t)-1;
    for (size_t b = 0; b < cap; b++) first[b] = none;
    for (size_t i = 0; i < n; i++) {
        const DuelPos *x = &r[i].after;
        uint64_t h = x->h[0] * 0x9E3779B97F4A7C15ull ^ x->h[1] * 0xC2B2AE3D27D4EB4Full ^
                     (uint64_t)(x->at[0] * 64 + x->at[1]) * 0x165667B19E3779F9ull;
        h ^= h >> 29;
        const size_t b = (size_t)h & (cap - 1);
        size_t rep = first[b];
        while (rep != none && !same_group(&r[rep].after, x)) rep = bucket_next[rep];
        if (rep == none) { /* a new group: i represents it */
            bucket_next[i] = first[b];
            first[b] = i;
            next[i] = none;
        } else {
            next[i] = next[rep];
            next[rep] = i;
        }
    }
    int(*tops)[4] = malloc((n ? n : 1) * sizeof *tops);
    u128 *keys = malloc((n ? 2 * n : 1) * sizeof(u128));
    if (!tops || !keys) {
        free(tops);
        free(keys);
        free(order);
        return 0;
    }
    for (size_t b = 0; b < cap; b++) {
        for (size_t rep = first[b]; rep != none; rep = bucket_next[rep]) {
            if (next[rep] == none) continue; /* a group of one */
            size_t k = 0;
            for (size_t i = rep; i != none; i = next[i]) group[k++] = i;
            drop_dominated(g, p, r, group, k, tops, keys, dropped);
        }
    }
    free(tops);
    free(keys);
    free(order);
    return 1;
}
