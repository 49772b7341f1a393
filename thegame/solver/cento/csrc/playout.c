/* Playouts for the seat engine (analysis/cento/sampler.py): in one sampled
 * world (a deal of the cards the seat cannot see), each candidate turn of
 * the seat is played and the game finished by greedy play. The greedy
 * turn leaves its mover the fewest cards, then the most cards that fit the
 * new open card, ties at random (engine.greedy_policy). */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "ctable.h"
#include "splitmix.h"

/* Lower is greedier: cards left, then the most cards that fit ``open_c`` */
static int rank_of(const Deal *d, u128 hand, int open_c) {
    u128 m = hand & NUMBERS_MASK;
    int f = (int)(hand >> FREE_SHIFT);
    return (card_count(m) + f) * 256 - (card_count(m & d->fit[open_c]) + f);
}

/* Two hands' cards together (the free cards counted above FREE_SHIFT) */
static u128 hand_add(u128 a, u128 b) {
    return ((a | b) & NUMBERS_MASK) | ((a >> FREE_SHIFT) + (b >> FREE_SHIFT)) << FREE_SHIFT;
}

/* The greedy child of ``vec`` for ``mover`` (ties at random) */
static size_t greedy_pick(const Deal *d, const ChildVec *vec, int mover, int open_c, uint64_t *rng) {
    size_t pick = 0;
    int best = INT_MAX, ties = 0;
    for (size_t i = 0; i < vec->n; i++) {
        const Child *c = &vec->v[i];
        int r = rank_of(d, hand_of(c->key, mover), c->end ? open_c : (int)(c->key[0] >> 3 & 127));
        if (r < best) {
            best = r;
            pick = i;
            ties = 1;
        } else if (r == best && sm_below(rng, ++ties) == 0) {
            pick = i; /* each of the equal turns with the same chance */
        }
    }
    return pick;
}

/* The seat's turn in a playout by a look ahead: each child finished by
 * ``s->nest_rollouts`` greedy playouts in this world, the most wins taken
 * (the greedy turn first among equals); -1 when out of memory */
static long lookahead(Search *s, const ChildVec *vec, int open_c, uint64_t *rng) {
    ChildVec inner = {NULL, 0, 0};
    int mover = s->d.k;
    size_t pick = greedy_pick(&s->d, vec, mover, open_c, rng);
    int best = -1;
    for (size_t i = 0; i < vec->n && best < s->nest_rollouts; i++) {
        const Child *c = &vec->v[i];
        int wins = 0;
        for (int r = 0; r < s->nest_rollouts; r++) {
            int won = c->won;
            if (!c->end && playout(s, c->key, rng, &inner, &won, 0)) {
                free(inner.v);
                return -1;
            }
            wins += won;
        }
        if (wins > best || (wins == best && i == pick)) {
            best = wins;
            pick = i;
        }
    }
    free(inner.v);
    return (long)pick;
}

/* Play from ``start`` to the end, greedily but for the seat's next
 * ``nests`` turns (``lookahead``): ``won`` for the seat asked about */
int playout(Search *s, const uint64_t *start, uint64_t *rng, ChildVec *vec, int *won, int nests) {
    const Deal *d = &s->d;
    uint64_t key[KW_MAX];
    memcpy(key, start, s->kw * sizeof(uint64_t));
    for (;;) { /* every turn plays or draws a card, or is a pass of the all-pass end */
        if (expand(s, key, vec)) return -1;
        int mover = key[0] & 7, open_c = key[0] >> 3 & 127;
        size_t pick = 0;
        if (vec->n > 1 && mover == d->k && nests > 0) {
            nests--;
            long got = lookahead(s, vec, open_c, rng);
            if (got < 0) return -1;
            pick = (size_t)got;
        } else if (vec->n > 1) {
            pick = greedy_pick(d, vec, mover, open_c, rng);
        }
        const Child *c = &vec->v[pick];
        if (c->end) {
            *won = c->won;
            return 0;
        }
        memcpy(key, c->key, s->kw * sizeof(uint64_t));
    }
}

