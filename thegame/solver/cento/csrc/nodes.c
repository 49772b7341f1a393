/* TableSolver.expand, _has_choice, resolve, children and _init: the
 * children of a position, each past its forced turns. */
#include <string.h>

#include "ctable.h"
#include "hashtable.h"

static inline uint64_t pack(int to_move, int open_c, int pos, int obliged, int passes,
                            uint64_t immune) {
    return (uint64_t)to_move | (uint64_t)open_c << 3 | (uint64_t)pos << 10 |
           (uint64_t)obliged << 17 | (uint64_t)passes << 18 | immune << 21;
}

static int child_push(ChildVec *c, Child **x) {
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        Child *v = realloc(c->v, cap * sizeof(Child));
        if (v == NULL) return -1;
        c->v = v;
        c->cap = cap;
    }
    *x = &c->v[c->n++];
    return 0;
}

/* Rule Z1's all-pass end: the fewest cards win (a tie shares) */
static int wins(const Deal *d, const uint64_t *key) {
    int mine = 0, others = 1 << 30;
    for (int i = 0; i < d->n; i++) {
        int c = hand_cards(hand_of(key, i));
        if (i == d->k)
            mine = c;
        else if (c < others)
            others = c;
    }
    return mine < others || (mine == others && d->share);
}

/* Rule Z5: after a Trick every other player draws, in seat order, from the
 * draw position ``pos`` up to ``trick_pos`` */
static void trick_draws(const Deal *d, uint64_t *key, int mover, int pos, int trick_pos) {
    int p = pos, n = d->n;
    for (int j = 1; j < n; j++) {
        int seat = (mover + j) % n;
        int stop = p + d->trick_draw < trick_pos ? p + d->trick_draw : trick_pos;
        u128 h = hand_of(key, seat);
        u128 m = h & NUMBERS_MASK;
        int f = (int)(h >> FREE_SHIFT);
        for (; p < stop; p++) {
            if (d->draw[p] == 0)
                f++;
            else
                m |= BIT(d->draw[p]);
        }
        set_hand(key, seat, m | (u128)f << FREE_SHIFT);
    }
}

/* Up to this many turns, expand looks for an equal child by a scan; past
 * it, in a hash set (chains of rule Z3 can make thousands of turns) */
#define LINEAR_SEEN 16

/* Empty the set, with room for ``count`` children; -1: out of memory */
static int seen_reset(Search *s, size_t count) {
    if (2 * count > s->seen_cap) {
        size_t cap = 64;
        while (cap < 2 * count) cap *= 2;
        free(s->seen_at);
        free(s->seen_stamp);
        s->seen_at = malloc(cap * sizeof(uint32_t));
        s->seen_stamp = calloc(cap, sizeof(uint32_t));
        s->seen_cap = s->seen_at && s->seen_stamp ? cap : 0;
        s->seen_now = 0;
        if (!s->seen_cap) return -1;
    }
    if (++s->seen_now == 0) {
        memset(s->seen_stamp, 0, s->seen_cap * sizeof(uint32_t));
        s->seen_now = 1;
    }
    return 0;
}

/* Whether the last child of ``out`` equals an earlier one (not an end);
 * if not, it is remembered */
static int seen_before(Search *s, const ChildVec *out, int hashed) {
    size_t last = out->n - 1;
    const uint64_t *key = out->v[last].key;
    int kw = s->kw;
    if (!hashed) {
        for (size_t j = 0; j < last; j++)
            if (!out->v[j].end && words_eq(out->v[j].key, key, kw)) return 1;
        return 0;
    }
    size_t mask = s->seen_cap - 1, i = hash_words(key, kw) & mask;
    for (; s->seen_stamp[i] == s->seen_now; i = (i + 1) & mask)
        if (words_eq(out->v[s->seen_at[i]].key, key, kw)) return 1;
    s->seen_stamp[i] = s->seen_now;
    s->seen_at[i] = (uint32_t)last;
    return 0;
}

/* expand: each distinct turn's child (``end``: the game ended, ``won`` for
 * the seat asked about); a turn that decides the node alone comes back by
 * itself. */
int expand(Search *s, const uint64_t *key, ChildVec *out) {
    const Deal *d = &s->d;
    int kw = s->kw, n = d->n;
    uint64_t small = key[0];
    int mover = small & 7, open_c = small >> 3 & 127, pos = small >> 10 & 127;
    int obliged = small >> 17 & 1, passes = small >> 18 & 7;
    uint64_t immune = small >> 21;
    u128 hand = hand_of(key, mover);
    int me_imm = immune >> mover & 1, mine = mover == d->k, nxt = (mover + 1) % n;
    out->n = 0;
    if (gen_outcomes(d, &s->outs, hand & NUMBERS_MASK, (int)(hand >> FREE_SHIFT), open_c, pos,
                     obliged && !me_imm, me_imm, n - 1))
        return -1;
    int hashed = s->outs.n > LINEAR_SEEN;
    if (hashed && seen_reset(s, s->outs.n)) return -1;
    for (size_t i = 0; i < s->outs.n; i++) {
        const Outcome *o = &s->outs.v[i];
        Child *c;
        if (o->won) { /* rule Z1: the mover emptied their hand and wins alone */
            out->n = 0;
            if (child_push(out, &c)) return -1;
            c->end = 1;
            c->won = mine;
            return 0;
        }
        if (child_push(out, &c)) return -1;
        memcpy(c->key, key, kw * sizeof(uint64_t));
        set_hand(c->key, mover, o->mask | (u128)o->free << FREE_SHIFT);
        if (o->trick) trick_draws(d, c->key, mover, pos, o->trick_pos);
        int p2 = o->passed ? passes + 1 : 0;
        if (p2 >= n) { /* rule Z1: every player passed in a row */
            int won = wins(d, c->key);
            c->end = 1;
            c->won = won;
            if (won == mine) {
                Child keep = *c;
                out->v[0] = keep;
                out->n = 1;
                return 0;
            }
            continue;
        }
        uint64_t imm2 = immune | (uint64_t)o->immune << mover;
        c->key[0] = pack(nxt, o->open, o->pos, o->obliged, p2, imm2);
        c->end = 0;
        c->won = 0;
        if (seen_before(s, out, hashed)) out->n--; /* the first of equal children is kept */
    }
    return 0;
}

