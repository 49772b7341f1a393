/* The duel search's node expansion (Face to Face, rules D1-D7), compiled.
 *
 * A second implementation of what duel/search.py's DuelSearch._expand asks
 * of duel/position.py at every node, and it must answer exactly as they do
 * (tests/the_game/duel/test_cduel.py compares the two position by position and whole
 * searches node for node):
 *
 *   - DuelGame.turns: every distinct result of a whole turn, in the same
 *     order (cards lowest first; own ascending, own descending, then the
 *     opponent's ascending and descending pile; the same `seen` merging);
 *   - DuelGame._after: the D5 draw after the turn;
 *   - search.undominated: the turns no other turn dominates
 *     (placement.takes_all_of on the four tops);
 *   - DuelGame.has_turn of each kept result (the opponent's D6 check);
 *   - DuelSearch.score, the ordering score.
 *
 * Glossary: a card set is a 64-bit mask (bit c = card c, so cards are at
 * most 63; duel/ccore.py sends larger generalised duels to Python). A
 * position is DuelPos: both hands h[2], both draw-pile positions at[2], the tops
 * a[q] (ascending) and d[q] (descending) of player q, and cur, the player
 * to move; Python's Pos tuple is (h0, h1, at0, at1, a0, d0, a1, d1, cur).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "hashtable.h"
#include "pns.h" /* the compiled df-pn (csrc/pns.c), added to this module */

#define MAX_CARD 63 /* a card set is a CardMask64 */
#define MAX_DECK 64

/* A position: Python's Pos */
typedef struct {
    CardMask64 h[2];
    int at[2], a[2], d[2], cur;
} DuelPos;

typedef struct {
    PyObject_HEAD
    uint8_t deck[2][MAX_DECK];
    int deck_len[2];
    int hand_size, min_play, min_play_empty, step, draw_own;
    CardMask64 rest[2][MAX_DECK + 1]; /* rest[q][k]: the cards of deck q from k on */
} Game;

/* The placement tests (C5/D3 on one's own piles, D4 on the opponent's) are
 * cards.h's: pile_accepts, pile_improves, takes_all_of. */

/* ---- DuelGame.turns ------------------------------------------------------ */

/* A `seen` key (hashtable.h's KeySet): the hand, then two words of two
 * pile values each */
static inline SetKey seen_key(CardMask64 hand, int a, int d, int oa, int od) {
    SetKey k = {{hand, (uint64_t)(uint32_t)a << 32 | (uint32_t)d,
                 (uint64_t)(uint32_t)oa << 32 | (uint32_t)od}};
    return k;
}

typedef struct {
    DuelPos after;
    int won; /* D6: all cards played, won at once (no position after) */
    int score;
    uint8_t plays_c[MAX_DECK], plays_pile[MAX_DECK];
    int n_plays;
} Result;

typedef struct {
    const Game *g;
    const DuelPos *pos;
    int p, o, m, empty, dumped0, step;
    KeySet seen;
    Result *out;
    size_t n_out, cap_out;
    uint8_t path_c[MAX_DECK], path_pile[MAX_DECK];
    int depth;
    int stop_at_first; /* has_turn: any result will do */
    int oom;
} Turns;

/* DuelGame._after: the D5 draw, then the opponent moves. */
static void after_turn(const Game *g, const DuelPos *pos, int p, CardMask64 hand, int a, int d,
                       int oa, int od, int dumped, DuelPos *out) {
    int want = dumped ? g->hand_size - card_count64(hand) : g->draw_own;
    const int at = pos->at[p];
    int take = g->deck_len[p] - at;
    if (want < take) take = want;
    if (take < 0) take = 0;
    for (int k = 0; k < take; k++) hand |= (CardMask64)1 << g->deck[p][at + k];
    *out = *pos;
    out->h[p] = hand;
    out->at[p] = at + take;
    out->a[p] = a;
    out->d[p] = d;
    out->a[1 - p] = oa;
    out->d[1 - p] = od;
    out->cur = 1 - p;
}

static int push_result(Turns *T, CardMask64 hand, int a, int d, int oa, int od, int dumped,
                       int won) {
    if (T->n_out == T->cap_out) {
        size_t cap = T->cap_out ? T->cap_out * 2 : 64;
        Result *r = realloc(T->out, cap * sizeof(Result));
        if (!r) return 0;
        T->out = r;
        T->cap_out = cap;
    }
    Result *r = &T->out[T->n_out++];
    r->won = won;
    r->score = 0;
    r->n_plays = T->depth;
    memcpy(r->plays_c, T->path_c, (size_t)T->depth);
    memcpy(r->plays_pile, T->path_pile, (size_t)T->depth);
    if (!won) after_turn(T->g, T->pos, T->p, hand, a, d, oa, od, dumped, &r->after);
    return 1;
}

