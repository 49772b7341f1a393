/* Playouts for the seat engine (analysis/cento/sampler.py): in one sampled
 * world (a deal of the cards the seat cannot see), each candidate turn of
 * the seat is played and the game finished by greedy play. The greedy
 * turn leaves its mover the fewest cards, then the most cards that fit the
 * new open card, ties at random (engine.greedy_policy). */
#include <limits.h>
#include <string.h>

#include "ctable.h"
#include "splitmix.h"

/* Lower is greedier: cards left, then the most cards that fit ``open_c`` */
static int rank_of(const Deal *d, u128 hand, int open_c) {
    u128 m = hand & NUMBERS_MASK;
    int f = (int)(hand >> FREE_SHIFT);
    return (card_count(m) + f) * 256 - (card_count(m & d->fit[open_c]) + f);
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

/* Two hands' cards together (the free cards counted above FREE_SHIFT) */
static u128 hand_add(u128 a, u128 b) {
    return ((a | b) & NUMBERS_MASK) | ((a >> FREE_SHIFT) + (b >> FREE_SHIFT)) << FREE_SHIFT;
}

/* Deal one world: the unseen cards shuffled, the other hands' slots
 * (``slots``: per seat, its masks of excluded cards; bit 0 a free card)
 * filled the most constrained first, whatever its seat, each with the first
 * card left that it allows (any card when none does), the rest the pile
 * after ``head``; then ``key`` is the world's position (draw position 0)
 * and the search's pile is the world's. */
static void deal_world(Search *s, const struct World *w, uint64_t *rng, uint64_t *key) {
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
        hands[owner[order[k]]] = hand_add(hands[owner[order[k]]],
                                          cards[pick] ? BIT(cards[pick]) : (u128)1 << FREE_SHIFT);
    }
    key[0] = w->small & ~((uint64_t)127 << 10);
    for (int i = 0; i < d->n; i++) set_hand(key, i, i == d->k ? w->own : hands[i]);
    int p = 0;
    for (int j = 0; j < w->nhead; j++) d->draw[p++] = (uint8_t)w->head[j];
    for (int c = 0; c < w->nunseen; c++)
        if (!used[c]) d->draw[p++] = (uint8_t)cards[c];
    d->ndraw = p;
}

int sample_worlds(Search *s, const struct World *w, const struct Candidate *cands, int ncands,
                  int count, uint64_t *rng, long long *wins, long long *seen) {
    ChildVec vec = {NULL, 0, 0};
    int *one = malloc((ncands ? ncands : 1) * sizeof(int));
    if (one == NULL) return -1;
    uint64_t key[KW_MAX];
    for (int r = 0; r < count; r++) {
        deal_world(s, w, rng, key);
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