int sample_world(Search *s, const uint64_t *key, const struct Candidate *cands, int ncands,
                 uint64_t *rng, ChildVec *vec, int *values) {
    const Deal *d = &s->d;
    uint64_t small = key[0];
    int mover = small & 7, open_c = small >> 3 & 127, pos = small >> 10 & 127;
    int obliged = small >> 17 & 1, me_imm = small >> (21 + mover) & 1;
    u128 hand = hand_of(key, mover);
    if (gen_outcomes(d, &s->outs, hand & NUMBERS_MASK, (int)(hand >> FREE_SHIFT), open_c, pos,
                     obliged && !me_imm, me_imm, d->n - 1))
        return -1;
    size_t no = s->outs.n;
    Outcome *outs = malloc((no ? no : 1) * sizeof(Outcome)); /* the playouts reuse s->outs */
    if (outs == NULL) return -1;
    memcpy(outs, s->outs.v, no * sizeof(Outcome));
    for (int j = 0; j < ncands; j++) {
        const struct Candidate *c = &cands[j];
        int pick = -1, best = INT_MAX, ties = 0;
        for (size_t i = 0; i < no; i++) {
            const Outcome *o = &outs[i];
            int drew = o->pos > (o->trick ? o->trick_pos : pos);
            if (drew != (c->drew != 0) || o->trick != c->trick || o->immune != c->immune) continue;
            if (c->drew != 1) { /* the turn in full (its drawn card seen, if any) */
                if (o->mask == c->mask && o->free == c->free && o->open == c->open &&
                    o->obliged == c->obliged) {
                    pick = (int)i;
                    break;
                }
                continue;
            }
            /* a draw: the seat uses the card it sees as greedy play would */
            int r = o->won ? INT_MIN : rank_of(d, o->mask | (u128)o->free << FREE_SHIFT, o->open);
            if (r < best) {
                best = r;
                pick = (int)i;
                ties = 1;
            } else if (r == best && sm_below(rng, ++ties) == 0) {
                pick = (int)i;
            }
        }
        if (pick < 0) {
            values[j] = -1; /* not a turn of this world */
            continue;
        }
        uint64_t child[KW_MAX];
        int won;
        if (!child_of(d, s->kw, key, &outs[pick], child, &won) &&
            playout(s, child, rng, vec, &won, s->nest_turns)) {
            free(outs);
            return -1;
        }
        values[j] = won;
    }
    free(outs);
    return 0;
}

/* Deal one world: the unseen cards shuffled, the other hands' slots
 * (``slots``: per seat, its masks of excluded cards; bit 0 a free card)
 * filled the most constrained first, whatever its seat, each with the first
 * card left that it allows (any card when none does), the rest the pile
 * after ``head``; then ``key`` is the world's position (draw position 0)
 * and the search's pile is the world's. */
static void deal_world(Search *s, struct World *w, uint64_t *rng, uint64_t *key) {
    Deal *d = &s->d;
    int cards[128], used[128] = {0}, order[128], owner[128], weight[128], nall = 0;
    u128 hands[MAX_SEATS] = {0};
    memcpy(cards, w->unseen, w->nunseen * sizeof(int));
    sm_shuffle(rng, cards, w->nunseen);
    for (int i = 0, at = 0; i < d->n; at += w->nslots[i++])
        for (int j = 0; j < w->nslots[i]; j++, nall++) {
            owner[at + j] = i;
            weight[at + j] = card_count(w->slots[at + j]);
            int x = nall; /* insertion by weight, the heaviest first (ties in seat order) */
            while (x > 0 && weight[order[x - 1]] < weight[at + j]) {
                order[x] = order[x - 1];
                x--;
            }
            order[x] = at + j;
        }
    for (int k = 0; k < nall; k++) {
        u128 out = w->slots[order[k]];
        int pick = -1;
        for (int c = 0; c < w->nunseen; c++) {
            if (used[c]) continue;
            if (pick < 0) pick = c;
            if (!(out >> cards[c] & 1)) {
                pick = c;
                break;
            }
        }
        used[pick] = 1;
        w->slot_card[order[k]] = cards[pick];
        w->slot_owner[order[k]] = owner[order[k]];
        hands[owner[order[k]]] = hand_add(hands[owner[order[k]]],
                                          cards[pick] ? BIT(cards[pick]) : (u128)1 << FREE_SHIFT);
    }
    w->nall = nall;
    key[0] = w->small & ~((uint64_t)127 << 10);
    for (int i = 0; i < d->n; i++) set_hand(key, i, i == d->k ? w->own : hands[i]);
    int p = 0;
    for (int j = 0; j < w->nhead; j++) d->draw[p++] = (uint8_t)w->head[j];
    for (int c = 0; c < w->nunseen; c++)
        if (!used[c]) d->draw[p++] = (uint8_t)cards[c];
    d->ndraw = p;
}

/* Whether an outcome before ``o`` in ``v`` leaves the same hand and open card */
static int same_before(const OutVec *v, size_t j, const Outcome *o) {
    for (size_t i = 0; i < j; i++) {
        const Outcome *x = &v->v[i];
        if (x->mask == o->mask && x->free == o->free && x->open == o->open) return 1;
    }
    return 0;
}

/* The checks of ``w`` of the seats in ``seats`` (bits) a world ``key``
 * fails, added per seat to ``per``: a turn an other player took that is
 * not its greedy turn with the hand the world gives it; and per seat to
 * ``logw`` the log of the chance greedy play took the turns it passes;
 * -1 when out of memory */