/* 1: stop (has_turn found one, or out of memory) */
static int visit(Turns *T, CardMask64 hand, int a, int d, int oa, int od, int n) {
    const SetKey key = seen_key(hand, a, d, oa, od);
    const int added = keyset_add(&T->seen, &key);
    if (added < 0) {
        T->oom = 1;
        return 1;
    }
    if (!added) return 0;
    const int p = T->p, o = T->o, step = T->step;
    const int dumped = T->dumped0 || oa != T->pos->a[o] || od != T->pos->d[o];
    if (n >= T->m) {
        const int won = hand == 0 && T->empty;
        if (T->stop_at_first) return 1;
        if (!push_result(T, hand, a, d, oa, od, dumped, won)) {
            T->oom = 1;
            return 1;
        }
        if (won) return 0;
    }
    const int own_a = 2 * p, own_d = 2 * p + 1, opp_a = 2 * o, opp_d = 2 * o + 1;
    for (CardMask64 left = hand; left; left &= left - 1) {
        const int c = __builtin_ctzll(left);
        const CardMask64 rest = hand & ~((CardMask64)1 << c);
        T->path_c[T->depth] = (uint8_t)c;
        T->depth++;
        if (pile_accepts(1, a, c, step)) { /* D3 (C5) on one's own ascending pile */
            T->path_pile[T->depth - 1] = (uint8_t)own_a;
            if (visit(T, rest, c, d, oa, od, n + 1)) return 1;
        }
        if (pile_accepts(0, d, c, step)) {
            T->path_pile[T->depth - 1] = (uint8_t)own_d;
            if (visit(T, rest, a, c, oa, od, n + 1)) return 1;
        }
        if (!dumped) { /* D2: at most one card onto the opponent's piles */
            if (pile_improves(1, oa, c)) { /* D4 */
                T->path_pile[T->depth - 1] = (uint8_t)opp_a;
                if (visit(T, rest, a, d, c, od, n + 1)) return 1;
            }
            if (pile_improves(0, od, c)) {
                T->path_pile[T->depth - 1] = (uint8_t)opp_d;
                if (visit(T, rest, a, d, oa, c, n + 1)) return 1;
            }
        }
        T->depth--;
    }
    return 0;
}

static int minimum(const Game *g, const DuelPos *pos, int q) {
    return pos->at[q] < g->deck_len[q] ? g->min_play : g->min_play_empty;
}

/* DuelGame.turns(pos, done, dumped); with stop_at_first, only whether one
 * exists (T->n_out stays 0, the return value says). 0 on out of memory. */
static int list_turns(Turns *T, const Game *g, const DuelPos *pos, int done, int dumped,
                      int first) {
    memset(T, 0, sizeof *T);
    T->g = g;
    T->pos = pos;
    T->p = pos->cur;
    T->o = 1 - pos->cur;
    T->m = minimum(g, pos, T->p);
    T->empty = pos->at[T->p] >= g->deck_len[T->p];
    T->dumped0 = dumped;
    T->step = g->step;
    T->stop_at_first = first;
    if (!keyset_init(&T->seen, 256)) {
        keyset_free(&T->seen);
        return 0;
    }
    const int p = T->p, o = T->o;
    const int stopped = visit(T, pos->h[p], pos->a[p], pos->d[p], pos->a[o], pos->d[o], done);
    keyset_free(&T->seen);
    if (T->oom) {
        free(T->out);
        T->out = NULL;
        return 0;
    }
    return first ? (stopped ? 2 : 1) : 1;
}

/* DuelGame._two_plays: two legal plays in a row. */
static int two_plays(const Game *g, const DuelPos *pos) {
    const int p = pos->cur, o = 1 - p, step = g->step;
    const CardMask64 hand = pos->h[p];
    const int a = pos->a[p], d = pos->d[p], oa = pos->a[o], od = pos->d[o];
    for (CardMask64 l1 = hand; l1; l1 &= l1 - 1) {
        const int c = __builtin_ctzll(l1);
        const CardMask64 rest = hand & ~((CardMask64)1 << c);
        int na[3], nd[3], dm[3], k = 0;
        if (pile_accepts(1, a, c, step)) na[k] = c, nd[k] = d, dm[k++] = 0;
        if (pile_accepts(0, d, c, step)) na[k] = a, nd[k] = c, dm[k++] = 0;
        if (pile_improves(1, oa, c) || pile_improves(0, od, c)) na[k] = a, nd[k] = d, dm[k++] = 1;
        for (int i = 0; i < k; i++) {
            for (CardMask64 l2 = rest; l2; l2 &= l2 - 1) {
                const int c2 = __builtin_ctzll(l2);
                if (pile_accepts(1, na[i], c2, step) || pile_accepts(0, nd[i], c2, step)) return 1;
                /* After a card onto the opponent, the second goes to own piles (D2). */
                if (!dm[i] && (pile_improves(1, oa, c2) || pile_improves(0, od, c2))) return 1;
            }
        }
    }
    return 0;
}

/* DuelGame.has_turn(pos): -1 on out of memory. */
static int has_turn(const Game *g, const DuelPos *pos) {
    const int p = pos->cur;
    const int m = minimum(g, pos, p);
    const int n = card_count64(pos->h[p]);
    if (n < m) return 0;
    if (m == 2 && n >= 2) return two_plays(g, pos);
    Turns T;
    const int r = list_turns(&T, g, pos, 0, 0, 1);
    if (r == 0) return -1;
    return r == 2;
}

/* ---- search.undominated and DuelSearch.score ------------------------------ */

static CardMask64 unplayed(const Game *g, const DuelPos *pos, int q) {
    return pos->h[q] | g->rest[q][pos->at[q]];
}

