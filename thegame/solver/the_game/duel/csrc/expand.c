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
    const int o = 1 - pos->cur;
    const SoloState opp = {after->h[o], after->at[o], after->a[o], after->d[o]};
    return score_with(g, pos, after, dead_count(g, o, &opp));
}

int score_with(const DuelRules *g, const DuelPos *pos, const DuelPos *after, int odead) {
    const int p = pos->cur, o = 1 - p;
    const int a = after->a[p], d = after->d[p];
    const CardMask64 between = cards64_above(d - 1) & cards64_below(a + 1); /* d <= c <= a */
    const int stuck = card_count64(unplayed(g, after, p) & between);
    const int gift = (pos->a[o] - after->a[o]) + (after->d[o] - pos->d[o]);
    const int left = card_count64(after->h[p]) + g->deck_len[p] - after->at[p];
    const int ja = a - pos->a[p], jd = pos->d[p] - d;
    const int jumps = (ja > 0 ? ja : 0) + (jd > 0 ? jd : 0);
    /* odead: the opponent's cards dead on their own piles: each costs them a turn */
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

/* Marks the results another result dominates for the mover p. Only
 * results with the same hands and draw piles (a group) can dominate each
 * other, and every result of a group has the same unplayed cards; the
 * results of one turn differ only in the mover's hand after it (which
 * fixes their draw pile: the cards drawn are the next of the pile), so a
 * small hash table over that hand numbers the groups and a counting sort
 * puts each group's results together, in their order.
 *
 * Dominance is a strict order (takes_all_of is transitive, and two results
 * of a group differ in their tops), and a dominating result has the lower
 * sum of its own ascending top, minus its own descending top, minus the
 * opponent's ascending, plus the opponent's descending top. So, in the
 * order of that sum, a result is dominated exactly when one of the
 * undominated results before it dominates it (an undominated result
 * dominates whatever its dominators dominate): each result is compared
 * with those survivors only, first by the plain order of the tops, which
 * dominance needs. */
static void drop_in_group(const DuelRules *g, int p, const TurnResult *r, u128 *keys, size_t k,
                          u128 *room, int (*t)[4], size_t *kept_at, unsigned char *dropped) {
    const int o = 1 - p;
    if (k <= 32) { /* the usual group is small: an insertion sort */
        for (size_t i = 1; i < k; i++) {
            const u128 x = keys[i];
            size_t j = i;
            for (; j > 0 && keys[j - 1] > x; j--) keys[j] = keys[j - 1];
            keys[j] = x;
        }
    } else {
        sort_u128(keys, room, k);
    }
    const DuelPos *first = &r[(uint32_t)keys[0]].after;
    const CardMask64 un_p = unplayed(g, first, p), un_o = unplayed(g, first, o);
    size_t kept = 0; /* the survivors: tops in t[0..kept), results in kept_at */
    for (size_t s = 0; s < k; s++) {
        const size_t x = (uint32_t)keys[s];
        const DuelPos *rx = &r[x].after;
        const int xa = rx->a[p], xd = rx->d[p], xoa = rx->a[o], xod = rx->d[o];
        int beaten = 0;
        for (size_t y = 0; y < kept && !beaten; y++) {
            if (t[y][0] > xa || t[y][1] < xd || xoa > t[y][2] || xod < t[y][3]) continue;
            beaten = dominates(g, p, &r[kept_at[y]].after, rx, un_p, un_o);
        }
        if (beaten) {
            dropped[x] = 1;
            continue;
        }
        t[kept][0] = xa;
        t[kept][1] = xd;
        t[kept][2] = xoa;
        t[kept][3] = xod;
        kept_at[kept++] = x;
    }
}

int undominated(const DuelRules *g, int p, const TurnResult *r, size_t n, unsigned char *dropped) {
    const int o = 1 - p;
    if (n < 2) return 1;
    if (n > UINT32_MAX) return 0;
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    /* one block: the keys in group order, each result's key in its order
     * (then the room to sort a group), the table (hands, group numbers),
     * the survivors' results and tops, each result's group, the groups'
     * starts */
    const size_t bytes = cap * (sizeof(CardMask64) + sizeof(uint32_t)) +
                         n * (2 * sizeof(uint32_t) + 2 * sizeof(u128) + 4 * sizeof(int) +
                              sizeof(size_t)) +
                         sizeof(uint32_t);
    unsigned char *block = scratch_buffer(0, bytes);
    if (!block) return 0;
    u128 *keys = (u128 *)block;
    u128 *sums = keys + n;
    CardMask64 *hands = (CardMask64 *)(sums + n);
    size_t *kept_at = (size_t *)(hands + cap);
    int(*t)[4] = (int(*)[4])(kept_at + n);
    uint32_t *slot_group = (uint32_t *)(t + n); /* cap: 0 empty, else group + 1 */
    uint32_t *group_of = slot_group + cap;       /* n */
    uint32_t *start = group_of + n;              /* groups + 1 */
    for (size_t i = 0; i < cap; i++) slot_group[i] = 0;
    uint32_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        const DuelPos *x = &r[i].after;
        const CardMask64 h = x->h[p];
        size_t j = (size_t)((h * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
        while (slot_group[j] && hands[j] != h) j = (j + 1) & (cap - 1);
        if (!slot_group[j]) {
            hands[j] = h;
            slot_group[j] = ++groups;
            start[groups - 1] = 0;
        }
        group_of[i] = slot_group[j] - 1;
        start[group_of[i]]++;
        const uint64_t sum = (uint64_t)(x->a[p] - x->d[p] - x->a[o] + x->d[o] + 2048);
        sums[i] = (u128)(sum << 32 | i);
    }
    uint32_t at = 0;
    for (uint32_t q = 0; q < groups; q++) {
        const uint32_t k = start[q];
        start[q] = at;
        at += k;
    }
    start[groups] = at;
    /* the keys in group order: start[q] runs to the end of group q */
    for (size_t i = 0; i < n; i++) keys[start[group_of[i]]++] = sums[i];
    for (uint32_t q = 0, lo = 0; q < groups; q++) {
        const uint32_t hi = start[q];
        if (hi - lo >= 2) drop_in_group(g, p, r, keys + lo, hi - lo, sums, t, kept_at, dropped);
        lo = hi;
    }
    return 1;
}
