/* The depth-first proof-number search (df-pn) of a duel, compiled: the loop
 * of ProofNumberSearch._mid (duel/pns.py, the reference) over a table of
 * unsettled numbers keyed by the packed position (three 64-bit words, not a
 * Python tuple). The rest stays where it is: each visit calls back the
 * search's ``_visit`` (budget, dominance, bounds, children in order) and
 * each settled value goes through its ``_store`` into the shared table of
 * proven positions, which this code reads as the Python dict it is (the
 * depth-first search and the lines read it too). So the visits, their
 * order and the values stored are the reference's, node for node.
 *
 * PairMap are int64: phi and delta reach INF (2^40) times the children
 * of a node at most, far below 2^63.
 */
#include "pns.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "hashtable.h"

/* ---- positions ----------------------------------------------------------- */

/* Pos (h0, h1, p0, p1, a0, d0, a1, d1, cur): both hands, then the seven
 * small values a byte each (cards 0..63 and piles of at most 64 cards:
 * ccore.covers). */
static int pack(PyObject *pos, SetKey *k) {
    if (!PyTuple_Check(pos) || PyTuple_GET_SIZE(pos) != 9) {
        PyErr_SetString(PyExc_TypeError, "a position is a tuple of 9 ints");
        return -1;
    }
    for (int q = 0; q < 2; q++) {
        k->w[q] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(pos, q));
        if (k->w[q] == (uint64_t)-1 && PyErr_Occurred()) return -1;
    }
    uint64_t small = 0;
    for (int i = 2; i < 9; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(pos, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 255) {
            PyErr_SetString(PyExc_ValueError, "a position's piles and tops fit a byte");
            return -1;
        }
        small |= (uint64_t)v << (8 * (i - 2));
    }
    k->w[2] = small;
    return 0;
}

static PyObject *unpack(const SetKey *k) {
    PyObject *t = PyTuple_New(9);
    if (!t) return NULL;
    for (int i = 0; i < 9; i++) {
        PyObject *v = i < 2 ? PyLong_FromUnsignedLongLong(k->w[i])
                            : PyLong_FromLong((long)(k->w[2] >> (8 * (i - 2)) & 0xff));
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* ---- the search ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PairMap nums;
    /* For one solve, borrowed (not kept: the search holds this object, and
     * a reference back would be a cycle the collector cannot see): the
     * ProofNumberSearch (_visit, _store) and its table of proven positions */
    PyObject *search, *tt;
    PyObject *visit_name, *store_name;
    size_t limit;
    int64_t inf, weight;
    double widen;        /* 1 + epsilon */
    int64_t eval_weight; /* 0: new children by rank alone */
    int deck_len[2];
} Pns;

typedef struct {
    int64_t phi, delta;
} PD;

/* -1 error, 0 not in the table, 1 in it (``*won`` its value) */
static int proven(Pns *S, PyObject *pos, int *won) {
    PyObject *got = PyDict_GetItemWithError(S->tt, pos);
    if (!got) return PyErr_Occurred() ? -1 : 0;
    *won = got == Py_True;
    return 1;
}

static int settle(Pns *S, PyObject *pos, const SetKey *k, int won, PD *out) {
    PyObject *r = PyObject_CallMethodObjArgs(S->search, S->store_name, pos,
                                             won ? Py_True : Py_False, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    pairmap_del(&S->nums, k);
    out->phi = won ? 0 : S->inf;
    out->delta = won ? S->inf : 0;
    return 0;
}

/* ProofNumberSearch._by_eval: a new child's numbers weighed by cards left
 * (hand and draw pile), its mover q against the other player p */
static inline void by_eval(const Pns *S, const SetKey *k, int64_t *phi, int64_t *delta) {
    const uint64_t small = k->w[2];
    const int q = (int)(small >> 48 & 0xff), p = 1 - q;
    const int at_q = (int)(small >> (8 * q) & 0xff), at_p = (int)(small >> (8 * p) & 0xff);
    const int64_t left_q = card_count64(k->w[q]) + S->deck_len[q] - at_q;
    const int64_t left_p = card_count64(k->w[p]) + S->deck_len[p] - at_p;
    if (left_q > left_p) *phi += S->eval_weight * (left_q - left_p);
    if (left_p > left_q) *delta += S->eval_weight * (left_p - left_q);
}

/* ProofNumberSearch._read: the numbers of the children ``kids`` (from the
 * view of their mover, the opponent), read once on entry, with their keys;
 * -1 with an exception set. */
static int read_children(Pns *S, PyObject *kids, SetKey *keys, int64_t *kphi, int64_t *kdelta) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(kids); i++) {
        PyObject *kid = PyList_GET_ITEM(kids, i);
        if (pack(kid, &keys[i]) < 0) return -1;
        int won, known = proven(S, kid, &won);
        if (known < 0) return -1;
        if (known) {
            kphi[i] = won ? 0 : S->inf;
            kdelta[i] = won ? S->inf : 0;
            continue;
        }
        size_t j = pairmap_slot(&S->nums, &keys[i]);
        if (S->nums.used[j]) {
            kphi[i] = S->nums.vals[j].first;
            kdelta[i] = S->nums.vals[j].second;
        } else {
            kphi[i] = 1;
            kdelta[i] = 1 + S->weight * (int64_t)i;
            if (S->eval_weight) by_eval(S, &keys[i], &kphi[i], &kdelta[i]);
        }
    }
    return 0;
}