static int same_group(const DuelPos *x, const DuelPos *y) {
    return x->h[0] == y->h[0] && x->h[1] == y->h[1] && x->at[0] == y->at[0] &&
           x->at[1] == y->at[1];
}

/* Whether y dominates x for the mover p (search.undominated). */
static int dominates(const Game *g, int p, const DuelPos *y, const DuelPos *x, CardMask64 un_p,
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
static int dead_count(const Game *g, int p, CardMask64 hand, int at, int a, int d) {
    const CardMask64 all = hand | g->rest[p][at];
    const int step = g->step;
    CardMask64 asc = all & (cards64_above(a) | card_bit64(a - step));
    for (;;) {
        const CardMask64 reach = (asc ? cards64_above(__builtin_ctzll(asc)) : 0) | (asc >> step);
        const CardMask64 add = all & ~asc & reach;
        if (!add) break;
        asc |= add;
    }
    CardMask64 desc = all & (cards64_below(d) | card_bit64(d + step));
    for (;;) {
        const CardMask64 reach =
            (desc ? cards64_below(63 - __builtin_clzll(desc)) : 0) | (desc << step);
        const CardMask64 add = all & ~desc & reach;
        if (!add) break;
        desc |= add;
    }
    return card_count64(all & ~asc & ~desc);
}

static int score(const Game *g, const DuelPos *pos, const DuelPos *after) {
    const int p = pos->cur, o = 1 - p;
    const int a = after->a[p], d = after->d[p];
    CardMask64 between = 0; /* the cards c with d <= c <= a */
    for (int c = d < 0 ? 0 : d; c <= a && c <= MAX_CARD; c++) between |= (CardMask64)1 << c;
    const int stuck = card_count64(unplayed(g, after, p) & between);
    const int gift = (pos->a[o] - after->a[o]) + (after->d[o] - pos->d[o]);
    const int left = card_count64(after->h[p]) + g->deck_len[p] - after->at[p];
    const int ja = a - pos->a[p], jd = pos->d[p] - d;
    const int jumps = (ja > 0 ? ja : 0) + (jd > 0 ? jd : 0);
    /* the opponent's cards dead on their own piles: each costs them a turn */
    const int odead = dead_count(g, o, after->h[o], after->at[o], after->a[o], after->d[o]);
    return 8 * stuck + gift + 2 * left + jumps - 4 * odead;
}

/* ---- position.solo_turns: one player's turns on their own piles alone ---- */

typedef struct {
    CardMask64 hand; /* the hand after the turn, before the draw */
    int a, d, n;
    uint8_t plays_c[MAX_DECK], plays_pile[MAX_DECK];
} SoloResult;

typedef struct {
    const Game *g;
    int p, m, empty, robust, step;
    KeySet seen; /* keys: hand, a, d, and the two "pile played" flags as oa, od */
    SoloResult *out;
    size_t n_out, cap_out;
    uint8_t path_c[MAX_DECK], path_pile[MAX_DECK];
    int depth, oom;
} Solo;

static void solo_visit(Solo *S, CardMask64 hand, int a, int d, int ta, int td, int n) {
    if (S->oom) return;
    const SetKey key = seen_key(hand, a, d, ta && S->robust, td && S->robust);
    const int added = keyset_add(&S->seen, &key);
    if (added < 0) {
        S->oom = 1;
        return;
    }
    if (!added) return;
    if (n >= S->m) {
        if (S->n_out == S->cap_out) {
            size_t cap = S->cap_out ? S->cap_out * 2 : 64;
            SoloResult *r = realloc(S->out, cap * sizeof(SoloResult));
            if (!r) {
                S->oom = 1;
                return;
            }
            S->out = r;
            S->cap_out = cap;
        }
        SoloResult *r = &S->out[S->n_out++];
        r->hand = hand;
        r->a = a;
        r->d = d;
        r->n = S->depth;
        memcpy(r->plays_c, S->path_c, (size_t)S->depth);
        memcpy(r->plays_pile, S->path_pile, (size_t)S->depth);
        if (hand == 0 && S->empty) return; /* all played */
    }
    const int step = S->step, own_a = 2 * S->p, own_d = 2 * S->p + 1;
    for (CardMask64 left = hand; left; left &= left - 1) {
        const int c = __builtin_ctzll(left);
        const CardMask64 rest = hand & ~((CardMask64)1 << c);
        S->path_c[S->depth] = (uint8_t)c;
        S->depth++;
        /* robust: the turn's first card onto each pile is a normal play */
        if (pile_accepts(1, a, c, step) && !(S->robust && !ta && c < a)) {
            S->path_pile[S->depth - 1] = (uint8_t)own_a;
            solo_visit(S, rest, c, d, 1, td, n + 1);
        }
        if (pile_accepts(0, d, c, step) && !(S->robust && !td && c > d)) {
            S->path_pile[S->depth - 1] = (uint8_t)own_d;
            solo_visit(S, rest, a, c, ta, 1, n + 1);
        }
        S->depth--;
    }
}

/* ---- the Python interface ------------------------------------------------ */

static int read_pos(PyObject *o, DuelPos *pos) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 9) {
        PyErr_SetString(PyExc_ValueError, "a position is a tuple of 9 ints");
        return 0;
    }
    long v[9];
    for (int i = 2; i < 9; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v[i] == -1 && PyErr_Occurred()) return 0;
    }
    for (int q = 0; q < 2; q++) {
        pos->h[q] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(o, q));
        if (PyErr_Occurred()) return 0;
    }
    pos->at[0] = (int)v[2];
    pos->at[1] = (int)v[3];
    pos->a[0] = (int)v[4];
    pos->d[0] = (int)v[5];
    pos->a[1] = (int)v[6];
    pos->d[1] = (int)v[7];
    pos->cur = (int)v[8];
    return 1;
}

