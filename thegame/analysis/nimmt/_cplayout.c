/* 6 nimmt! playouts from one player's seat, compiled.
 *
 * A second implementation of thegame/analysis/nimmt/playout.py (run_python,
 * playout, pick, card_cost, _place) that must make exactly the same
 * playouts from the same SplitMix64 stream: the same draws in the same
 * order (the shuffle of the unseen cards, then one pick per player per turn,
 * this player first), the same hand bookkeeping (the fixed first card is
 * removed keeping the order, a picked card is replaced by the last one) and
 * the same ties. tests/nimmt/test_baselines.py compares the two.
 *
 * Integers only: no floating point, so no rounding can differ.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "pybind.h"   /* py_budget: the Budget (budget.h) filled from a Limit */
#include "splitmix.h" /* sm_next, sm_below, sm_shuffle */

#define MAX_PLAYERS 10 /* rule S1 */
#define MAX_TURNS 10   /* rule S1 */
#define MAX_POOL 104
#define ROW_LIMIT 5 /* rule S3 */
#define EPSILON 10  /* playout.EPSILON */

enum { RANDOM = 0, GREEDY = 1, SAFE = 2, RANKED = 3 };
/* playout.RANK_WEIGHT: a card's weight by the fifth of the hand it ranks in */
static const int RANK_WEIGHT[5] = {10, 5, 5, 10, 30};

/* ---- the table: per row (last card, count, heads) ---- */

typedef struct {
    int last[4], count[4], heads[4];
} table_t;

static int HEADS[105];

static int card_heads(int c) { /* rule S4 */
    if (c == 55) return 7;
    if (c % 11 == 0) return 5;
    if (c % 10 == 0) return 3;
    if (c % 5 == 0) return 2;
    return 1;
}

static inline int target_row(const table_t *t, int card) {
    int target = -1, top = 0;
    for (int i = 0; i < 4; i++) {
        int last = t->last[i];
        if (top < last && last < card) {
            target = i;
            top = last;
        }
    }
    return target;
}

static inline int fewest_row(const table_t *t) {
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (t->heads[i] < t->heads[best]) best = i;
    return best;
}

static inline int card_cost(const table_t *t, int card) {
    int target = target_row(t, card);
    if (target < 0) return 1000 * t->heads[fewest_row(t)];
    int gap = card - t->last[target];
    return t->count[target] == ROW_LIMIT ? 1000 * t->heads[target] + gap : gap;
}

static inline int pick(uint64_t *state, const int *hand, int n, const table_t *t, int policy) {
    if (policy == RANDOM) return sm_below(state, n);
    if (policy == SAFE) {
        int costs[MAX_TURNS], low = 1 << 30, ties = 0;
        for (int i = 0; i < n; i++) {
            costs[i] = card_cost(t, hand[i]) / 1000;
            if (costs[i] < low) {
                low = costs[i];
                ties = 0;
            }
            if (costs[i] == low) ties++;
        }
        int k = sm_below(state, ties);
        for (int i = 0; i < n; i++)
            if (costs[i] == low && k-- == 0) return i;
        return 0; /* not reached */
    }
    if (policy == RANKED) {
        int weights[MAX_TURNS], total = 0;
        for (int i = 0; i < n; i++) {
            int below = 0;
            for (int j = 0; j < n; j++) below += hand[j] < hand[i];
            weights[i] = RANK_WEIGHT[5 * below / n];
            total += weights[i];
        }
        int r = sm_below(state, total);
        for (int i = 0; i < n; i++) {
            r -= weights[i];
            if (r < 0) return i;
        }
        return n - 1; /* not reached */
    }
    if (sm_below(state, 100) < EPSILON) return sm_below(state, n);
    int best = 1 << 30, index = 0;
    for (int i = 0; i < n; i++) {
        int cost = card_cost(t, hand[i]);
        if (cost < best) {
            best = cost;
            index = i;
        }
    }
    return index;
}

static inline int place(table_t *t, int card) {
    int target = target_row(t, card);
    if (target < 0) {
        target = fewest_row(t);
        int taken = t->heads[target];
        t->last[target] = card;
        t->count[target] = 1;
        t->heads[target] = HEADS[card];
        return taken;
    }
    if (t->count[target] == ROW_LIMIT) {
        int taken = t->heads[target];
        t->last[target] = card;
        t->count[target] = 1;
        t->heads[target] = HEADS[card];
        return taken;
    }
    t->last[target] = card;
    t->count[target]++;
    t->heads[target] += HEADS[card];
    return 0;
}

typedef struct {
    table_t start;
    int hand[MAX_TURNS];
    int turns;
    int pool[MAX_POOL];
    int pool_n;
    int others;
    int me, them;
    int objective; /* playout.Objective: 0 own heads, 1 the margin to the others */
} setup_t;

