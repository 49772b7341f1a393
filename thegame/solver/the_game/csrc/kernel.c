/* Kernel (kernel.py): the moves, the turn's end, the bounds of what can
 * still be played, the beam's evaluation. Extreme's versions are in
 * extreme.c; the moves of a turn that every node makes (play, unplay,
 * can_end, won) are inline in kernel.h. */
#include "kernel.h"

/* Moves sort by (cost, card, pile), as Python sorts its tuples: one
 * integer per move in that order (costs lie within -128..+255). */
static inline uint32_t mv_order(const Move *m) {
    return ((uint32_t)(m->cost + 512) << 16) | ((uint32_t)m->c << 8) | (uint32_t)m->pile;
}

void sort_moves(Move *out, int n) {
    /* insertion sort of the keys alone (short lists), then the moves
     * rebuilt from them: the key holds the whole move */
    uint32_t keys[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        uint32_t kv = mv_order(&out[i]);
        int j = i - 1;
        while (j >= 0 && keys[j] > kv) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = kv;
    }
    for (int i = 0; i < n; i++)
        out[i] = (Move){(int)(keys[i] >> 16) - 512, (int)((keys[i] >> 8) & 0xff),
                      (int)(keys[i] & 0xff)};
}

/* Kernel._all_moves: every legal play, fire variants */
int all_moves(const Kernel *k, Move *out) {
    const State *s = &k->s;
    CardMask hand = s->hands[s->cur], un = s->unplayed, h = hand;
    int n = 0;
    while (h) {
        int c = lowest_card(h);
        h &= h - 1;
        for (int i = 0; i < k->n_piles; i++) {
            int asc = i < k->n_asc, t = s->tops[i], dup = 0;
            for (int j = 0; j < i; j++)
                if ((j < k->n_asc) == asc && s->tops[j] == t) { dup = 1; break; }
            if (dup) continue;
            int d = asc ? 0 : 1;
            if (!card_in(k->accepted[d][t], c)) continue;
            if (t == k->trick_top[d][c]) {
                out[n++] = (Move){-k->step, c, i};
            } else {
                CardMask between = asc ? cards_between(t, c) : cards_between(c, t);
                out[n++] = (Move){card_count(un & between), c, i};
            }
        }
    }
    sort_moves(out, n);
    return n;
}

/* Kernel.moves' plays of card c on the ascending piles, into ``out``
 * (``bonus``: the card one step back is in the hand); how many. A backward
 * trick dominates every normal play of c; of the normal plays, the one on
 * the highest top below c, and those on lower tops only where it does not
 * dominate them (kernel.py argues both). */
static inline int asc_plays(const Kernel *k, int c, int bonus, Move *out) {
    const State *s = &k->s;
    const int *tops = s->tops;
    const CardMask un = s->unplayed;
    int step = k->step, n_asc = k->n_asc, n = 0;
    int back = k->trick_top[0][c], trick = -1, best = -1;
    for (int i = 0; i < n_asc; i++) {
        int t = tops[i];
        if (t == back) { trick = i; break; }
        if (c >= k->first_beyond[t] && (best < 0 || t > tops[best])) best = i;
    }
    if (trick >= 0) {
        out[n++] = (Move){-step, c, trick};
    } else if (best >= 0) {
        int a = tops[best];
        out[n++] = (Move){card_count(un & cards_between(a, c)) - bonus, c, best};
        if (n_asc > 1) {
            int keep_ok = a - step > 0 && card_in(un, a - step);
            int seen = a;
            for (int i = 0; i < n_asc; i++) {
                int b = tops[i];
                if (c >= k->first_beyond[b] && b != seen && keep_ok && a - step <= b) {
                    seen = b;
                    out[n++] = (Move){card_count(un & cards_between(b, c)) - bonus, c, i};
                }
            }
        }
    }
    return n;
}