/* The position after outcome ``o`` of the mover of ``key``, as expand
 * makes it (without its checks for equal children): 0 with ``child`` set,
 * 1 when the turn ended the game (``won`` for the seat asked about). */
int child_of(const Deal *d, int kw, const uint64_t *key, const Outcome *o, uint64_t *child,
             int *won) {
    uint64_t small = key[0];
    int n = d->n, mover = small & 7, pos = small >> 10 & 127, passes = small >> 18 & 7;
    if (o->won) {
        *won = mover == d->k;
        return 1;
    }
    memcpy(child, key, kw * sizeof(uint64_t));
    set_hand(child, mover, o->mask | (u128)o->free << FREE_SHIFT);
    if (o->trick) trick_draws(d, child, mover, pos, o->trick_pos);
    int p2 = o->passed ? passes + 1 : 0;
    if (p2 >= n) {
        *won = wins(d, child);
        return 1;
    }
    uint64_t imm2 = small >> 21 | (uint64_t)o->immune << mover;
    child[0] = pack((mover + 1) % n, o->open, o->pos, o->obliged, p2, imm2);
    return 0;
}

/* _has_choice: 1 when the mover surely has more than one turn and cannot
 * empty their hand this turn; 0 when the turns must be made to tell */
int has_choice(const Deal *d, const uint64_t *key) {
    uint64_t small = key[0];
    int mover = small & 7;
    u128 hand = hand_of(key, mover);
    u128 mask = hand & NUMBERS_MASK;
    int free = (int)(hand >> FREE_SHIFT);
    if (((mask & BIT100) && d->special) || card_count(mask) + free <= 1) return 0;
    for (int dg = 0; dg < 10; dg++)
        if (!(mask & ~d->chain_cards[dg])) return 0;
    if ((small >> 17 & 1) && !(small >> (21 + mover) & 1)) return (mask & d->singles) || free;
    int open_c = small >> 3 & 127;
    u128 fitting = mask & d->fit[open_c];
    if (fitting || free) return free || (fitting & (fitting - 1));
    int pos = small >> 10 & 127;
    if (pos < d->ndraw) {
        int x = d->draw[pos];
        return x == 0 || (int)(d->fit[open_c] >> x & 1);
    }
    return 0;
}

void init_numbers(const Search *s, const uint64_t *key, int64_t *pn, int64_t *dn) {
    int64_t mine = 0, other = INF;
    for (int i = 0; i < s->d.n; i++) {
        int64_t c = hand_cards(hand_of(key, i));
        if (i == s->d.k)
            mine = c;
        else if (c < other)
            other = c;
    }
    *pn = 1 + mine / 2;
    *dn = 1 + other / 2;
}

/* resolve: follow forced turns from c->key; c becomes the first position
 * with a choice, or the game's end (numbers 0/INF), with the turns followed
 * in c->steps */
static int resolve(Search *s, Child *c) {
    int steps = 0;
    for (;;) {
        if (has_choice(&s->d, c->key)) break;
        if (expand(s, c->key, &s->scratch)) return -1;
        if (s->scratch.n != 1) break;
        const Child *only = &s->scratch.v[0];
        steps++;
        if (only->end) {
            c->end = 1;
            c->won = only->won;
            c->pn = only->won ? 0 : INF;
            c->dn = only->won ? INF : 0;
            c->steps = steps;
            return 0;
        }
        memcpy(c->key, only->key, s->kw * sizeof(uint64_t));
    }
    c->pn = c->dn = 0;
    c->steps = steps;
    return 0;
}

/* children: the node's children with the numbers an unseen child starts
 * from (a decided end: 0 or INF), each past its forced turns */
int children(Search *s, const uint64_t *key, ChildVec *out) {
    if (expand(s, key, out)) return -1;
    for (size_t i = 0; i < out->n; i++) {
        Child *c = &out->v[i];
        if (c->end) {
            c->pn = c->won ? 0 : INF;
            c->dn = c->won ? INF : 0;
            c->steps = 1;
            continue;
        }
        if (resolve(s, c)) return -1;
        if (!c->end) {
            init_numbers(s, c->key, &c->pn, &c->dn);
            if (s->losses != NULL) {
                const int64_t *w = pt_get(s->losses, c->key);
                if (w != NULL && w[0] >= INF) {
                    c->pn = w[0];
                    c->dn = w[1];
                }
            }
        }
        c->steps++;
    }
    return 0;
}
