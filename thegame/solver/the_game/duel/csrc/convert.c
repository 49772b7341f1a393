/* Positions between Python's tuples and DuelPos, and the turn lists'
 * tuples. */
#include "bindings.h"

/* Python's Pos tuple, unchecked */
static int parse_pos(PyObject *o, DuelPos *pos) {
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

static int check_pos(const DuelRules *g, const DuelPos *pos) {
    if (pos->cur < 0 || pos->cur > 1) return 0;
    for (int q = 0; q < 2; q++) {
        if (pos->at[q] < 0 || pos->at[q] > g->deck_len[q]) return 0;
        if (pos->a[q] < -1 || pos->a[q] > MAX_CARD + 1 || pos->d[q] < -1 ||
            pos->d[q] > MAX_CARD + 1)
            return 0;
    }
    return 1;
}

int read_pos(const DuelRules *g, PyObject *o, DuelPos *pos) {
    if (!parse_pos(o, pos)) return 0;
    if (!check_pos(g, pos)) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return 0;
    }
    return 1;
}

int solo_in_range(const DuelRules *g, int p, const SoloState *st) {
    if (p < 0 || p > 1 || st->at < 0 || st->at > g->deck_len[p] || st->a < -1 ||
        st->a > MAX_CARD + 1 || st->d < -1 || st->d > MAX_CARD + 1) {
        PyErr_SetString(PyExc_ValueError, "solo state out of range");
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

PyObject *pos_tuple(const DuelPos *pos) {
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
PyObject *cards_key(const DuelPos *pos) {
    PyObject *items[5] = {
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[0]),
        PyLong_FromUnsignedLongLong((unsigned long long)pos->h[1]),
        PyLong_FromLong(pos->at[0]), PyLong_FromLong(pos->at[1]),
        PyLong_FromLong(pos->cur),
    };
    return pack(items, 5);
}

/* A turn's plays as ((card, pile), ...); NULL on error. */
PyObject *plays_tuple(const uint8_t *cards, const uint8_t *piles, int n) {
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
PyObject *turn_pair(PyObject *plays, PyObject *after) {
    PyObject *item = plays && after ? PyTuple_Pack(2, plays, after) : NULL;
    Py_XDECREF(plays);
    Py_XDECREF(after);
    return item;
}