/* The node's phi, the least delta of its children (``*best``: the first
 * child with it), and the second least in ``*second`` */
static inline int64_t least_delta(const Pns *S, const int64_t *kdelta, Py_ssize_t n,
                                  Py_ssize_t *best, int64_t *second) {
    int64_t phi = kdelta[0];
    *best = 0;
    *second = S->inf;
    for (Py_ssize_t i = 1; i < n; i++) {
        if (kdelta[i] < phi) {
            *second = phi;
            phi = kdelta[i];
            *best = i;
        } else if (kdelta[i] < *second) {
            *second = kdelta[i];
        }
    }
    return phi;
}

static int mid(Pns *S, PyObject *pos, const SetKey *k, int64_t th_phi, int64_t th_delta, PD *out);

/* The loop of _mid over the children ``kids`` of pos until its numbers
 * reach a threshold or settle it; -1 with an exception set. */
static int mid_loop(Pns *S, PyObject *pos, const SetKey *k, int64_t th_phi, int64_t th_delta,
                    PyObject *kids, PD *out) {
    const Py_ssize_t n = PyList_GET_SIZE(kids);
    int64_t *kphi = malloc(2 * n * sizeof(int64_t));
    SetKey *keys = malloc(n * sizeof(SetKey));
    int rc = -1;
    if (!kphi || !keys) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *kdelta = kphi + n;
    if (read_children(S, kids, keys, kphi, kdelta) < 0) goto done;
    for (;;) {
        Py_ssize_t best;
        int64_t second, delta = 0;
        const int64_t phi = least_delta(S, kdelta, n, &best, &second);
        if (phi == 0) {
            rc = settle(S, pos, k, 1, out); /* a child proven lost for the opponent */
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) delta += kphi[i];
        if (delta == 0) {
            rc = settle(S, pos, k, 0, out); /* every child proven won for them */
            goto done;
        }
        if (delta > S->inf - 1) delta = S->inf - 1;
        if (phi >= th_phi || delta >= th_delta) {
            if (S->nums.count >= S->limit) pairmap_clear(&S->nums);
            if (!pairmap_put(&S->nums, k, phi, delta)) {
                PyErr_NoMemory();
                goto done;
            }
            *out = (PD){phi, delta};
            rc = 0;
            goto done;
        }
        /* As in Python: int(second * (1 + EPSILON)) + 1, in doubles */
        int64_t kid_th_delta = (int64_t)((double)second * S->widen) + 1;
        if (kid_th_delta > th_phi) kid_th_delta = th_phi;
        const int64_t kid_th_phi = th_delta - (delta - kphi[best]);
        PD got;
        if (mid(S, PyList_GET_ITEM(kids, best), &keys[best], kid_th_phi, kid_th_delta, &got) < 0)
            goto done;
        kphi[best] = got.phi;
        kdelta[best] = got.delta;
    }
done:
    free(kphi);
    free(keys);
    return rc;
}

/* ProofNumberSearch._mid: pos's numbers into ``out``, searched until they
 * reach the thresholds; -1 with an exception set. */
static int mid(Pns *S, PyObject *pos, const SetKey *k, int64_t th_phi, int64_t th_delta, PD *out) {
    int won, known = proven(S, pos, &won);
    if (known < 0) return -1;
    if (known) {
        out->phi = won ? 0 : S->inf;
        out->delta = won ? S->inf : 0;
        return 0;
    }
    const int fresh = !S->nums.used[pairmap_slot(&S->nums, k)];
    PyObject *r = PyObject_CallMethodObjArgs(S->search, S->visit_name, pos,
                                             fresh ? Py_True : Py_False, NULL);
    if (!r) return -1;
    if (PyBool_Check(r)) {
        won = r == Py_True;
        Py_DECREF(r);
        return settle(S, pos, k, won, out);
    }
    if (!PyList_Check(r) || PyList_GET_SIZE(r) == 0) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_TypeError, "_visit gives a value or the children to search");
        return -1;
    }
    const int rc = mid_loop(S, pos, k, th_phi, th_delta, r, out);
    Py_DECREF(r);
    return rc;
}

/* ---- the Python type ------------------------------------------------------ */