static int world_fails(Search *s, const struct World *w, const uint64_t *key, int seats, int *per,
                       double *logw) {
    const Deal *d = &s->d;
    int fails = 0;
    for (int i = 0; i < w->nchecks; i++) {
        const struct Check *c = &w->checks[i];
        if (!(seats >> c->seat & 1)) continue;
        u128 hand = hand_of(key, c->seat);
        for (u128 m = c->skip; m; m &= m - 1) { /* the cards drawn since the turn */
            int card = w->slot_card[lowest_card(m)];
            hand = card ? hand & ~BIT(card) : hand - ((u128)1 << FREE_SHIFT);
        }
        u128 before = hand_add(hand, c->back);
        int imm = c->small >> (21 + c->seat) & 1, obliged = c->small >> 17 & 1;
        /* the pile at 0: the turn laid a card, so it drew none */
        if (gen_outcomes(d, &s->outs, before & NUMBERS_MASK, (int)(before >> FREE_SHIFT),
                         c->small >> 3 & 127, 0, obliged && !imm, imm, d->n - 1))
            return -1;
        int best = INT_MAX, ties = 0;
        for (size_t j = 0; j < s->outs.n; j++) {
            const Outcome *o = &s->outs.v[j];
            /* a turn that drew (after a Trick) depends on a card of the pile
             * the world does not hold: left out, the check only weaker */
            if (o->pos > (o->trick ? o->trick_pos : 0)) continue;
            int r = o->won ? INT_MIN : rank_of(d, o->mask | (u128)o->free << FREE_SHIFT, o->open);
            if (r < best) {
                best = r;
                ties = 0;
            }
            if (r == best && !same_before(&s->outs, j, o)) ties++;
        }
        int bad = rank_of(d, hand_add(hand, c->after), c->open) > best;
        fails += bad;
        per[c->seat] += bad;
        /* greedy play takes each of its equal turns with the same chance:
         * the turn seen is 1 in ``ties`` in this world */
        if (!bad && ties > 1) logw[c->seat] -= log((double)ties);
    }
    return fails;
}

/* A world that passes every check of ``w`` if one is found in ``w->tries``
 * deals, else the one that fails the fewest; its fails per seat in ``per``;
 * -1 when out of memory */
static int consistent_world(Search *s, struct World *w, uint64_t *rng, uint64_t *key, int *per,
                            double *logw) {
    Deal *d = &s->d;
    uint64_t best[KW_MAX];
    uint8_t pile[128];
    int cards[128], owners[128], fails_at[MAX_SEATS];
    double logw_at[MAX_SEATS];
    int least = INT_MAX, npile = 0;
    for (int t = 0; t < (w->tries > 0 ? w->tries : 1); t++) {
        deal_world(s, w, rng, key);
        s->dealt++;
        int one[MAX_SEATS] = {0};
        double lw[MAX_SEATS] = {0};
        int fails = world_fails(s, w, key, -1, one, lw);
        if (fails < 0) return -1;
        if (fails < least) {
            least = fails;
            memcpy(best, key, s->kw * sizeof(uint64_t));
            memcpy(pile, d->draw, d->ndraw);
            memcpy(cards, w->slot_card, w->nall * sizeof(int));
            memcpy(owners, w->slot_owner, w->nall * sizeof(int));
            memcpy(fails_at, one, sizeof fails_at);
            memcpy(logw_at, lw, sizeof logw_at);
            npile = d->ndraw;
        }
        if (fails == 0) break;
    }
    memcpy(key, best, s->kw * sizeof(uint64_t));
    memcpy(d->draw, pile, npile);
    memcpy(w->slot_card, cards, w->nall * sizeof(int));
    memcpy(w->slot_owner, owners, w->nall * sizeof(int));
    memcpy(per, fails_at, sizeof fails_at);
    memcpy(logw, logw_at, sizeof logw_at);
    d->ndraw = npile;
    return least;
}

static u128 one_card(int c) { return c ? BIT(c) : (u128)1 << FREE_SHIFT; }

/* Seat ``i``'s hand in ``key`` with card ``out`` swapped for ``in`` */
static void swap_in(uint64_t *key, int i, int out, int in) {
    u128 h = hand_of(key, i);
    h = out ? h & ~BIT(out) : h - ((u128)1 << FREE_SHIFT);
    set_hand(key, i, hand_add(h, one_card(in)));
}

/* One swap of the card of a random slot with a random other unseen card
 * (another slot's or the pile's), kept when the world then fails no more
 * checks than ``*fails`` and every slot allows its card; -1 when out of
 * memory */
