/* The module ``thegame.solver.the_game._ckernel``: the conversions between
 * Python ints and card masks, the search entry (``Core._search``), the
 * ``DeadSet`` type and the module's init. */
#include "bindings.h"

int int_list(PyObject *seq, int *out, int n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

int mask_list(PyObject *seq, CardMask *out, int n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (py_to_mask(PySequence_Fast_GET_ITEM(f, i), &out[i]) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}


static PyObject *line_to_list(const Line *l) {
    PyObject *out = PyList_New(l->n);
    if (!out) return NULL;
    for (int i = 0; i < l->n; i++) {
        PyObject *t = Py_BuildValue("(ii)", l->a[i].c, l->a[i].p);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* ---- the search entry (Core._search) ---------------------------------------- */

/* ``shared`` (None, or a DeadSet of this game's shape, whose keys have
 * the same layout) into ``*shared``; 0 with an exception set */
static int read_shared(const Kernel *k, PyObject *shared_o, DeadSetObject **shared) {
    *shared = NULL;
    if (shared_o == Py_None) return 1;
    if (!PyObject_TypeCheck(shared_o, &DeadSetType)) {
        PyErr_SetString(PyExc_TypeError, "shared must be a DeadSet");
        return 0;
    }
    *shared = (DeadSetObject *)shared_o;
    if ((*shared)->n_asc != k->n_asc || (*shared)->n_piles != k->n_piles ||
        (*shared)->players != k->players || (*shared)->extreme != k->extreme ||
        memcmp(&(*shared)->ks, &k->ks, sizeof(KeyShape)) != 0) {
        PyErr_SetString(PyExc_ValueError, "the shared DeadSet is of another game shape");
        return 0;
    }
    return 1;
}

/* _search's arguments into ``set`` and ``budget`` (and the shared DeadSet or
 * NULL); 0 with an exception set when they do not fit this kernel */
static int read_settings(CoreObject *self, PyObject *args, PyObject *kwargs, SearchSettings *set,
                         Budget *budget, DeadSetObject **shared) {
    static char *names[] = {"mode",     "beam_widths", "branch", "per_parent", "extra_cost",
                            "endgame",  "budget",      "shared", "beams_only", "share_all",
                            NULL};
    int mode;
    PyObject *widths, *budget_o, *shared_o = Py_None;
    memset(set, 0, sizeof *set);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOiiiiO|Opp", names, &mode, &widths,
                                     &set->branch, &set->per_parent, &set->extra_cost,
                                     &set->endgame, &budget_o, &shared_o, &set->beams_only,
                                     &set->share_all))
        return 0;
    if (py_budget(budget_o, budget) < 0) return 0;
    const Kernel *k = &self->k;
    if (!read_shared(k, shared_o, shared)) return 0;
    if (mode < MODE_PLAY || mode > MODE_EXTREME) {
        PyErr_SetString(PyExc_ValueError, "no such search mode");
        return 0;
    }
    set->mode = (SearchMode)mode;
    if (mode == MODE_TURN && k->players != 1) {
        PyErr_SetString(PyExc_ValueError, "the solo turn search is for solo games");
        return 0;
    }
    /* the classic turn listers know no commands, the Extreme one no fire */
    if (mode != MODE_PLAY && (mode == MODE_EXTREME) != k->extreme) {
        PyErr_SetString(PyExc_ValueError, "this search mode is not for these rules");
        return 0;
    }
    Py_ssize_t nw = PySequence_Size(widths);
    if (nw < 0) return 0;
    if (nw > MAX_BEAM_WIDTHS) {
        PyErr_SetString(PyExc_ValueError, "too many beam widths");
        return 0;
    }
    set->n_widths = (int)nw;
    if (int_list(widths, set->widths, set->n_widths, "beam_widths") < 0) return 0;
    return 1;
}

/* _search(mode, beam_widths, branch, per_parent, extra_cost, endgame, budget,
 *         shared=None, beams_only=False, share_all=False) -> (win, proven, actions,
 *         best_left, nodes, iterations, dead_positions, dead_card_cuts, stuck_cuts,
 *         dominated, dead_set)
 * ``budget``: (node_limit, deadline, memory, progress), pybind.h's py_budget.
 * Searches from a copy of the position: the kernel itself does not move. */
PyObject *core_search(CoreObject *self, PyObject *args, PyObject *kwargs) {
    SearchSettings set;
    Budget budget;
    DeadSetObject *shared;
    if (!check_configured(self) || !read_settings(self, args, kwargs, &set, &budget, &shared))
        return NULL;
    Kernel k = self->k; /* the search moves a copy */
    int kw = k.ks.kw;
    DeadSetObject *ds = dead_set_new(k.n_asc, k.n_piles, k.players, k.extreme, k.ks,
                                     slots_for(budget.memory / 2, kw, 4 + 1));
    if (!ds) return NULL;
    Search s;
    if (!search_init(&s, &k, &set, &budget, &ds->t, shared ? &shared->t : NULL)) {
        Py_DECREF(ds);
        return PyErr_NoMemory();
    }
    if (shared && shared->journal.on) s.memo.journal = &shared->journal;
    int win, proven;
    search_run(&s, &win, &proven);
    ds->chained = (long long)s.memo.gn;
    PyObject *result = NULL;
    if (s.error == SEARCH_OUT_OF_MEMORY) {
        PyErr_NoMemory();
    } else if (!s.error) { /* else the progress function's exception is set */
        PyObject *actions = line_to_list(win ? &s.path : &s.best_path);
        if (actions)
            result = Py_BuildValue("(OONiLLnLLLO)", win ? Py_True : Py_False,
                                   proven ? Py_True : Py_False, actions, win ? 0 : s.best_left,
                                   s.nodes, s.iterations, (Py_ssize_t)ds->t.count,
                                   s.dead_card_cuts, s.stuck_cuts, s.memo.dominated,
                                   (PyObject *)ds);
    }
    search_free(&s);
    Py_DECREF(ds);
    return result;
}

/* ---- DeadSet ------------------------------------------------------------------ */

/* DeadSet: the positions a compiled search proved to have no perfect clear,
 * asked with Python memo keys (``key in dead``), as the branch and bound does. */
static void deadset_dealloc(DeadSetObject *self) {
    tab_free(&self->t);
    free(self->journal.keys);
    free(self->journal.vals);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t deadset_len(DeadSetObject *self) { return (Py_ssize_t)self->t.count; }

static int deadset_contains(DeadSetObject *self, PyObject *key) {
    int np = self->n_piles, pl = self->players, x = self->extreme;
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != np + pl + 3 + x) return 0;
    int marked[KERNEL_MAX_PILES], tail[4];
    CardMask hands[KERNEL_MAX_PLAYERS];
    for (int i = 0; i < np; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(key, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || (x && v > 255)) return 0; /* not a key of this game */
        /* Extreme marks are 2 * top + bit already (make_key) */
        marked[i] = x ? (int)v : v >= 1000 ? (int)(v - 1000) | 128 : (int)v;
    }
    for (int p = 0; p < pl; p++)
        if (py_to_mask(PyTuple_GET_ITEM(key, np + p), &hands[p]) < 0) return -1;
    for (int i = 0; i < 3 + x; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(key, np + pl + i));
        if (v == -1 && PyErr_Occurred()) return -1;
        tail[i] = (int)v;
    }
    uint64_t w[MAX_KEY_WORDS];
    if (key_words(&self->ks, self->n_asc, np, pl, marked, hands, tail[0], tail[1], tail[2],
                  x ? tail[3] : 0, w) < 0)
        return 0; /* not a key of this game */
    return tab_get(&self->t, w) != NULL;
}

static PySequenceMethods deadset_seq = {
    .sq_length = (lenfunc)deadset_len,
    .sq_contains = (objobjproc)deadset_contains,
};

static PyObject *deadset_replaced(DeadSetObject *self, void *c) {
    (void)c;
    return PyLong_FromLongLong(self->t.replaced);
}

static PyObject *deadset_chained(DeadSetObject *self, void *c) {
    (void)c;
    return PyLong_FromLongLong(self->chained);
}

static PyGetSetDef deadset_getset[] = {
    {"replaced", (getter)deadset_replaced, NULL, "keys put out of the full memo", NULL},
    {"chained", (getter)deadset_chained, NULL, "positions in the search's chains of dominance",
     NULL},
    {NULL},
};

/* dump() -> bytes: every entry, its key words then its value, for a
 * checkpoint of the split search (parallel.py); load(bytes) puts such
 * entries back (a full table keeps the costlier ones, as the search does). */
static PyObject *deadset_dump(DeadSetObject *self, PyObject *noargs) {
    (void)noargs;
    const Table *t = &self->t;
    size_t rec = (size_t)t->kw * sizeof(uint64_t) + sizeof(int32_t);
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(t->count * rec));
    if (!b) return NULL;
    char *p = PyBytes_AS_STRING(b);
    size_t n = 0;
    for (size_t i = 0; i < t->cap && n < t->count; i++) {
        if (!t->used[i]) continue;
        memcpy(p, t->keys + i * t->kw, (size_t)t->kw * sizeof(uint64_t));
        int32_t val = keep_worth(t->vals[i]); /* without tab_keep's level mark */
        memcpy(p + (size_t)t->kw * sizeof(uint64_t), &val, sizeof(int32_t));
        p += rec;
        n++;
    }
    return b;
}

