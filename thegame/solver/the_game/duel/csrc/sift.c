/* The methods of _cduel.Game over the search's own tables (duel/search.py,
 * duel/pns.py): dominance (DuelSearch._by_dominance), sift
 * (DuelSearch._sift) and numbers (ProofNumberSearch._read). */
#include <stdlib.h>

#include "bindings.h"

/* The scan behind game_dominance: 1 a win for pos's mover, 0 a loss, -1
 * neither, -2 an error (set). */
static int scan_known(const DuelRules *g, const DuelPos *pos, PyObject *known) {
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

PyObject *game_dominance(GameObject *self, PyObject *args) {
    PyObject *pos_obj, *known;
    DuelPos pos;
    if (!PyArg_ParseTuple(args, "OO!", &pos_obj, &PyList_Type, &known)) return NULL;
    if (!read_pos(&self->rules, pos_obj, &pos)) return NULL;
    const int r = scan_known(&self->rules, &pos, known);
    if (r == -2) return NULL;
    if (r == -1) Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

typedef struct {
    int score;
    Py_ssize_t at;
} Ranked;

static int by_score(const void *x, const void *y) {
    const Ranked *a = x, *b = y;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return a->at < b->at ? -1 : (a->at > b->at);
}

/* What is known of a child's position ``after``: 0 / 1 the opponent (its
 * mover) loses / wins, -1 unknown, -2 an error (set). Read from the table
 * ``tt`` (``*hit`` set), else by dominance from the child's group in
 * ``by_cards`` (a dict, or None: not read; ``*dominated`` set). */
static int child_value(const DuelRules *g, PyObject *after, PyObject *tt, PyObject *by_cards,
                       int *hit, int *dominated) {
    *hit = *dominated = 0;
    PyObject *known = PyDict_GetItemWithError(tt, after);
    if (known) {
        *hit = 1;
        const int value = PyObject_IsTrue(known);
        return value < 0 ? -2 : value;
    }
    if (PyErr_Occurred()) return -2;
    if (by_cards == Py_None) return -1;
    DuelPos at;
    if (!read_pos(g, after, &at)) return -2;
    PyObject *key = cards_key(&at);
    if (!key) return -2;
    PyObject *group = PyDict_GetItemWithError(by_cards, key);
    Py_DECREF(key);
    if (!group && PyErr_Occurred()) return -2;
    if (!group || !PyList_Check(group) || PyList_GET_SIZE(group) == 0) return -1;
    const int value = scan_known(g, &at, group);
    *dominated = value >= 0;
    return value;
}

/* The positions of the children ``later`` names, sorted by score, ties in
 * their order */
static PyObject *sorted_children(PyObject *kids, Ranked *later, Py_ssize_t n_later) {
    qsort(later, (size_t)n_later, sizeof(Ranked), by_score);
    PyObject *list = PyList_New(n_later);
    if (!list) return NULL;
    for (Py_ssize_t k = 0; k < n_later; k++) {
        PyObject *after = PyTuple_GET_ITEM(PyList_GET_ITEM(kids, later[k].at), 0);
        Py_INCREF(after);
        PyList_SET_ITEM(list, k, after);
    }
    return list;
}

PyObject *game_sift(GameObject *self, PyObject *args) {
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
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *kid = PyList_GET_ITEM(kids, i);
        if (!PyTuple_Check(kid) || PyTuple_GET_SIZE(kid) != 3) {
            PyErr_SetString(PyExc_ValueError, "a child is (position, score, has_turn)");
            goto done;
        }
        PyObject *after = PyTuple_GET_ITEM(kid, 0);
        int hit, by_dominance;
        const int value = child_value(&self->rules, after, tt, by_cards, &hit, &by_dominance);
        if (value == -2) goto done;
        dominated += by_dominance;
        if (value == 0) { /* lost for the opponent: this node is won */
            hits += hit;
            result = Py_BuildValue("(iOll)", 3, after, dominated, hits);
            goto done;
        }
        if (value == 1) continue;
        const int moves = PyObject_IsTrue(PyTuple_GET_ITEM(kid, 2));
        if (moves < 0) goto done;
        if (!moves) { /* the opponent has no turn (D6) */
            result = Py_BuildValue("(iOll)", 4, after, dominated, hits);
            goto done;
        }
        const long sc = PyLong_AsLong(PyTuple_GET_ITEM(kid, 1));
        if (sc == -1 && PyErr_Occurred()) goto done;
        later[n_later++] = (Ranked){(int)sc, i};
    }
    PyObject *list = sorted_children(kids, later, n_later);
    if (list) result = Py_BuildValue("(iNll)", 2, list, dominated, hits);
done:
    free(later);
    return result;
}

PyObject *game_numbers(GameObject *self, PyObject *args) {
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