static int check_pos(const Game *g, const DuelPos *pos) {
    if (pos->cur < 0 || pos->cur > 1) return 0;
    for (int q = 0; q < 2; q++) {
        if (pos->at[q] < 0 || pos->at[q] > g->deck_len[q]) return 0;
        if (pos->a[q] < -1 || pos->a[q] > MAX_CARD + 1 || pos->d[q] < -1 ||
            pos->d[q] > MAX_CARD + 1)
            return 0;
    }
    return 1;
}

/* A tuple of n new references (stolen), NULL when any is NULL. Built item
 * by item: Py_BuildValue's format parsing was some 8% of a search's time. */
static PyObject *pack(PyObject **items, int n) {
    PyObject *t = PyTuple_New(n);
    int ok = t != NULL;
    for (int k = 0; k < n; k++) {
        if (!items[k]) ok = 0;
        if (t) {
            PyTuple_SET_ITEM(t, k, items[k]); /* dealloc skips NULL items */
        } else {
            Py_XDECREF(items[k]);
        }
    }
    if (!ok) Py_XDECREF(t);
    return ok ? t : NULL;
}

static PyObject *pos_tuple(const DuelPos *pos) {
    PyObject *items[9] = {
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[0]),
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[1]),
        PyLong_FromLong(pos->at[0]), PyLong_FromLong(pos->at[1]),
        PyLong_FromLong(pos->a[0]), PyLong_FromLong(pos->d[0]),
        PyLong_FromLong(pos->a[1]), PyLong_FromLong(pos->d[1]),
        PyLong_FromLong(pos->cur),
    };
    return pack(items, 9);
}

/* search._cards: what dominance between positions compares within. */
static PyObject *cards_key(const DuelPos *pos) {
    PyObject *items[5] = {
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[0]),
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[1]),
        PyLong_FromLong(pos->at[0]), PyLong_FromLong(pos->at[1]),
        PyLong_FromLong(pos->cur),
    };
    return pack(items, 5);
}

/* A turn's plays as ((card, pile), ...); NULL on error. */
static PyObject *plays_tuple(const uint8_t *cards, const uint8_t *piles, int n) {
    PyObject *plays = PyTuple_New(n);
    for (int k = 0; plays && k < n; k++) {
        PyObject *pl = Py_BuildValue("(ii)", cards[k], piles[k]);
        if (!pl) {
            Py_CLEAR(plays);
            break;
        }
        PyTuple_SET_ITEM(plays, k, pl);
    }
    return plays;
}

/* (plays, after) for a turn list, taking both references; NULL when either
 * is NULL (an error is set). */
static PyObject *turn_pair(PyObject *plays, PyObject *after) {
    PyObject *item = plays && after ? PyTuple_Pack(2, plays, after) : NULL;
    Py_XDECREF(plays);
    Py_XDECREF(after);
    return item;
}

static int game_init(Game *self, PyObject *args, PyObject *kw) {
    (void)kw;
    Py_buffer d0, d1;
    int hs, mp, mpe, step, draw_own;
    if (!PyArg_ParseTuple(args, "y*y*iiiii", &d0, &d1, &hs, &mp, &mpe, &step, &draw_own))
        return -1;
    int ok = d0.len <= MAX_DECK && d1.len <= MAX_DECK && hs >= 0 && mp >= 1 && mpe >= 1 &&
             step >= 1 && draw_own >= 0;
    const Py_buffer *decks[2] = {&d0, &d1};
    for (int q = 0; ok && q < 2; q++) {
        self->deck_len[q] = (int)decks[q]->len;
        CardMask64 seen = 0;
        for (Py_ssize_t k = 0; k < decks[q]->len; k++) {
            const int c = ((const uint8_t *)decks[q]->buf)[k];
            if (c > MAX_CARD || (seen >> c & 1)) ok = 0;
            seen |= (CardMask64)1 << (c & MAX_CARD);
            self->deck[q][k] = (uint8_t)c;
        }
        self->rest[q][decks[q]->len] = 0;
        for (Py_ssize_t k = decks[q]->len - 1; k >= 0; k--)
            self->rest[q][k] = self->rest[q][k + 1] | (CardMask64)1 << self->deck[q][k];
    }
    PyBuffer_Release(&d0);
    PyBuffer_Release(&d1);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "duel outside the compiled kernel's range");
        return -1;
    }
    self->hand_size = hs;
    self->min_play = mp;
    self->min_play_empty = mpe;
    self->step = step;
    self->draw_own = draw_own;
    return 0;
}

/* search.undominated: mark in ``dropped`` the results another result of
 * the same group dominates for the mover p; 0 when out of memory. */
