/* The race alone, compiled: race.py's RaceSolver (the reference) as the
 * type Race of _cduel. One player's fewest turns to lay all their cards on
 * their own two piles while nobody else touches them (D2, D3, D5, D6): a
 * depth-first search with a memo of exact values over the states (hand,
 * draw-pile position, ascending top, descending top). It visits the states
 * the reference visits, each as its canonical state (race.canonical), in
 * its order (the turns of solo_list, more cards first, ties in solo_list's
 * order), cuts where it cuts (a dead card, a state below one with no
 * finish, the floor reached) and counts nodes as it does, so a budget in
 * nodes ends both at the same node (tests/the_game/duel/test_crace.py).
 *
 * The memo is a table of its own (Memo below): a state's key and value in
 * one 16-byte slot, so that a lookup, most of the search's time, waits for
 * memory once; past RACE_MAX_SLOTS a state is no longer remembered, which
 * costs time, never soundness.
 */
#include <stdlib.h>
#include <string.h>

#include "bindings.h"
#include "hashtable.h"
#include "race.h"

#define RACE_INF (1 << 30) /* race.INF: no finish */
#define RACE_MAX_SLOTS ((size_t)1 << 22)

/* The memo: open addressing, linear probing, a power-of-two number of
 * slots. A slot holds the hand and the rest of the state packed with a
 * used bit (at | (a + 1) << 8 | (d + 1) << 16 | 1 << 31: each below 2^7). */
typedef struct {
    uint64_t hand;
    uint32_t rest;
    int32_t value;
} MemoSlot;

typedef struct {
    MemoSlot *slots;
    size_t cap, count;
} Memo;

#define MEMO_USED ((uint32_t)1 << 31)

static inline uint32_t memo_rest(const SoloState *st) {
    return (uint32_t)st->at | (uint32_t)(st->a + 1) << 8 | (uint32_t)(st->d + 1) << 16 | MEMO_USED;
}

static inline size_t memo_home(const Memo *m, uint64_t hand, uint32_t rest) {
    const uint64_t w[2] = {hand, rest};
    return hash_words(w, 2) & (m->cap - 1);
}

