/* The CPython bindings of the search kernel: the ``Core`` type (core.c), the
 * position with the Kernel interface and the search entry; the ``DeadSet``
 * type and the module (module.c). */
#ifndef THEGAME_BINDINGS_H
#define THEGAME_BINDINGS_H

#include "pybind.h"
#include "search.h"

typedef struct {
    PyObject_HEAD
    Kernel k;
    int configured;
} CoreObject;

/* The positions a compiled search proved dead, asked by Python memo key */
typedef struct {
    PyObject_HEAD
    Table t;
    long long chained; /* positions the search put in its chains of dominance */
    int n_asc, n_piles, players, extreme; /* the game shape its keys are of */
    KeyShape ks;
    Journal journal; /* its new entries for other processes (``journal``, ``take``) */
} DeadSetObject;

extern PyTypeObject CoreType;
extern PyTypeObject DeadSetType;

/* Lists between Python and C (module.c; a mask is pybind.h's); -1 with
 * an exception set when a value does not fit */
int int_list(PyObject *seq, int *out, int n, const char *what);
int mask_list(PyObject *seq, CardMask *out, int n, const char *what);

/* An empty DeadSet of ``slots`` slots at most, for keys of this shape */
DeadSetObject *dead_set_new(int n_asc, int n_piles, int players, int extreme, KeyShape ks,
                            size_t slots);

/* Core._search (module.c) */
PyObject *core_search(CoreObject *self, PyObject *args, PyObject *kwargs);

int check_configured(CoreObject *o);

#endif