static int undominated(const Game *g, int p, const Result *r, size_t n, unsigned char *dropped) {
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
    for (size_t b = 0; b < cap; b++) {
        for (size_t rep = first[b]; rep != none; rep = bucket_next[rep]) {
            if (next[rep] == none) continue; /* a group of one */
            size_t k = 0;
            for (size_t i = rep; i != none; i = next[i]) group[k++] = i;
            const CardMask64 un_p = unplayed(g, &r[rep].after, p);
            const CardMask64 un_o = unplayed(g, &r[rep].after, 1 - p);
            for (size_t x = 0; x < k; x++) {
                for (size_t y = 0; y < k; y++) {
                    if (y != x &&
                        dominates(g, p, &r[group[y]].after, &r[group[x]].after, un_p, un_o)) {
                        dropped[group[x]] = 1;
                        break;
                    }
                }
            }
        }
    }
    free(order);
    return 1;
}

PyDoc_STRVAR(expand_doc,
             "expand(pos) -> (status, children)\n--\n\n"
             "status 0: no legal turn (D6, the mover loses); 1: a turn plays every card\n"
             "(D6, the mover wins); 2: children, the undominated turn results in\n"
             "DuelGame.turns order, each (position after, score, opponent has a turn).");

static PyObject *game_expand(Game *self, PyObject *arg) {
    DuelPos pos;
    if (!read_pos(arg, &pos)) return NULL;
    if (!check_pos(self, &pos)) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    Turns T;
    if (!list_turns(&T, self, &pos, 0, 0, 0)) return PyErr_NoMemory();
    const size_t n = T.n_out;
    Result *r = T.out;
    int status = n == 0 ? 0 : 2;
    for (size_t i = 0; i < n && status == 2; i++)
        if (r[i].won) status = 1;
    if (status != 2) {
        free(r);
        return Py_BuildValue("(i[])", status);
    }
    unsigned char *dropped = calloc(n, 1);
    if (!dropped || !undominated(self, pos.cur, r, n, dropped)) {
        free(dropped);
        free(r);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        if (dropped[i]) continue;
        const int ht = has_turn(self, &r[i].after);
        if (ht < 0) {
            Py_CLEAR(list);
            PyErr_NoMemory();
            break;
        }
        PyObject *after = pos_tuple(&r[i].after);
        PyObject *item = after ? PyTuple_New(3) : NULL;
        if (item) {
            PyObject *sc = PyLong_FromLong(score(self, &pos, &r[i].after));
            PyTuple_SET_ITEM(item, 0, after);
            PyTuple_SET_ITEM(item, 1, sc);
            PyTuple_SET_ITEM(item, 2, PyBool_FromLong(ht));
            if (!sc) Py_CLEAR(item);
        } else {
            Py_XDECREF(after);
        }
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(item);
    }
    free(dropped);
    free(r);
    if (!list) return NULL;
    return Py_BuildValue("(iN)", 2, list);
}

PyDoc_STRVAR(turns_doc,
             "turns(pos, done=0, dumped=False) -> [(plays, position after or None)]\n--\n\n"
             "DuelGame.turns: every distinct result of the mover's whole turn.");