/* The state's slot, or the empty slot where it would go */
static inline MemoSlot *memo_slot(const Memo *m, uint64_t hand, uint32_t rest) {
    size_t i = memo_home(m, hand, rest);
    while (m->slots[i].rest && (m->slots[i].rest != rest || m->slots[i].hand != hand))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static int memo_init(Memo *m) {
    m->cap = 1 << 12;
    m->count = 0;
    m->slots = calloc(m->cap, sizeof(MemoSlot));
    return m->slots != NULL;
}

static void memo_free(Memo *m) {
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

/* Keep the value of a state not yet in (silently not when full or out of
 * memory: an entry only saves work) */
static void memo_put(Memo *m, const SoloState *st, int32_t value) {
    if ((m->count + 1) * 10 > m->cap * 7) {
        MemoSlot *bigger = m->cap * 2 <= RACE_MAX_SLOTS ? calloc(m->cap * 2, sizeof(MemoSlot)) : NULL;
        if (bigger) {
            Memo grown = {bigger, m->cap * 2, m->count};
            for (size_t i = 0; i < m->cap; i++)
                if (m->slots[i].rest) *memo_slot(&grown, m->slots[i].hand, m->slots[i].rest) = m->slots[i];
            free(m->slots);
            *m = grown;
        } else if ((m->count + 1) * 10 > m->cap * 9) {
            return;
        }
    }
    const uint32_t rest = memo_rest(st);
    MemoSlot *slot = memo_slot(m, st->hand, rest);
    if (!slot->rest) m->count++;
    slot->hand = st->hand;
    slot->rest = rest;
    slot->value = value;
}

static inline const int32_t *memo_get(const Memo *m, const SoloState *st) {
    const MemoSlot *slot = memo_slot(m, st->hand, memo_rest(st));
    return slot->rest ? &slot->value : NULL;
}

/* The tops of a state with no finish; `next`: the previous one with the
 * same hand and draw pile, -1 at the end */
typedef struct {
    int8_t a, d;
    int32_t next;
} LostTops;

typedef struct {
    PyObject_HEAD
    GameObject *game; /* the rules, kept alive */
    int p, robust;
    Memo memo;     /* the state -> its exact fewest turns */
    Table lost;    /* (hand, at) -> the first of its chain in `ends` */
    LostTops *ends; /* the tops of the states found with no finish, chained */
    size_t n_ends, cap_ends;
    long long nodes, limit;
    PyObject *stop; /* called every 256 nodes: true ends the search */
    int halted;     /* 1: out of budget, 2: an error is set */
} RaceObject;

static PyTypeObject *game_type;

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
static int lost_above(const RaceObject *R, const SoloState *st) {
    const uint64_t k[2] = {st->hand, (uint64_t)st->at};
    const int32_t *head = tab_get(&R->lost, k);
    if (!head) return 0;
    const CardMask64 un = st->hand | R->game->rules.rest[R->p][st->at];
    const int step = R->game->rules.step;
    for (int32_t i = *head; i >= 0; i = R->ends[i].next)
        if (takes_all_of(1, R->ends[i].a, st->a, step, un) &&
            takes_all_of(0, R->ends[i].d, st->d, step, un))
            return 1;
    return 0;
}

/* Remember a state with no finish for lost_above (silently not, when out
 * of memory: a remembered state only saves work). */
static void record_lost(RaceObject *R, const SoloState *st) {
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

static int budget_spent(RaceObject *R) {
    if (R->nodes >= R->limit) return 1;
    if ((R->nodes & 255) == 0 && R->stop != Py_None) {
        PyObject *r = PyObject_CallNoArgs(R->stop);
        if (!r) {
            R->halted = 2;
            return 1;
        }
        const int t = PyObject_IsTrue(r);
        Py_DECREF(r);
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

static int fewest(RaceObject *R, const SoloState *given) {
    const DuelRules *g = &R->game->rules;
    const SoloState canon = canonical(g, R->p, given), *st = &canon;
    const int32_t *got = memo_get(&R->memo, st);
    if (got) return *got;
    R->nodes++;
    if (budget_spent(R)) {
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
    if (!solo_list(g, &S, p, st, R->robust, 0)) {
        PyErr_NoMemory();
        R->halted = 2;
        return RACE_INF;
    }
    size_t *idx = malloc((S.n_out ? S.n_out : 1) * sizeof(size_t));
    if (!idx) {
        free(S.out);
        PyErr_NoMemory();
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

static int read_solo(RaceObject *R, PyObject *o, SoloState *st) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(o, "Kiii", &hand, &st->at, &st->a, &st->d)) return 0;
    st->hand = (CardMask64)hand;
    return solo_in_range(&R->game->rules, R->p, st);
}

static int race_init(RaceObject *self, PyObject *args, PyObject *kw) {
    PyObject *game;
    int p, robust;
    static char *names[] = {"game", "p", "robust", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!ip", names, game_type, &game, &p, &robust))
        return -1;
    if (p < 0 || p > 1) {
        PyErr_SetString(PyExc_ValueError, "a player is 0 or 1");
        return -1;
    }
    Py_INCREF(game);
    Py_XSETREF(self->game, (GameObject *)game);
    self->p = p;
    self->robust = robust;
    memo_free(&self->memo);
    tab_free(&self->lost);
    free(self->ends);
    self->ends = NULL;
    self->n_ends = self->cap_ends = 0;
    if (!memo_init(&self->memo) || !tab_init(&self->lost, 2, RACE_MAX_SLOTS)) {
        PyErr_NoMemory();
        return -1;
    }
    self->nodes = 0;
    return 0;
}

static void race_dealloc(RaceObject *self) {
    memo_free(&self->memo);
    tab_free(&self->lost);
    free(self->ends);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* fewest(solo, nodes, stop) -> value or None (out of budget) */
static PyObject *race_fewest(RaceObject *self, PyObject *args) {
    PyObject *solo, *stop;
    long long nodes;
    if (!PyArg_ParseTuple(args, "OLO", &solo, &nodes, &stop)) return NULL;
    SoloState st;
    if (!read_solo(self, solo, &st)) return NULL;
    self->limit = nodes < 0 ? (long long)1 << 62 : self->nodes + nodes;
    self->stop = stop;
    self->halted = 0;
    const int v = fewest(self, &st);
    self->stop = NULL;
    if (self->halted == 2) return NULL;
    if (self->halted == 1) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* known(solo) -> the memo's value or None */
static PyObject *race_known(RaceObject *self, PyObject *solo) {
    SoloState st;
    if (!read_solo(self, solo, &st)) return NULL;
    st = canonical(&self->game->rules, self->p, &st);
    const int32_t *got = memo_get(&self->memo, &st);
    if (!got) Py_RETURN_NONE;
    return PyLong_FromLong(*got);
}

static PyObject *race_nodes(RaceObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *race_stored(RaceObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->memo.count);
}

static PyMethodDef race_methods[] = {
    {"fewest", (PyCFunction)race_fewest, METH_VARARGS,
     "fewest(solo, nodes, stop) -> int | None\n--\n\n"
     "RaceSolver.fewest: the exact fewest turns from solo (race.INF: never);\n"
     "None when `nodes` more nodes (negative: no limit) ran out or `stop()`,\n"
     "called every 256 nodes, said true."},
    {"known", (PyCFunction)race_known, METH_O, "known(solo) -> the memo's value or None."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef race_getset[] = {
    {"nodes", (getter)race_nodes, NULL, "nodes visited so far", NULL},
    {"stored", (getter)race_stored, NULL, "states in the memo", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RaceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game.duel._cduel.Race",
    .tp_doc = "Race(game, p, robust): race.RaceSolver's search, compiled.",
    .tp_basicsize = sizeof(RaceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)race_init,
    .tp_dealloc = (destructor)race_dealloc,
    .tp_methods = race_methods,
    .tp_getset = race_getset,
};

int race_add_type(PyObject *module, PyTypeObject *game) {
    game_type = game;
    if (PyType_Ready(&RaceType) < 0) return -1;
    Py_INCREF(&RaceType);
    if (PyModule_AddObject(module, "Race", (PyObject *)&RaceType) < 0) {
        Py_DECREF(&RaceType);
        return -1;
    }
    return 0;
}