static PyObject *deadset_load(DeadSetObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    Table *t = &self->t;
    size_t rec = (size_t)t->kw * sizeof(uint64_t) + sizeof(int32_t);
    if ((size_t)view.len % rec != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "not a dump of a table of this game's shape");
        return NULL;
    }
    uint64_t key[MAX_KEY_WORDS];
    const char *p = view.buf;
    for (size_t off = 0; off < (size_t)view.len; off += rec) {
        int32_t val;
        memcpy(key, p + off, (size_t)t->kw * sizeof(uint64_t));
        memcpy(&val, p + off + (size_t)t->kw * sizeof(uint64_t), sizeof(int32_t));
        tab_keep(t, key, keep_worth(val));
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* journal(min_bits): from now on, the entries the searches put in this
 * table with a value of at least ``min_bits`` (0: none) are also kept
 * aside; take() -> bytes returns them as dump() does and empties the
 * journal. The split search's workers trade them; load() does not journal. */
static PyObject *deadset_journal(DeadSetObject *self, PyObject *arg) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    self->journal.kw = self->t.kw;
    self->journal.min_val = (int32_t)v;
    self->journal.on = v > 0;
    Py_RETURN_NONE;
}

static PyObject *deadset_take(DeadSetObject *self, PyObject *noargs) {
    (void)noargs;
    Journal *j = &self->journal;
    size_t kb = (size_t)self->t.kw * sizeof(uint64_t), rec = kb + sizeof(int32_t);
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(j->n * rec));
    if (!b) return NULL;
    char *p = PyBytes_AS_STRING(b);
    for (size_t i = 0; i < j->n; i++, p += rec) {
        memcpy(p, j->keys + i * (size_t)self->t.kw, kb);
        memcpy(p + kb, &j->vals[i], sizeof(int32_t));
    }
    j->n = 0;
    return b;
}