static PyObject *game_turns(Game *self, PyObject *args) {
    PyObject *pos_o;
    int done = 0, dumped = 0;
    if (!PyArg_ParseTuple(args, "O|ip", &pos_o, &done, &dumped)) return NULL;
    DuelPos pos;
    if (!read_pos(pos_o, &pos)) return NULL;
    if (!check_pos(self, &pos) || done < 0) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    Turns T;
    if (!list_turns(&T, self, &pos, done, dumped, 0)) return PyErr_NoMemory();
    PyObject *list = PyList_New((Py_ssize_t)T.n_out);
    for (size_t i = 0; list && i < T.n_out; i++) {
        const Result *r = &T.out[i];
        PyObject *item =
            turn_pair(plays_tuple(r->plays_c, r->plays_pile, r->n_plays),
                      r->won ? (Py_INCREF(Py_None), Py_None) : pos_tuple(&r->after));
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(T.out);
    return list;
}

static int solo_in_range(const Game *self, int p, int at, int a, int d) {
    if (p < 0 || p > 1 || at < 0 || at > self->deck_len[p] || a < -1 || a > MAX_CARD + 1 ||
        d < -1 || d > MAX_CARD + 1) {
        PyErr_SetString(PyExc_ValueError, "solo state out of range");
        return 0;
    }
    return 1;
}

/* The states player p's own plays reach with at least m plays (m 0: the
 * turn's minimum, D2), into S->out (the caller frees it); 0: out of memory. */
static int solo_list(const Game *self, Solo *S, int p, CardMask64 hand, int at, int a, int d,
                     int robust, int m) {
    memset(S, 0, sizeof *S);
    S->g = self;
    S->p = p;
    S->empty = at == self->deck_len[p];
    S->m = m ? m : S->empty ? self->min_play_empty : self->min_play;
    S->robust = robust;
    S->step = self->step;
    if (keyset_init(&S->seen, 256))
        solo_visit(S, hand, a, d, 0, 0, 0);
    else
        S->oom = 1;
    keyset_free(&S->seen);
    if (S->oom) {
        free(S->out);
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(solo_turns_doc,
             "solo_turns(p, solo, robust) -> [(plays, solo after or None)]\n--\n\n"
             "position.solo_turns: player p's distinct turns on their own piles alone.");

static PyObject *game_solo_turns(Game *self, PyObject *args) {
    int p, robust, at, a, d;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "i(Kiii)p", &p, &hand, &at, &a, &d, &robust)) return NULL;
    if (!solo_in_range(self, p, at, a, d)) return NULL;
    Solo S;
    if (!solo_list(self, &S, p, (CardMask64)hand, at, a, d, robust, 0)) return NULL;
    int take = self->deck_len[p] - at;
    if (self->draw_own < take) take = self->draw_own;
    if (take < 0) take = 0;
    CardMask64 drawn = 0;
    for (int k = 0; k < take; k++) drawn |= (CardMask64)1 << self->deck[p][at + k];
    PyObject *list = PyList_New((Py_ssize_t)S.n_out);
    for (size_t i = 0; list && i < S.n_out; i++) {
        const SoloResult *r = &S.out[i];
        PyObject *after = r->hand == 0 && S.empty
                              ? (Py_INCREF(Py_None), Py_None)
                              : Py_BuildValue("(Kiii)", (unsigned long long)(r->hand | drawn),
                                              at + take, r->a, r->d);
        PyObject *item = turn_pair(plays_tuple(r->plays_c, r->plays_pile, r->n), after);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(S.out);
    return list;
}

PyDoc_STRVAR(relaxed_turns_doc,
             "relaxed_turns(p, solo) -> [solo after or None]\n--\n\n"
             "survival.relaxed_turns: player p's distinct states after a relaxed turn.");

/* 1: added, 0: there already, -1: out of memory (the list owns the new item) */
static int relaxed_add(KeySet *seen, PyObject *list, CardMask64 hand, int at, int a, int d) {
    const SetKey key = seen_key(hand, a, d, at, 0);
    const int added = keyset_add(seen, &key);
    if (added <= 0) return added;
    PyObject *item = Py_BuildValue("(Kiii)", (unsigned long long)hand, at, a, d);
    if (!item || PyList_Append(list, item) < 0) {
        Py_XDECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 1;
}

static PyObject *game_relaxed_turns(Game *self, PyObject *args) {
    int p, at, a, d;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "i(Kiii)", &p, &hand, &at, &a, &d)) return NULL;
    if (!solo_in_range(self, p, at, a, d)) return NULL;
    /* Every state the own plays reach with at least one play (a dump needs
     * one own play, D2); the minimum is applied below. */
    const int m = at == self->deck_len[p] ? self->min_play_empty : self->min_play;
    Solo S;
    if (!solo_list(self, &S, p, (CardMask64)hand, at, a, d, 0, m - 1 > 1 ? m - 1 : 1)) return NULL;
    const int stock = self->deck_len[p] - at;
    KeySet seen;
    PyObject *list = keyset_init(&seen, 256) ? PyList_New(0) : NULL;
    int won = 0, bad = list == NULL;
    for (size_t i = 0; !bad && i < S.n_out; i++) {
        const SoloResult *r = &S.out[i];
        if (r->n >= m) { /* the turn ends here: draw 2 (D5) */
            if (r->hand == 0 && S.empty) {
                won = 1;
                continue;
            }
            const int take = self->draw_own < stock ? self->draw_own : stock;
            const CardMask64 drawn = self->rest[p][at] & ~self->rest[p][at + take];
            bad = relaxed_add(&seen, list, r->hand | drawn, at + take, r->a, r->d) < 0;
        }
        if (r->n + 1 < m) continue;
        for (CardMask64 left = r->hand; !bad && left; left &= left - 1) { /* one card out, refill */
            const CardMask64 kept = r->hand & ~(left & (0 - left));
            if (kept == 0 && S.empty) {
                won = 1;
                continue;
            }
            int take = self->hand_size - card_count64(kept);
            if (take > stock) take = stock;
            if (take < 0) take = 0;
            bad = relaxed_add(&seen, list, kept | (self->rest[p][at] & ~self->rest[p][at + take]),
                              at + take, r->a, r->d) < 0;
        }
    }
    free(S.out);
    keyset_free(&seen);
    if (!bad && won) bad = PyList_Append(list, Py_None) < 0;
    if (bad) {
        Py_XDECREF(list);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    return list;
}

PyDoc_STRVAR(dead_cards_doc, "dead_cards(p, solo) -> int: race.dead_cards.");

static PyObject *game_dead_cards(Game *self, PyObject *args) {
    int p, at, a, d;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "i(Kiii)", &p, &hand, &at, &a, &d)) return NULL;
    if (!solo_in_range(self, p, at, a, d)) return NULL;
    return PyLong_FromLong(dead_count(self, p, (CardMask64)hand, at, a, d));
}

static PyObject *game_has_turn(Game *self, PyObject *arg) {
    DuelPos pos;
    if (!read_pos(arg, &pos)) return NULL;
    if (!check_pos(self, &pos)) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    const int r = has_turn(self, &pos);
    if (r < 0) return PyErr_NoMemory();
    return PyBool_FromLong(r);
}

/* search.DuelSearch._by_dominance: the value of pos read from `known`, a
 * list of (position, won) pairs that share pos's hands, draw piles and mover
 * (only their tops are read). True: at least as good as a won one; False: no
 * better than a lost one; None: neither. */