/* The same on the descending piles, mirrored */
static inline int desc_plays(const Kernel *k, int c, int bonus, Move *out) {
    const State *s = &k->s;
    const int *tops = s->tops;
    const CardMask un = s->unplayed;
    int step = k->step, n_asc = k->n_asc, n_piles = k->n_piles, n = 0;
    int back = k->trick_top[1][c], trick = -1, best = -1;
    for (int i = n_asc; i < n_piles; i++) {
        int t = tops[i];
        if (t == back) { trick = i; break; }
        if (c <= k->last_beyond[t] && (best < 0 || t < tops[best])) best = i;
    }
    if (trick >= 0) {
        out[n++] = (Move){-step, c, trick};
    } else if (best >= 0) {
        int a = tops[best];
        out[n++] = (Move){card_count(un & cards_between(c, a)) - bonus, c, best};
        if (n_piles - n_asc > 1) {
            int keep_ok = card_in(un, a + step);
            int seen = a;
            for (int i = n_asc; i < n_piles; i++) {
                int b = tops[i];
                if (c <= k->last_beyond[b] && b != seen && keep_ok && a + step >= b) {
                    seen = b;
                    out[n++] = (Move){card_count(un & cards_between(c, b)) - bonus, c, i};
                }
            }
        }
    }
    return n;
}

/* Kernel.moves */
int moves(const Kernel *k, Move *out) {
    if (__builtin_expect(k->extreme, 0)) return x_moves(k, out);
    if (k->fire) return all_moves(k, out);
    const State *s = &k->s;
    CardMask hand = s->hands[s->cur], h = hand;
    int step = k->step, n = 0;
    while (h) {
        int c = lowest_card(h);
        h &= h - 1;
        /* Bonus: the card one step back is in hand, a free trick follows. */
        int up_bonus = c > step ? card_in(hand, c - step) : 0;
        int down_bonus = card_in(hand, c + step);
        n += asc_plays(k, c, up_bonus, out + n);
        n += desc_plays(k, c, down_bonus, out + n);
    }
    sort_moves(out, n);
    return n;
}

TurnUndo end_turn(Kernel *k) {
    State *s = &k->s;
    TurnUndo u = {s->cur, s->t, s->pos, s->hands[s->cur], s->pending, s->turn_min, s->max_turn};
    s->max_turn = k->base_max_turn;
    CardMask hand = s->hands[s->cur];
    /* draw_need: X4c, one card while a draw-one card shows, else back to H */
    int need = k->extreme && (x_shown(k) & k->draw_one) ? 1 : k->hand_size - card_count(hand);
    int pos = s->pos;
    int end = pos + need < k->total ? pos + need : k->total;
    for (int i = pos; i < end; i++) hand |= card_bit(k->deck[i]);
    s->hands[s->cur] = hand;
    s->pos = end;
    int pend = 0;
    if (k->fire)
        for (int i = 0; i < k->n_piles; i++)
            if (card_in(k->fire, s->tops[i])) pend |= 1 << i;
    s->pending = pend;
    int nxt = (s->cur + 1) % k->players;
    if (end >= k->total) {
        for (int r = 0; r < k->players; r++) {
            if (s->hands[nxt]) break;
            nxt = (nxt + 1) % k->players;
        }
    }
    s->cur = nxt;
    s->t = 0;
    s->turn_min = minimum(k);
    return u;
}

/* arguments.pile_low: the lowest card an ascending pile showing ``top``
 * can ever take when only the cards of ``un`` are ever played */
static int pile_low(const Kernel *k, int top, CardMask un) {
    int low = top + 1;
    for (;;) {
        CardMask src = (un & ~cards_below(low)) | card_bit(top);
        CardMask tgt = (src >> k->step) & un & cards_below(low);
        if (!tgt) return low;
        low = lowest_card(tgt);
    }
}

/* arguments.pile_high: pile_low mirrored */
static int pile_high(const Kernel *k, int top, CardMask un) {
    int high = top - 1;
    for (;;) {
        CardMask src = (un & cards_below(high + 1)) | card_bit(top);
        CardMask tgt = (src << k->step) & un & ~cards_below(high + 1);
        if (!tgt) return high;
        high = highest_card(tgt);
    }
}