static PyMethodDef deadset_methods[] = {
    {"dump", (PyCFunction)deadset_dump, METH_NOARGS, "every entry as bytes"},
    {"load", (PyCFunction)deadset_load, METH_O, "put back the entries of a dump"},
    {"journal", (PyCFunction)deadset_journal, METH_O, "keep new entries of this value aside"},
    {"take", (PyCFunction)deadset_take, METH_NOARGS, "the entries kept aside, as bytes"},
    {NULL},
};

PyTypeObject DeadSetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game._ckernel.DeadSet",
    .tp_basicsize = sizeof(DeadSetObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Positions a compiled search proved dead, asked by Python memo key.",
    .tp_dealloc = (destructor)deadset_dealloc,
    .tp_as_sequence = &deadset_seq,
    .tp_getset = deadset_getset,
    .tp_methods = deadset_methods,
};

DeadSetObject *dead_set_new(int n_asc, int n_piles, int players, int extreme, KeyShape ks,
                            size_t slots) {
    DeadSetObject *ds = PyObject_New(DeadSetObject, &DeadSetType);
    if (!ds) return NULL;
    ds->n_asc = n_asc;
    ds->n_piles = n_piles;
    ds->players = players;
    ds->extreme = extreme;
    ds->ks = ks;
    ds->chained = 0;
    memset(&ds->journal, 0, sizeof ds->journal);
    if (!tab_init(&ds->t, ks.kw, slots)) {
        Py_DECREF(ds); /* its dealloc frees what tab_init got */
        PyErr_NoMemory();
        return NULL;
    }
    return ds;
}

/* new_dead_set(n_asc, n_piles, players, hand_size, size, total, min_play, memo_bytes[,
 * extreme]): an empty DeadSet to share between searches of one deal (``_search``'s
 * ``shared``); the kernel's shape, so its keys have the same layout */
static PyObject *new_dead_set(PyObject *mod, PyObject *args) {
    (void)mod;
    int n_asc, n_piles, players, hand_size, size, total, min_play, extreme = 0;
    Py_ssize_t memo_bytes;
    if (!PyArg_ParseTuple(args, "iiiiiiin|p", &n_asc, &n_piles, &players, &hand_size, &size,
                          &total, &min_play, &memo_bytes, &extreme))
        return NULL;
    if (players < 1 || players > KERNEL_MAX_PLAYERS || n_piles < 1 ||
        n_piles > KERNEL_MAX_PILES || n_asc < 0 || n_asc > n_piles || memo_bytes < 0 ||
        hand_size < 0 || size < 2 || size > KERNEL_MAX_SIZE || total < 0 ||
        total > KERNEL_MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "no such game shape");
        return NULL;
    }
    KeyShape ks = key_shape(players, hand_size, size, total, min_play, extreme);
    return (PyObject *)dead_set_new(n_asc, n_piles, players, extreme, ks,
                                    slots_for((size_t)memo_bytes, ks.kw, 4 + 1));
}

static PyMethodDef module_methods[] = {
    {"new_dead_set", (PyCFunction)new_dead_set, METH_VARARGS, NULL},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ckernel",
    .m_doc = "The compiled search kernel (see ckernel.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__ckernel(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    /* Built with -mpopcnt (setup.py, x86-64): refuse to load on a CPU
     * without it, so ckernel.py falls back to the Python kernel instead of
     * the process dying on an illegal instruction. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_ckernel needs a CPU with POPCNT");
        return NULL;
    }
#endif
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&DeadSetType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&DeadSetType);
    if (PyModule_AddObject(m, "DeadSet", (PyObject *)&DeadSetType) < 0) {
        Py_DECREF(&DeadSetType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "INF", INF);
    PyModule_AddIntConstant(m, "MAX_SIZE", KERNEL_MAX_SIZE);
    PyModule_AddIntConstant(m, "MAX_PILES", KERNEL_MAX_PILES);
    PyModule_AddIntConstant(m, "MAX_PLAYERS", KERNEL_MAX_PLAYERS);
    return m;
}