static int swap_step(Search *s, struct World *w, uint64_t *rng, uint64_t *key, int *per,
                     double *logw, int *fails) {
    Deal *d = &s->d;
    int npile = d->ndraw - w->nhead;
    int a = sm_below(rng, w->nall), b = sm_below(rng, w->nall + npile);
    int ca = w->slot_card[a], cb;
    uint8_t *at_pile = NULL;
    if (b < w->nall) {
        cb = w->slot_card[b];
        if (b == a || (w->slots[b] >> ca & 1)) return 0;
    } else {
        at_pile = &d->draw[w->nhead + b - w->nall];
        cb = *at_pile;
    }
    if (ca == cb || (w->slots[a] >> cb & 1)) return 0;
    int oa = w->slot_owner[a], ob = at_pile ? -1 : w->slot_owner[b];
    int seats = 1 << oa | (ob >= 0 ? 1 << ob : 0);
    int before = 0, now[MAX_SEATS] = {0};
    double was = 0, lw[MAX_SEATS] = {0}, is = 0;
    for (int i = 0; i < d->n; i++)
        if (seats >> i & 1) {
            before += per[i];
            was += logw[i];
        }
    swap_in(key, oa, ca, cb);
    if (at_pile) {
        *at_pile = (uint8_t)ca;
    } else {
        swap_in(key, ob, cb, ca);
        w->slot_card[b] = ca;
    }
    w->slot_card[a] = cb;
    int after = world_fails(s, w, key, seats, now, lw);
    if (after < 0) return -1;
    for (int i = 0; i < d->n; i++)
        if (seats >> i & 1) is += lw[i];
    /* fewer fails, or as many and kept by the chance of the turns seen
     * (Metropolis: the worlds in proportion to that chance) */
    if (after < before ||
        (after == before &&
         (is >= was || (double)(sm_next(rng) >> 11) * 0x1.0p-53 < exp(is - was)))) {
        *fails += after - before;
        for (int i = 0; i < d->n; i++)
            if (seats >> i & 1) {
                per[i] = now[i];
                logw[i] = lw[i];
            }
        return 0;
    }
    swap_in(key, oa, cb, ca); /* undone */
    if (at_pile) {
        *at_pile = (uint8_t)cb;
    } else {
        swap_in(key, ob, ca, cb);
        w->slot_card[b] = cb;
    }
    w->slot_card[a] = ca;
    return 0;
}

/* The next world of the chain: ``steps`` swaps, then the pile after its
 * head shuffled (nothing seen tells its order); -1 when out of memory */
static int next_world(Search *s, struct World *w, uint64_t *rng, uint64_t *key, int *per,
                      double *logw, int *fails) {
    Deal *d = &s->d;
    for (int t = 0; w->nall > 0 && t < w->steps; t++)
        if (swap_step(s, w, rng, key, per, logw, fails)) return -1;
    for (int i = d->ndraw - 1; i > w->nhead; i--) {
        int j = w->nhead + sm_below(rng, i - w->nhead + 1);
        uint8_t x = d->draw[i];
        d->draw[i] = d->draw[j];
        d->draw[j] = x;
    }
    return 0;
}

/* The world ``r`` of a call: dealt afresh (the first, or every one without
 * steps) or the chain's next; -1 when out of memory */
static int world_at(Search *s, struct World *w, int r, uint64_t *rng, uint64_t *key, int *per,
                    double *logw, int *fails) {
    s->worlds++;
    if (r == 0 || w->steps == 0) {
        *fails = consistent_world(s, w, rng, key, per, logw);
        if (*fails < 0) return -1;
    } else if (next_world(s, w, rng, key, per, logw, fails)) {
        return -1;
    }
    s->consistent += *fails == 0;
    return 0;
}

int sample_worlds(Search *s, struct World *w, const struct Candidate *cands, int ncands,
                  int count, uint64_t *rng, long long *wins, long long *seen) {
    ChildVec vec = {NULL, 0, 0};
    int *one = malloc((ncands ? ncands : 1) * sizeof(int));
    if (one == NULL) return -1;
    uint64_t key[KW_MAX];
    int per[MAX_SEATS], fails;
    double logw[MAX_SEATS];
    for (int r = 0; r < count; r++) {
        if (world_at(s, w, r, rng, key, per, logw, &fails)) {
            free(one);
            free(vec.v);
            return -1;
        }
        if (sample_world(s, key, cands, ncands, rng, &vec, one)) {
            free(one);
            free(vec.v);
            return -1;
        }
        for (int j = 0; j < ncands; j++) {
            if (one[j] < 0) continue;
            wins[j] += one[j];
            seen[j]++;
        }
    }
    free(one);
    free(vec.v);
    return 0;
}