static int playout(uint64_t *state, const setup_t *s, int first) {
    int turns = s->turns, players = s->others + 1;
    int cards[MAX_POOL];
    int hands[MAX_PLAYERS][MAX_TURNS];
    int held[MAX_PLAYERS];
    for (int i = 0; i < s->pool_n; i++) cards[i] = s->pool[i];
    sm_shuffle(state, cards, s->pool_n);
    held[0] = 0;
    int removed = 0;
    for (int i = 0; i < turns; i++) {
        if (first && !removed && s->hand[i] == first) {
            removed = 1; /* list.remove: the first occurrence, order kept */
            continue;
        }
        hands[0][held[0]++] = s->hand[i];
    }
    for (int q = 0; q < s->others; q++) {
        for (int j = 0; j < turns; j++) hands[q + 1][j] = cards[q * turns + j];
        held[q + 1] = turns;
    }
    table_t t = s->start;
    int total = 0, rest = 0;
    for (int turn = 0; turn < turns; turn++) {
        int tc[MAX_PLAYERS], tp[MAX_PLAYERS];
        for (int p = 0; p < players; p++) {
            int card;
            if (p == 0 && turn == 0 && first) {
                card = first;
            } else {
                int i = pick(state, hands[p], held[p], &t, p == 0 ? s->me : s->them);
                card = hands[p][i];
                hands[p][i] = hands[p][held[p] - 1];
                held[p]--;
            }
            /* insertion by card (cards are distinct) */
            int k = p;
            while (k > 0 && tc[k - 1] > card) {
                tc[k] = tc[k - 1];
                tp[k] = tp[k - 1];
                k--;
            }
            tc[k] = card;
            tp[k] = p;
        }
        for (int k = 0; k < players; k++) {
            int taken = place(&t, tc[k]);
            if (tp[k] == 0)
                total += taken;
            else
                rest += taken;
        }
    }
    return s->objective == 1 ? s->others * total - rest : total;
}

static int read_ints(PyObject *list, int *out, int max, const char *what) {
    PyObject *seq = PySequence_Fast(list, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > max) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: more than %d entries", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

PyDoc_STRVAR(run_doc,
             "run(state, slots, hand, firsts, pool, others, budget, me, them, common, objective)"
             " -> (totals, done, state)\n\n"
             "playout.run_python in C: slots is the 12 numbers (last, count, heads)"
             " of rows 1-4; budget is pybind.h's (node_limit, deadline, memory, progress),"
             " a node one deal played out once per first card; returns the totals per"
             " first card, the deals played and the new SplitMix64 state.");

static PyObject *py_run(PyObject *self, PyObject *args) {
    unsigned long long state;
    PyObject *slots_o, *hand_o, *firsts_o, *pool_o, *budget_o;
    int others, me, them, common, objective;
    if (!PyArg_ParseTuple(args, "KOOOOiOiiii", &state, &slots_o, &hand_o, &firsts_o, &pool_o,
                          &others, &budget_o, &me, &them, &common, &objective))
        return NULL;
    Budget budget;
    if (py_budget(budget_o, &budget) < 0) return NULL;
    setup_t s;
    int flat[12];
    if (read_ints(slots_o, flat, 12, "slots") != 12) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "slots: 12 numbers");
        return NULL;
    }
    for (int i = 0; i < 4; i++) {
        s.start.last[i] = flat[3 * i];
        s.start.count[i] = flat[3 * i + 1];
        s.start.heads[i] = flat[3 * i + 2];
    }
    s.turns = read_ints(hand_o, s.hand, MAX_TURNS, "hand");
    if (s.turns < 0) return NULL;
    s.pool_n = read_ints(pool_o, s.pool, MAX_POOL, "pool");
    if (s.pool_n < 0) return NULL;
    int firsts[MAX_POOL];
    int nf = read_ints(firsts_o, firsts, MAX_POOL, "firsts");
    if (nf < 0) return NULL;
    for (int i = 0; i < s.turns; i++)
        if (s.hand[i] < 1 || s.hand[i] > 104) return PyErr_Format(PyExc_ValueError, "bad card");
    for (int i = 0; i < s.pool_n; i++)
        if (s.pool[i] < 1 || s.pool[i] > 104) return PyErr_Format(PyExc_ValueError, "bad card");
    if (others < 0 || others + 1 > MAX_PLAYERS || others * s.turns > s.pool_n)
        return PyErr_Format(PyExc_ValueError, "bad table size");
    s.others = others;
    s.me = me;
    s.them = them;
    s.objective = objective;
    long long totals[MAX_POOL] = {0};
    uint64_t st = (uint64_t)state;
    /* The GIL stays held: the budget's progress function is Python. */
    long long done = 0;
    int r;
    while ((r = budget_spent(&budget, done)) == BUDGET_GO_ON) {
        uint64_t seed = common ? sm_next(&st) : 0;
        for (int k = 0; k < nf; k++) {
            uint64_t sub = seed;
            totals[k] += playout(common ? &sub : &st, &s, firsts[k]);
        }
        done++;
    }
    if (r == BUDGET_FAIL) return NULL;
    PyObject *out = PyList_New(nf);
    if (!out) return NULL;
    for (int k = 0; k < nf; k++) PyList_SET_ITEM(out, k, PyLong_FromLongLong(totals[k]));
    return Py_BuildValue("(NLK)", out, done, (unsigned long long)st);
}

static PyMethodDef methods[] = {
    {"run", py_run, METH_VARARGS, run_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cplayout", "6 nimmt! playouts (see playout.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__cplayout(void) {
    for (int c = 1; c <= 104; c++) HEADS[c] = card_heads(c);
    return PyModule_Create(&module);
}