PyDoc_STRVAR(dominance_doc,
             "dominance(pos, known) -> bool | None: DuelSearch._by_dominance's scan.");

/* The scan behind game_dominance: 1 a win for pos's mover, 0 a loss, -1
 * neither, -2 an error (set). */
static int scan_known(const Game *g, const DuelPos *pos, PyObject *known) {
    const int p = pos->cur;
    const CardMask64 un_p = unplayed(g, pos, p), un_o = unplayed(g, pos, 1 - p);
    DuelPos other = *pos;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(known); i++) {
        PyObject *pair = PyList_GET_ITEM(known, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "known holds (position, won) pairs");
            return -2;
        }
        PyObject *o = PyTuple_GET_ITEM(pair, 0);
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 9) {
            PyErr_SetString(PyExc_ValueError, "a position is a tuple of 9 ints");
            return -2;
        }
        long top[4];
        for (int k = 0; k < 4; k++) {
            top[k] = PyLong_AsLong(PyTuple_GET_ITEM(o, 4 + k));
            if (top[k] == -1 && PyErr_Occurred()) return -2;
        }
        other.a[0] = (int)top[0];
        other.d[0] = (int)top[1];
        other.a[1] = (int)top[2];
        other.d[1] = (int)top[3];
        const int won = PyObject_IsTrue(PyTuple_GET_ITEM(pair, 1));
        if (won < 0) return -2;
        /* dominates(y, x) is search.at_least_as_good(p, y, x) */
        if (won ? dominates(g, p, pos, &other, un_p, un_o)
                : dominates(g, p, &other, pos, un_p, un_o))
            return won;
    }
    return -1;
}

static PyObject *game_dominance(Game *self, PyObject *args) {
    PyObject *pos_obj, *known;
    DuelPos pos;
    if (!PyArg_ParseTuple(args, "OO!", &pos_obj, &PyList_Type, &known)) return NULL;
    if (!read_pos(pos_obj, &pos)) return NULL;
    if (!check_pos(self, &pos)) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    const int r = scan_known(self, &pos, known);
    if (r == -2) return NULL;
    if (r == -1) Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

/* search.DuelSearch._sift: the children of expand, each looked up in the
 * table `tt` (a dict of position -> mover wins) and, when `by_cards` is a
 * dict, read by dominance from its group (search._cards). In order: a child
 * lost for the opponent (table or dominance) ends the node (status 3, that
 * child); a child known won for the opponent is skipped; a child where the
 * opponent has no turn ends it (status 4, that child); the rest come back
 * sorted by score, ties in expand's order (status 2). The third item counts
 * the values read by dominance, the fourth the table hits. */
PyDoc_STRVAR(sift_doc,
             "sift(children, tt, by_cards) -> (status, child | children, dominated, hits)\n--\n\n"
             "DuelSearch._sift over expand's children.");

typedef struct {
    int score;
    Py_ssize_t at;
} Ranked;

static int by_score(const void *x, const void *y) {
    const Ranked *a = x, *b = y;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return a->at < b->at ? -1 : (a->at > b->at);
}

static PyObject *game_sift(Game *self, PyObject *args) {
    PyObject *kids, *tt, *by_cards;
    if (!PyArg_ParseTuple(args, "O!O!O", &PyList_Type, &kids, &PyDict_Type, &tt, &by_cards))
        return NULL;
    if (by_cards != Py_None && !PyDict_Check(by_cards)) {
        PyErr_SetString(PyExc_TypeError, "by_cards is a dict or None");
        return NULL;
    }
    const Py_ssize_t n = PyList_GET_SIZE(kids);
    Ranked *later = malloc((n ? n : 1) * sizeof(Ranked));
    if (!later) return PyErr_NoMemory();
    Py_ssize_t n_later = 0;
    long dominated = 0, hits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *kid = PyList_GET_ITEM(kids, i);
        if (!PyTuple_Check(kid) || PyTuple_GET_SIZE(kid) != 3) {
            PyErr_SetString(PyExc_ValueError, "a child is (position, score, has_turn)");
            goto fail;
        }
        PyObject *after = PyTuple_GET_ITEM(kid, 0);
        PyObject *known = PyDict_GetItemWithError(tt, after);
        int value = -1; /* -1 unknown, 0 / 1: the opponent (mover there) loses / wins */
        if (known) {
            value = PyObject_IsTrue(known);
            if (value < 0) goto fail;
        } else if (PyErr_Occurred()) {
            goto fail;
        } else if (by_cards != Py_None) {
            DuelPos at;
            if (!read_pos(after, &at)) goto fail;
            if (!check_pos(self, &at)) {
                PyErr_SetString(PyExc_ValueError, "position out of range");
                goto fail;
            }
            PyObject *key = cards_key(&at);
            if (!key) goto fail;
            PyObject *group = PyDict_GetItemWithError(by_cards, key);
            Py_DECREF(key);
            if (!group && PyErr_Occurred()) goto fail;
            if (group && PyList_Check(group) && PyList_GET_SIZE(group) > 0) {
                value = scan_known(self, &at, group);
                if (value == -2) goto fail;
                dominated += value >= 0;
            }
        }
        if (value == 0) {
            hits += known != NULL;
            free(later);
            return Py_BuildValue("(iOll)", 3, after, dominated, hits);
        }
        if (value == 1) continue;
        const int moves = PyObject_IsTrue(PyTuple_GET_ITEM(kid, 2));
        if (moves < 0) goto fail;
        if (!moves) {
            free(later);
            return Py_BuildValue("(iOll)", 4, after, dominated, hits);
        }
        const long sc = PyLong_AsLong(PyTuple_GET_ITEM(kid, 1));
        if (sc == -1 && PyErr_Occurred()) goto fail;
        later[n_later].score = (int)sc;
        later[n_later].at = i;
        n_later++;
    }
    qsort(later, (size_t)n_later, sizeof(Ranked), by_score);
    PyObject *list = PyList_New(n_later);
    if (!list) goto fail;
    for (Py_ssize_t k = 0; k < n_later; k++) {
        PyObject *after = PyTuple_GET_ITEM(PyList_GET_ITEM(kids, later[k].at), 0);
        Py_INCREF(after);
        PyList_SET_ITEM(list, k, after);
    }
    free(later);
    return Py_BuildValue("(iNll)", 2, list, dominated, hits);
fail:
    free(later);
    return NULL;
}

