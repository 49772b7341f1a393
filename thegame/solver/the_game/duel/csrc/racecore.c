/* The race alone, compiled: race.py's RaceSolver (the reference) over a
 * RaceCore (race.h). A depth-first search with a memo of exact values over
 * the states (hand, draw-pile position, ascending top, descending top). It
 * visits the states the reference visits, each as its canonical state
 * (race.canonical), in its order (the turns of solo_list, more cards
 * first, ties in solo_list's order), cuts where it cuts (a dead card, a
 * state below one with no finish, the floor reached) and counts nodes as
 * it does, so a budget in nodes ends both at the same node
 * (tests/the_game/duel/test_crace.py). */
#include <stdlib.h>
#include <string.h>

#include "race.h"

/* race.solo_floor: each turn draws at most draw_own (own piles only, D5)
 * and the last card comes after the last draw. */
static int solo_floor(const DuelRules *g, int p, const SoloState *st) {
    const int stock = g->deck_len[p] - st->at;
    if (stock == 0) return st->hand == 0 ? 0 : 1;
    return 1 + (stock + g->draw_own - 1) / g->draw_own;
}

/* Stable: more cards played first, ties in solo_list's order (Python's
 * sort by -len is stable): a counting sort on the number of plays. */
static void order_turns(const SoloResult *r, size_t n, size_t *idx) {
    size_t start[MAX_DECK + 2] = {0};
    for (size_t i = 0; i < n; i++) start[MAX_DECK - r[i].n + 1]++;
    for (int k = 1; k <= MAX_DECK + 1; k++) start[k] += start[k - 1];
    for (size_t i = 0; i < n; i++) idx[start[MAX_DECK - r[i].n]++] = i;
}

/* race.RaceSolver._lost_above: whether a state with the same hand and
 * draw pile, found with no finish, has tops that take every card these
 * take (takes_all_of, now and later). Then this one has no finish either:
 * each of its lines is a line of that one. */
static int lost_above(const RaceCore *R, const SoloState *st) {
    const uint64_t k[2] = {st->hand, (uint64_t)st->at};
    const int32_t *head = tab_get(&R->lost, k);
    if (!head) return 0;
    const CardMask64 un = st->hand | R->g->rest[R->p][st->at];
    const int step = R->g->step;
    for (int32_t i = *head; i >= 0; i = R->ends[i].next)
        if (takes_all_of(1, R->ends[i].a, st->a, step, un) &&
            takes_all_of(0, R->ends[i].d, st->d, step, un))
            return 1;
    return 0;
}

/* Remember a state with no finish for lost_above (silently not, when out
 * of memory: a remembered state only saves work). */
static void record_lost(RaceCore *R, const SoloState *st) {
    if (R->n_ends == R->cap_ends) {
        const size_t cap = R->cap_ends ? 2 * R->cap_ends : 1024;
        if (cap > INT32_MAX) return;
        LostTops *e = realloc(R->ends, cap * sizeof(LostTops));
        if (!e) return;
        R->ends = e;
        R->cap_ends = cap;
    }
    const uint64_t k[2] = {st->hand, (uint64_t)st->at};
    const size_t slot = tab_slot(&R->lost, k);
    const int32_t i = (int32_t)R->n_ends;
    R->ends[i].a = (int8_t)st->a;
    R->ends[i].d = (int8_t)st->d;
    if (R->lost.used[slot]) {
        R->ends[i].next = R->lost.vals[slot];
        R->lost.vals[slot] = i;
    } else if (tab_add(&R->lost, slot, k, i)) {
        R->ends[i].next = -1;
    } else {
        return; /* the table is full */
    }
    R->n_ends++;
}

static int race_spent(RaceCore *R) {
    if (R->nodes >= R->limit) return 1;
    if ((R->nodes & 255) == 0 && R->stop) {
        const int t = R->stop(R->stop_ctx);
        if (t < 0) {
            R->halted = 2;
            return 1;
        }
        return t;
    }
    return 0;
}

/* race.canonical: each top moved as far back (ascending: down, descending:
 * up) as it goes without changing which unplayed cards the pile takes, now
 * or later; equal states then share one memo entry. */
static SoloState canonical(const DuelRules *g, int p, const SoloState *st) {
    const CardMask64 un = st->hand | g->rest[p][st->at];
    const int step = g->step;
    SoloState c = *st;
    while (c.a - 1 >= 0 && !(un & (card_bit64(c.a) | card_bit64(c.a - step) |
                                   card_bit64(c.a - 1 - step))))
        c.a--;
    while (c.d + 1 <= MAX_CARD + 1 && !(un & (card_bit64(c.d) | card_bit64(c.d + step) |
                                              card_bit64(c.d + 1 + step))))
        c.d++;
    return c;
}

