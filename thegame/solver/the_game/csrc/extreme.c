/* ExtremeKernel (extreme/kernel.py): the moves and the bounds under the
 * command cards (rules X). The commands' rules are argued there; the turn
 * state is ``pending`` as there (kernel.h). */
#include "kernel.h"

/* ExtremeKernel._keeps (placement is the caller's) */
int x_keeps(const Kernel *k, int c, int pile, int no_trick, int one_pile) {
    const State *s = &k->s;
    int st = s->pending;
    if (st & X_STOP) return 0; /* X3a */
    int three = (st & X_THREE) || card_in(k->three, c);
    if (three && s->t >= 3) return 0; /* X3c */
    if (three && card_in(k->stop, c) && s->t != 2) return 0; /* X3c */
    if (one_pile && (st & ~X_FLAGS & ~(1 << pile))) return 0; /* X4b */
    int asc = pile < k->n_asc, top = s->tops[pile];
    return !(no_trick && c == (asc ? top - k->step : top + k->step)); /* X4a */
}

/* ExtremeKernel.moves */
int x_moves(const Kernel *k, Move *out) {
    const State *s = &k->s;
    CardMask hand = s->hands[s->cur];
    int st = s->pending, t = s->t;
    if (!hand || (st & X_STOP)) return 0; /* X3a */
    CardMask cards;
    if (st & X_THREE) {
        if (t >= 3) return 0; /* X3c */
        cards = t == 2 ? hand : hand & ~k->stop;
    } else {
        cards = t < 3 ? hand : hand & ~k->three;
    }
    CardMask shown = x_shown(k);
    int no_trick = (shown & k->no_trick) != 0;
    int piles_played = st & ~X_FLAGS, only = -1;
    if ((shown & k->one_pile) && piles_played) {
        if (piles_played & (piles_played - 1)) return 0; /* X4b */
        only = 31 - __builtin_clz((unsigned)piles_played);
    }
    int step = k->step, n_asc = k->n_asc, n = 0;
    CardMask un = s->unplayed;
    for (int i = 0; i < k->n_piles; i++) {
        if (only >= 0 && i != only) continue;
        int asc = i < n_asc, top = s->tops[i], dup = 0;
        /* equal tops branched once (the piles skipped above are not seen) */
        for (int j = 0; only < 0 && j < i; j++)
            if ((j < n_asc) == asc && s->tops[j] == top) { dup = 1; break; }
        if (dup) continue;
        int bonus = card_in(k->skull, top) ? -100 : 0; /* X3b: cover the skull */
        CardMask normal;
        int back;
        if (asc) {
            normal = cards & ~cards_below(top + 1);
            back = top - step;
        } else {
            normal = cards & cards_below(top);
            back = top + step;
        }
        CardMask h = normal;
        while (h) {
            int c = lowest_card(h);
            h &= h - 1;
            CardMask between = asc ? cards_between(top, c) : cards_between(c, top);
            out[n++] = (Move){card_count(un & between) + bonus, c, i};
        }
        if (!no_trick && back > 0 && card_in(cards, back)) out[n++] = (Move){bonus - step, back, i};
    }
    sort_moves(out, n);
    return n;
}


/* ExtremeKernel._permanent_no_trick: a no-trick card shows that no
 * unplayed card can ever cover (X4a) */
int x_permanent_no_trick(const Kernel *k) {
    const State *s = &k->s;
    CardMask un = s->unplayed;
    for (int i = 0; i < k->n_piles; i++) {
        int t = s->tops[i];
        if (!card_in(k->no_trick, t)) continue;
        CardMask above = i < k->n_asc ? un & ~cards_below(t + 1) : un & cards_below(t);
        if (!above) return 1;
    }
    return 0;
}

/* ExtremeKernel._draw_one_limit: the deck index from which no card is
 * ever drawn once a draw-one card shows for good (X4c; total: no bound) */
static int x_draw_one_limit(const Kernel *k) {
    const State *s = &k->s;
    if (s->pos >= k->total || !k->draw_one || k->min_play < 2) return k->total;
    CardMask un = s->unplayed;
    int step = k->step, stuck = 0;
    for (int i = 0; i < k->n_piles && !stuck; i++) {
        int top = s->tops[i], follows;
        if (!card_in(k->draw_one, top)) continue;
        if (i < k->n_asc)
            follows = (un & ~cards_below(top + 1)) != 0 || (top > step && card_in(un, top - step));
        else
            follows = (un & cards_below(top > 0 ? top : 0)) != 0 || card_in(un, top + step);
        stuck = !follows;
    }
    if (!stuck) return k->total;
    int draws = card_count(un & k->stop);
    for (int p = 0; p < k->players; p++) {
        int h = card_count(s->hands[p]);
        draws += (p == s->cur && s->t > 0) ? 1 + h : (h > 1 ? h - 1 : 0);
    }
    return s->pos + draws < k->total ? s->pos + draws : k->total;
}

/* ExtremeKernel.dead_mask: the classic bound, then the skulls (X3b) that
 * no pile can take or no card can follow in their turn, then the draw
 * pile's bottom under a draw-one card that shows for good */
CardMask x_dead_mask(const Kernel *k) {
    int lo, hi;
    reach(k, &lo, &hi);
    int cap = k->total + k->low + 1;
    if (cap < lo) lo = cap;
    CardMask un = k->s.unplayed, dead = 0;
    if (hi + 1 < lo) dead = un & cards_below(lo) & ~cards_below(hi + 1);
    CardMask sk = un & k->skull & ~dead;
    int step = k->step;
    while (sk) {
        int s = lowest_card(sk);
        CardMask low = card_bit(s);
        sk ^= low;
        CardMask others = un & ~low & ~dead;
        int up = s >= lo &&
                 ((others & ~cards_below(s + 1)) || (s > step && card_in(others, s - step)));
        int down = s <= hi && ((others & cards_below(s)) || card_in(others, s + step));
        if (!up && !down) dead |= low;
    }
    for (int i = x_draw_one_limit(k); i < k->total; i++) dead |= card_bit(k->deck[i]);
    return dead;
}