/* pns.ProofNumberSearch._read: the proof and disproof numbers of each child
 * (from the view of its mover, the opponent): (0, inf) when `tt` holds it as
 * won, (inf, 0) as lost, else its entry in `numbers`, else (1, 1 + weight *
 * its rank). Two lists, in the children's order. */
PyDoc_STRVAR(numbers_doc,
             "numbers(children, tt, numbers, weight, inf) -> (phis, deltas)\n--\n\n"
             "ProofNumberSearch._read over the children to search.");

static PyObject *game_numbers(Game *self, PyObject *args) {
    (void)self;
    PyObject *kids, *tt, *numbers;
    long long weight, inf;
    if (!PyArg_ParseTuple(args, "O!O!O!LL", &PyList_Type, &kids, &PyDict_Type, &tt, &PyDict_Type,
                          &numbers, &weight, &inf))
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(kids);
    PyObject *phis = PyList_New(n), *deltas = PyList_New(n);
    if (!phis || !deltas) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *kid = PyList_GET_ITEM(kids, i);
        PyObject *phi = NULL, *delta = NULL;
        PyObject *known = PyDict_GetItemWithError(tt, kid);
        if (known) {
            const int won = PyObject_IsTrue(known);
            if (won < 0) goto fail;
            phi = PyLong_FromLongLong(won ? 0 : inf);
            delta = PyLong_FromLongLong(won ? inf : 0);
        } else if (PyErr_Occurred()) {
            goto fail;
        } else {
            PyObject *got = PyDict_GetItemWithError(numbers, kid);
            if (got && PyTuple_Check(got) && PyTuple_GET_SIZE(got) == 2) {
                phi = PyTuple_GET_ITEM(got, 0);
                delta = PyTuple_GET_ITEM(got, 1);
                Py_INCREF(phi);
                Py_INCREF(delta);
            } else if (got) {
                PyErr_SetString(PyExc_ValueError, "numbers holds (phi, delta) pairs");
                goto fail;
            } else if (PyErr_Occurred()) {
                goto fail;
            } else {
                phi = PyLong_FromLong(1);
                delta = PyLong_FromLongLong(1 + weight * (long long)i);
            }
        }
        if (!phi || !delta) {
            Py_XDECREF(phi);
            Py_XDECREF(delta);
            goto fail;
        }
        PyList_SET_ITEM(phis, i, phi);
        PyList_SET_ITEM(deltas, i, delta);
    }
    return Py_BuildValue("(NN)", phis, deltas);
fail:
    Py_XDECREF(phis);
    Py_XDECREF(deltas);
    return NULL;
}

static PyMethodDef game_methods[] = {
    {"numbers", (PyCFunction)game_numbers, METH_VARARGS, numbers_doc},
    {"dominance", (PyCFunction)game_dominance, METH_VARARGS, dominance_doc},
    {"sift", (PyCFunction)game_sift, METH_VARARGS, sift_doc},
    {"expand", (PyCFunction)game_expand, METH_O, expand_doc},
    {"turns", (PyCFunction)game_turns, METH_VARARGS, turns_doc},
    {"has_turn", (PyCFunction)game_has_turn, METH_O, "DuelGame.has_turn(pos)."},
    {"solo_turns", (PyCFunction)game_solo_turns, METH_VARARGS, solo_turns_doc},
    {"dead_cards", (PyCFunction)game_dead_cards, METH_VARARGS, dead_cards_doc},
    {"relaxed_turns", (PyCFunction)game_relaxed_turns, METH_VARARGS, relaxed_turns_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game.duel._cduel.Game",
    .tp_doc = "Game(deck0, deck1, hand_size, min_play, min_play_empty, step, draw_own)",
    .tp_basicsize = sizeof(Game),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_methods = game_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cduel",
    .m_doc = "The duel search's node expansion, compiled (see duel/ccore.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__cduel(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    /* Built with -mpopcnt (setup.py, x86-64): refuse to load on a CPU
     * without it, so ccore.py falls back to the Python expansion instead of
     * the process dying on an illegal instruction. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_cduel needs a CPU with POPCNT");
        return NULL;
    }
#endif
    if (PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(m);
        return NULL;
    }
    if (pns_add_type(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