/* Kernel.reach(cards): as if only the cards of ``un`` could ever be played */
static void reach_cards(const Kernel *k, CardMask un, int *lo_out, int *hi_out) {
    int lo = INF, hi = -1;
    for (int i = 0; i < k->n_asc; i++) {
        int low = pile_low(k, k->s.tops[i], un);
        if (low < lo) lo = low;
    }
    for (int i = k->n_asc; i < k->n_piles; i++) {
        int high = pile_high(k, k->s.tops[i], un);
        if (high > hi) hi = high;
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* Kernel.reach (ExtremeKernel.reach: no tricks ever again under a
 * permanent no-trick card) */
void reach(const Kernel *k, int *lo_out, int *hi_out) {
    const State *s = &k->s;
    if (k->extreme && x_permanent_no_trick(k)) {
        int lo = INF, hi = -1;
        for (int i = 0; i < k->n_asc; i++)
            if (s->tops[i] + 1 < lo) lo = s->tops[i] + 1;
        for (int i = k->n_asc; i < k->n_piles; i++)
            if (s->tops[i] - 1 > hi) hi = s->tops[i] - 1;
        *lo_out = lo;
        *hi_out = hi;
        return;
    }
    reach_cards(k, s->unplayed, lo_out, hi_out);
}

/* ---- the turn-start loss arguments (arguments.py) ------------------------ */

/* arguments.order_pairs, as masks: ``before[y]``, for each card y of the
 * mask returned, the cards x only the same one pile can ever take that it
 * can never take once it shows y: every perfect clear lays them first */
static CardMask order_pairs(const Kernel *k, CardMask *before) {
    CardMask un = k->s.unplayed, reach[KERNEL_MAX_PILES], ys = 0;
    for (int i = 0; i < k->n_piles; i++)
        reach[i] = i < k->n_asc ? un & ~cards_below(pile_low(k, k->s.tops[i], un))
                                : un & cards_below(pile_high(k, k->s.tops[i], un) + 1);
    for (int p = 0; p < k->n_piles; p++) {
        CardMask only = reach[p];
        for (int q = 0; q < k->n_piles; q++)
            if (q != p) only &= ~reach[q];
        for (CardMask left = only; left; left &= left - 1) {
            int y = lowest_card(left);
            CardMask rest = un & ~card_bit(y), xs;
            if (p < k->n_asc)
                xs = only & cards_below(pile_low(k, y, rest));
            else
                xs = only & ~cards_below(pile_high(k, y, rest) + 1);
            before[y] = xs & ~card_bit(y);
            if (before[y]) ys |= card_bit(y);
        }
    }
    return ys;
}

/* arguments._waits: for each card y of ``ys``, how many cards are drawn
 * before it can be laid (its last x out of the draw pile) */
static void pair_waits(const Kernel *k, CardMask ys, const CardMask *before, int *wait) {
    const State *s = &k->s;
    int at[KERNEL_MAX_SIZE];
    CardMask held = 0;
    for (int p = 0; p < k->players; p++) held |= s->hands[p];
    for (int i = s->pos; i < k->total; i++) at[k->deck[i]] = i - s->pos;
    for (CardMask left = ys; left; left &= left - 1) {
        int y = lowest_card(left), w = 0;
        for (CardMask xs = before[y] & ~held; xs; xs &= xs - 1)
            if (at[lowest_card(xs)] + 1 > w) w = at[lowest_card(xs)] + 1;
        wait[y] = w;
    }
}

/* arguments.held_cards_bound, solo at a turn start with cards to draw: no
 * sequence of turns gets past the draw pile (argued there) */
static int held_cards(const Kernel *k) {
    const State *s = &k->s;
    CardMask before[KERNEL_MAX_SIZE], cards = s->hands[0];
    int wait[KERNEL_MAX_SIZE], n_draw = k->total - s->pos, hand = card_count(cards);
    CardMask ys = order_pairs(k, before);
    pair_waits(k, ys, before, wait);
    unsigned char can_start[2 * KERNEL_MAX_SIZE + 1] = {1};
    for (int st = 0; st < n_draw; st++) {
        if (st) cards |= card_bit(k->deck[s->pos + st - 1]);
        if (!can_start[st]) continue;
        int lo, hi;
        reach_cards(k, cards, &lo, &hi);
        if (lo > k->total + k->low + 1) lo = k->total + k->low + 1;
        CardMask out = hi + 1 < lo ? cards & cards_below(lo) & ~cards_below(hi + 1) : 0;
        CardMask waiting = 0;
        for (CardMask left = ys & cards; left; left &= left - 1)
            if (st < wait[lowest_card(left)]) waiting |= card_bit(lowest_card(left));
        int stuck = card_count(out | (waiting & ~out));
        for (int j = k->min_play; j <= hand - stuck; j++) {
            if (st + j >= n_draw) return 0; /* some line gets past the draw pile */
            can_start[st + j] = 1;
        }
    }
    return 1;
}

/* arguments.stuck_with_pairs: several players at a turn start, the one to
 * move or a later one of this round cannot lay the minimum, the cards
 * waiting for an order pair's other card counted as held */
static int stuck_with_pairs(const Kernel *k) {
    const State *s = &k->s;
    CardMask before[KERNEL_MAX_SIZE], seen = 0;
    CardMask ys = order_pairs(k, before);
    int left = k->total - s->pos;
    for (int i = 0; i < k->players; i++) {
        if (i) seen |= s->hands[(s->cur + i - 1) % k->players];
        if (left <= card_count(seen)) return 0; /* the minimum may drop */
        CardMask hand = s->hands[(s->cur + i) % k->players], avail = seen | hand;
        int lo, hi;
        reach_cards(k, avail, &lo, &hi);
        if (lo > k->total + k->low + 1) lo = k->total + k->low + 1;
        CardMask out = hi + 1 < lo ? cards_below(lo) & ~cards_below(hi + 1) : 0, waiting = 0;
        for (CardMask w = ys & hand; w; w &= w - 1)
            if (before[lowest_card(w)] & ~avail) waiting |= card_bit(lowest_card(w));
        if (card_count(hand & ~out & ~waiting) < k->min_play) return 1;
    }
    return 0;
}

/* arguments.turn_start_cut: held cards with order pairs (solo), or a
 * player of this round stuck with them (several players), where the draw
 * pile holds at most CUT_HORIZON cards */
static int turn_start_cut(const Kernel *k) {
    if (k->total - k->s.pos > CUT_HORIZON) return 0;
    if (k->players == 1) return k->s.pos < k->total && held_cards(k);
    return stuck_with_pairs(k);
}

/* arguments.turn_cut: the arguments above at a turn start (not for Extreme) */
int turn_cut(const Kernel *k) { return !k->extreme && k->s.t == 0 && turn_start_cut(k); }

/* Kernel.stuck_ahead: a later player of this round cannot play their
 * minimum when their turn comes (argued there; not for Extreme) */
int stuck_ahead(const Kernel *k) {
    const State *s = &k->s;
    if (k->extreme || k->players == 1) return 0;
    int left = k->total - s->pos - s->t;
    CardMask before = 0;
    for (int i = 1; i < k->players; i++) {
        before |= s->hands[(s->cur + i - 1) % k->players];
        if (left <= card_count(before)) return 0;
        CardMask hand = s->hands[(s->cur + i) % k->players];
        int lo, hi;
        reach_cards(k, before | hand, &lo, &hi);
        if (lo > k->total + k->low + 1) lo = k->total + k->low + 1;
        CardMask out = hi + 1 < lo ? cards_below(lo) & ~cards_below(hi + 1) : 0;
        if (card_count(hand & ~out) < k->min_play) return 1;
    }
    return 0;
}


CardMask dead_mask(const Kernel *k) {
    if (k->extreme) return x_dead_mask(k);
    int lo, hi;
    reach(k, &lo, &hi);
    int cap = k->total + k->low + 1;
    if (cap < lo) lo = cap;
    if (hi + 1 >= lo) return 0;
    return k->s.unplayed & cards_below(lo) & ~cards_below(hi + 1);
}

int evaluate(const Kernel *k) {
    const State *s = &k->s;
    CardMask blocked[KERNEL_MAX_PILES];
    int n = k->n_piles, score = 0;
    for (int i = 0; i < n; i++)
        blocked[i] = s->unplayed & ~k->accepted[i < k->n_asc ? 0 : 1][s->tops[i]];
    for (int i = 0; i < n; i++) {
        CardMask bi = blocked[i];
        score += card_count(bi);
        for (int j = i + 1; j < n; j++) {
            CardMask bij = bi & blocked[j];
            score += k->w2 * card_count(bij);
            for (int m = j + 1; m < n; m++) score += k->w3 * card_count(bij & blocked[m]);
        }
    }
    return score;
}
