/* What the CPython bindings of the compiled kernels share: 128-bit card
 * masks to and from Python ints (one conversion, one error convention),
 * and a Budget (budget.h) read from Python. Only bindings include this:
 * the search cores are plain C.
 *
 * Public C API only (the private byte-array and bit-count calls change
 * between Python versions). */
#ifndef THEGAME_PYBIND_H
#define THEGAME_PYBIND_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "budget.h"
#include "cards.h"

/* A Python int as a 128-bit mask: 0, or -1 with an exception set
 * (TypeError: not an int; ValueError: negative or past 128 bits) */
static inline int py_to_mask(PyObject *o, CardMask *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a card mask must be an int");
        return -1;
    }
    PyObject *sh = PyLong_FromLong(64);
    if (!sh) return -1;
    PyObject *high = PyNumber_Rshift(o, sh);
    Py_DECREF(sh);
    if (!high) return -1;
    /* negative, or 2**64 and more above the low word: OverflowError */
    unsigned long long hi = PyLong_AsUnsignedLongLong(high);
    Py_DECREF(high);
    if (hi == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a card mask must fit in 128 bits, not negative");
        }
        return -1;
    }
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(o);
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = ((CardMask)hi << 64) | lo;
    return 0;
}

/* A 128-bit mask as a Python int (NULL with an exception set) */
static inline PyObject *py_from_mask(CardMask x) {
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *sh = PyLong_FromLong(64), *r = NULL;
    if (h && l && sh) {
        PyObject *hs = PyNumber_Lshift(h, sh);
        if (hs) {
            r = PyNumber_Or(hs, l);
            Py_DECREF(hs);
        }
    }
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(sh);
    return r;
}

/* The Python side of a budget's progress: the callable (or none) with the
 * node count, True from it stops the search as if the budget ran out
 * (Ctrl-C asking for the best so far, models/interrupt.py); an exception
 * fails it. Every 65536 nodes the signal handlers run too (Ctrl-C). */
static inline int py_progress(void *callable, long long nodes) {
    if (callable) {
        PyObject *r = PyObject_CallFunction((PyObject *)callable, "L", nodes);
        if (!r) return BUDGET_FAIL;
        int stop = r == Py_True;
        Py_DECREF(r);
        if (stop) return BUDGET_STOP;
    }
    if ((nodes & 0xffff) == 0 && PyErr_CheckSignals() < 0) return BUDGET_FAIL;
    return BUDGET_GO_ON;
}

/* A budget from its Python form ``(node_limit, deadline, memory, progress)``
 * (ckernel.c_budget makes it from a Limit): node_limit an int (None: none),
 * deadline time.monotonic() seconds or None, memory bytes, progress a
 * callable or None. 0, or -1 with an exception set. The callable is
 * borrowed: the tuple must outlive the search. */
static inline int py_budget(PyObject *o, Budget *b) {
    PyObject *nodes, *deadline, *progress;
    Py_ssize_t memory;
    if (!PyTuple_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a budget is a tuple (node_limit, deadline, memory, progress)");
        return -1;
    }
    if (!PyArg_ParseTuple(o, "OOnO;a budget is (node_limit, deadline, memory, progress)", &nodes,
                          &deadline, &memory, &progress))
        return -1;
    if (memory < 0) {
        PyErr_SetString(PyExc_ValueError, "a budget's memory must not be negative");
        return -1;
    }
    *b = budget_make((size_t)memory);
    if (nodes != Py_None) {
        b->node_limit = PyLong_AsLongLong(nodes);
        if (b->node_limit == -1 && PyErr_Occurred()) return -1;
    }
    b->has_deadline = deadline != Py_None;
    if (b->has_deadline) {
        b->deadline = PyFloat_AsDouble(deadline);
        if (b->deadline == -1.0 && PyErr_Occurred()) return -1;
    }
    b->progress = py_progress;
    b->progress_ctx = progress == Py_None ? NULL : progress;
    return 0;
}

#endif
