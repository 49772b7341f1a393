/* moves.TurnGen.outcomes: every distinct outcome of one Cento turn, in the
 * Python generator's order (rules Z1-Z5). */
#include "ctable.h"

/* What the outcomes of one turn share once its Trick and draws are known
 * (moves._Turn; ``drew`` is only for the record) */
typedef struct {
    int trick, trick_pos, immune, pos;
} Turn;

static int push(OutVec *o, const Turn *t, u128 mask, int free, int open, int obliged, int won,
                int passed) {
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 64;
        Outcome *v = realloc(o->v, cap * sizeof(Outcome));
        if (v == NULL) return -1;
        o->v = v;
        o->cap = cap;
    }
    Outcome *x = &o->v[o->n++];
    x->mask = mask;
    x->free = free;
    x->open = open;
    x->pos = t->pos;
    x->immune = t->immune;
    x->trick_pos = t->trick_pos;
    x->trick = t->trick;
    x->obliged = obliged;
    x->won = won;
    x->passed = passed;
    return 0;
}

static u128 add_card(u128 mask, int *free, int c) {
    if (c == 0)
        (*free)++;
    else
        mask |= BIT(c);
    return mask;
}

/* _chain_ends: one chain, once per class of its last card */
static int chain_ends(const Deal *d, OutVec *o, const Turn *t, u128 mask, int free, int dg,
                      u128 cards, int f) {
    int won = mask == 0 && free == 0;
    uint8_t seen[101] = {0};
    int any = 0;
    for (u128 c = cards; c; c &= c - 1) {
        int last = lowest_card(c);
        int key = d->canon[last];
        if (seen[key]) continue;
        seen[key] = 1;
        any = 1;
        if (push(o, t, mask, free, key, d->single[last], won, 0)) return -1;
        if (won) break;
    }
    if (f && !(won && any)) {
        for (int i = 0; i < d->nchain_names[dg]; i++) {
            int name = d->chain_names[dg][i];
            int key = d->canon[name];
            if (seen[key]) continue;
            seen[key] = 1;
            if (push(o, t, mask, free, key, d->single[name], won, 0)) return -1;
            if (won) break;
        }
    }
    return 0;
}

/* _chain: after the repdigit, any subset of the cards with digit ``dg`` and
 * any number of free cards; the subsets in the order cand, then (s-1)&cand
 * down to the empty one */
static int chain(const Deal *d, OutVec *o, const Turn *t, u128 mask, int free, int dg, int value) {
    u128 cand = mask & d->chain_cards[dg];
    u128 sub = cand;
    for (;;) {
        u128 m2 = mask ^ sub;
        for (int f = 0; f <= free; f++) {
            int f2 = free - f;
            if (sub == 0 && f == 0) {
                if (push(o, t, m2, f2, d->canon[value], 0, m2 == 0 && f2 == 0, 0)) return -1;
            } else if (chain_ends(d, o, t, m2, f2, dg, sub, f)) {
                return -1;
            }
        }
        if (d->chain_all || sub == 0) break;
        sub = (sub - 1) & cand;
    }
    return 0;
}

/* _plays: every first card that fits (only ``only``, the card just drawn,
 * when only >= 0) */
static int plays(const Deal *d, OutVec *o, const Turn *t, u128 mask, int free, int open_c,
                 int only) {
    int cards[256], values[256], nf = 0;
    if (only < 0 || only != 0) {
        u128 fitting = mask & d->fit[open_c];
        if (only >= 0) fitting &= BIT(only);
        for (; fitting; fitting &= fitting - 1) {
            int c = lowest_card(fitting);
            cards[nf] = c;
            values[nf++] = c;
        }
    }
    if (free && (only < 0 || only == 0)) {
        for (int i = 0; i < d->nnames[open_c]; i++) {
            cards[nf] = 0;
            values[nf++] = d->names[open_c][i];
        }
    }
    for (int i = 0; i < nf; i++) {
        int card = cards[i], value = values[i];
        u128 m1 = card ? mask ^ BIT(card) : mask;
        int f1 = card ? free : free - 1;
        int dg = d->repdigit[value];
        int r;
        if (m1 == 0 && f1 == 0)
            r = push(o, t, 0, 0, d->canon[value], 0, 1, 0);
        else if (dg == NO_DIGIT)
            r = push(o, t, m1, f1, d->canon[value], d->single[value], 0, 0);
        else
            r = chain(d, o, t, m1, f1, dg, value);
        if (r) return -1;
    }
    return 0;
}

/* _bound: rule Z2, a single-digit card or the penalty */
static int bound_turn(const Deal *d, OutVec *o, const Turn *t, u128 mask, int free, int open_c) {
    for (u128 s = mask & d->singles; s; s &= s - 1) {
        int c = lowest_card(s);
        u128 m = mask ^ BIT(c);
        if (push(o, t, m, free, c, 1, m == 0 && free == 0, 0)) return -1;
    }
    if (free) {
        for (int v = 1; v < 10; v++)
            if (push(o, t, mask, free - 1, v, 1, mask == 0 && free == 1, 0)) return -1;
    }
    int k = d->ndraw - t->pos;
    if (d->penalty < k) k = d->penalty;
    if (k < 0) k = 0; /* the Python slice past the pile's end is empty */
    u128 m = mask;
    int f = free;
    for (int i = 0; i < k; i++) m = add_card(m, &f, d->draw[t->pos + i]);
    Turn after = *t;
    after.pos += k;
    return push(o, &after, m, f, open_c, 0, 0, 0);
}

/* _rest: the turn after its optional Trick */
static int rest(const Deal *d, OutVec *o, const Turn *t, u128 mask, int free, int open_c,
                int bound) {
    if (bound) return bound_turn(d, o, t, mask, free, open_c);
    if (!t->trick && d->special && (mask & BIT100)) { /* rule Z5 Treat */
        u128 m = mask & ~BIT100;
        Turn treat = {0, t->trick_pos, 1, t->pos};
        if (push(o, &treat, m, free, open_c, 0, m == 0 && free == 0, 0)) return -1;
    }
    if ((mask & d->fit[open_c]) || free) return plays(d, o, t, mask, free, open_c, -1);
    if (t->pos < d->ndraw) { /* rule Z1: draw one, play it if it fits */
        int x = d->draw[t->pos];
        int f = free;
        u128 m = add_card(mask, &f, x);
        Turn drawn = *t;
        drawn.pos += 1;
        if (push(o, &drawn, m, f, open_c, 0, 0, 0)) return -1;
        return plays(d, o, &drawn, m, f, open_c, x);
    }
    return push(o, t, mask, free, open_c, 0, 0, 1); /* nothing fits, nothing to draw */
}

int gen_outcomes(const Deal *d, OutVec *o, u128 mask, int free, int open_c, int pos, int bound,
                 int immune, int others) {
    o->n = 0;
    Turn t = {0, pos, immune, pos};
    if (rest(d, o, &t, mask, free, open_c, bound)) return -1;
    if (d->special && (mask & BIT100)) {
        u128 m = mask & ~BIT100;
        int tp = pos + d->trick_draw * others;
        if (tp > d->ndraw) tp = d->ndraw;
        Turn trick = {1, tp, immune, tp};
        if (m == 0 && free == 0) return push(o, &trick, 0, 0, open_c, 0, 1, 0);
        return rest(d, o, &trick, m, free, open_c, bound);
    }
    return 0;
}