static int fewest(RaceCore *R, const SoloState *given) {
    const DuelRules *g = R->g;
    const SoloState canon = canonical(g, R->p, given), *st = &canon;
    const int32_t *got = memo_get(&R->memo, st);
    if (got) return *got;
    R->nodes++;
    if (race_spent(R)) {
        if (!R->halted) R->halted = 1;
        return RACE_INF;
    }
    const int p = R->p, floor = solo_floor(g, p, st);
    /* a card that never goes down, or a state below one with no finish */
    if (!R->robust && (dead_count(g, p, st) > 0 || lost_above(R, st))) {
        memo_put(&R->memo, st, RACE_INF);
        return RACE_INF;
    }
    SoloSearch S;
    if (!solo_list(g, &S, p, st, R->robust, 0, 0)) {
        R->halted = 2;
        return RACE_INF;
    }
    size_t *idx = malloc((S.n_out ? S.n_out : 1) * sizeof(size_t));
    if (!idx) {
        free(S.out);
        R->halted = 2;
        return RACE_INF;
    }
    order_turns(S.out, S.n_out, idx);
    int take = g->deck_len[p] - st->at;
    if (g->draw_own < take) take = g->draw_own;
    if (take < 0) take = 0;
    CardMask64 drawn = 0;
    for (int k = 0; k < take; k++) drawn |= (CardMask64)1 << g->deck[p][st->at + k];
    int best = RACE_INF;
    for (size_t i = 0; i < S.n_out; i++) {
        const SoloResult *r = &S.out[idx[i]];
        int value;
        if (r->hand == 0 && S.empty) {
            value = 1;
        } else {
            const SoloState after = {r->hand | drawn, st->at + take, r->a, r->d};
            const int v = fewest(R, &after);
            if (R->halted) break;
            value = v >= RACE_INF ? RACE_INF : 1 + v;
        }
        if (value < best) {
            best = value;
            if (best <= floor) break; /* the floor is proven: nothing is shorter */
        }
    }
    free(idx);
    free(S.out);
    if (R->halted) return RACE_INF;
    memo_put(&R->memo, st, best);
    if (best >= RACE_INF && !R->robust) record_lost(R, st);
    return best;
}


int race_core_init(RaceCore *R, const DuelRules *g, int p, int robust) {
    memset(R, 0, sizeof *R);
    R->g = g;
    R->p = p;
    R->robust = robust;
    return memo_init(&R->memo) && tab_init(&R->lost, 2, MEMO_MAX_SLOTS);
}

void race_core_free(RaceCore *R) {
    memo_free(&R->memo);
    tab_free(&R->lost);
    free(R->ends);
    R->ends = NULL;
    R->n_ends = R->cap_ends = 0;
}

int race_core_fewest(RaceCore *R, const SoloState *st, long long nodes) {
    R->limit = nodes < 0 ? (long long)1 << 62 : R->nodes + nodes;
    R->halted = 0;
    return fewest(R, st);
}

int race_core_known(const RaceCore *R, const SoloState *st) {
    const SoloState c = canonical(R->g, R->p, st);
    const int32_t *got = memo_get(&R->memo, &c);
    return got ? *got : -1;
}

/* ---- race.finishes_alone: whether any finish exists, a card at a time ---- */

typedef struct {
    const DuelRules *g;
    int p;
    RacePath *path; /* the finish found, as it is searched */
    KeySet seen;    /* the states searched (each found with no finish) */
    long long nodes, limit;
    RaceStop stop;
    void *stop_ctx;
    int halted;
} Finish;

/* 1: a finish, 0: none, -1: halted. A state is the hand, the draw pile,
 * the tops and the plays made this turn (k, capped at the minimum): play a
 * card on either pile (D3), or, with the minimum played and cards to draw,
 * end the turn and draw (D5); laying the last card of an empty draw pile
 * with the minimum played finishes (D6). */
static int finishes(Finish *F, CardMask64 hand, int at, int a, int d, int k) {
    const DuelRules *g = F->g;
    const int len = g->deck_len[F->p], step = g->step;
    const int m = at < len ? g->min_play : g->min_play_empty;
    if (k > m) k = m;
    if (hand == 0 && at == len) return k >= m;
    const SoloState raw = {hand, at, a, d}, c = canonical(g, F->p, &raw);
    const SetKey key = seen_key(hand, c.a, c.d, at, k);
    const int added = keyset_add(&F->seen, &key);
    if (added <= 0) {
        if (added < 0) F->halted = 2;
        return added < 0 ? -1 : 0;
    }
    if (++F->nodes >= F->limit) F->halted = 1;
    if (!F->halted && (F->nodes & 4095) == 0 && F->stop) {
        const int t = F->stop(F->stop_ctx);
        if (t) F->halted = t < 0 ? 2 : 1;
    }
    if (F->halted) return -1;
    RacePath *path = F->path;
    const int n = path->n++;
    for (CardMask64 left = hand; left; left &= left - 1) {
        const int card = __builtin_ctzll(left);
        const CardMask64 rest = hand & ~((CardMask64)1 << card);
        int r = 0;
        path->card[n] = (uint8_t)card;
        path->pile[n] = (uint8_t)(2 * F->p);
        if (pile_accepts(1, a, card, step)) r = finishes(F, rest, at, card, d, k + 1);
        if (r == 0 && pile_accepts(0, d, card, step)) {
            path->pile[n] = (uint8_t)(2 * F->p + 1);
            r = finishes(F, rest, at, a, card, k + 1);
        }
        if (r != 0) return r;
    }
    int r = 0;
    if (k >= m && at < len) { /* an empty draw pile: ending the turn only costs */
        int take = len - at;
        if (g->draw_own < take) take = g->draw_own;
        const CardMask64 drawn = g->rest[F->p][at] & ~g->rest[F->p][at + take];
        path->pile[n] = RACE_TURN_END;
        r = finishes(F, hand | drawn, at + take, a, d, 0);
    }
    if (r == 0) path->n = n;
    return r;
}

int race_core_finishes(const DuelRules *g, int p, const SoloState *st, long long nodes,
                       RaceStop stop, void *stop_ctx, long long *used, RacePath *path) {
    path->n = 0;
    Finish F = {g, p, path, {0}, 0, nodes < 0 ? (long long)1 << 62 : nodes, stop, stop_ctx, 0};
    if (!keyset_init(&F.seen, 1 << 12)) {
        keyset_free(&F.seen);
        return -2;
    }
    const int r = finishes(&F, st->hand, st->at, st->a, st->d, 0);
    keyset_free(&F.seen);
    *used = F.nodes;
    if (F.halted == 2) return -2;
    return F.halted ? -1 : r;
}