static int pns_init(Pns *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"weight", "inf", "len0", "len1", NULL};
    long long weight, inf;
    int len0, len1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "LLii", names, &weight, &inf, &len0, &len1))
        return -1;
    if (inf <= 0 || inf > ((long long)1 << 50) || weight < 0 || len0 < 0 || len0 > 255 ||
        len1 < 0 || len1 > 255) {
        PyErr_SetString(PyExc_ValueError, "inf in 1..2^50, weight >= 0, decks of 0..255 cards");
        return -1;
    }
    self->deck_len[0] = len0;
    self->deck_len[1] = len1;
    self->weight = weight;
    self->inf = inf;
    if (!self->visit_name) self->visit_name = PyUnicode_InternFromString("_visit");
    if (!self->store_name) self->store_name = PyUnicode_InternFromString("_store");
    if (!self->visit_name || !self->store_name) return -1;
    pairmap_free(&self->nums);
    if (!pairmap_init(&self->nums, 1 << 10)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void pns_dealloc(Pns *self) {
    pairmap_free(&self->nums);
    Py_XDECREF(self->visit_name);
    Py_XDECREF(self->store_name);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyDoc_STRVAR(solve_doc, "solve(search, pos, tt, limit, widen, eval_weight) -> bool\n--\n\n"
                        "df-pn from pos with infinite thresholds (ProofNumberSearch._mid):\n"
                        "whether its mover wins. search: the ProofNumberSearch called back\n"
                        "(_visit, _store); tt: its proven positions; limit: the\n"
                        "unsettled numbers kept at most (the table is cleared when full);\n"
                        "widen: 1 + epsilon; eval_weight: 0, or the weight of the cards-left\n"
                        "evaluation in a new child's numbers.");

static PyObject *pns_solve(Pns *self, PyObject *args) {
    PyObject *search, *pos, *tt;
    Py_ssize_t limit;
    double widen;
    long long eval_weight;
    if (!PyArg_ParseTuple(args, "OOO!ndL", &search, &pos, &PyDict_Type, &tt, &limit, &widen,
                          &eval_weight))
        return NULL;
    if (widen < 1.0 || eval_weight < 0 || eval_weight > ((long long)1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "widen >= 1, eval_weight in 0..2^20");
        return NULL;
    }
    if (!self->nums.used) {
        PyErr_SetString(PyExc_RuntimeError, "Pns not initialised");
        return NULL;
    }
    /* Saved and restored: a solve from inside a callback (none does so
     * today) must not leave this one reading another table. */
    PyObject *outer_search = self->search, *outer_tt = self->tt;
    const size_t outer_limit = self->limit;
    const double outer_widen = self->widen;
    const int64_t outer_eval = self->eval_weight;
    self->widen = widen;
    self->eval_weight = eval_weight;
    SetKey k;
    int rc = pack(pos, &k);
    PD out;
    if (rc == 0) {
        self->search = search;
        self->tt = tt;
        self->limit = limit > 0 ? (size_t)limit : 0;
        rc = mid(self, pos, &k, self->inf, self->inf, &out);
    }
    self->search = outer_search;
    self->tt = outer_tt;
    self->limit = outer_limit;
    self->widen = outer_widen;
    self->eval_weight = outer_eval;
    if (rc < 0) return NULL;
    if (out.phi != 0 && out.delta != 0) {
        PyErr_SetString(PyExc_AssertionError, "df-pn from infinite thresholds settles the position");
        return NULL;
    }
    return PyBool_FromLong(out.phi == 0);
}

static PyObject *pns_items(Pns *self, PyObject *noargs) {
    (void)noargs;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (size_t i = 0; i < self->nums.cap; i++) {
        if (!self->nums.used[i]) continue;
        PyObject *key = unpack(&self->nums.keys[i]);
        PyObject *val = Py_BuildValue("(LL)", (long long)self->nums.vals[i].first,
                                      (long long)self->nums.vals[i].second);
        if (!key || !val || PyDict_SetItem(d, key, val) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(val);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(val);
    }
    return d;
}

static PyObject *pns_clear(Pns *self, PyObject *noargs) {
    (void)noargs;
    pairmap_clear(&self->nums);
    Py_RETURN_NONE;
}

static Py_ssize_t pns_len(Pns *self) { return (Py_ssize_t)self->nums.count; }

static PyMethodDef pns_methods[] = {
    {"solve", (PyCFunction)pns_solve, METH_VARARGS, solve_doc},
    {"numbers", (PyCFunction)pns_items, METH_NOARGS,
     "numbers() -> dict: the unsettled positions' (phi, delta)."},
    {"clear", (PyCFunction)pns_clear, METH_NOARGS, "Empties the numbers table."},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods pns_mapping = {.mp_length = (lenfunc)pns_len};

static PyTypeObject PnsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game.duel._cduel.Pns",
    .tp_basicsize = sizeof(Pns),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Pns(weight, inf, len0, len1): ProofNumberSearch's df-pn, compiled.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)pns_init,
    .tp_dealloc = (destructor)pns_dealloc,
    .tp_methods = pns_methods,
    .tp_as_mapping = &pns_mapping,
};

int pns_add_type(PyObject *module) {
    if (PyType_Ready(&PnsType) < 0) return -1;
    Py_INCREF(&PnsType);
    if (PyModule_AddObject(module, "Pns", (PyObject *)&PnsType) < 0) {
        Py_DECREF(&PnsType);
        return -1;
    }
    return 0;
}
