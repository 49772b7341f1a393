/* The module _ctable: the type Search, one TableSolver (a goal for a seat of
 * a deal) with its transposition table, searched in C (ctable.py). */
#include "pybind.h" /* Python.h first */

#include <string.h>

#include "ctable.h"

typedef struct {
    PyObject_HEAD
    Search s;
    PyObject *losses; /* the SearchObject whose table s.losses reads */
    PyObject *budget; /* during prove: the NodeCounter */
} SearchObject;

static PyTypeObject SearchType;

/* A key tuple (small, hand, ...) into words; 0 with an exception set */
static int read_key(const SearchObject *self, PyObject *o, uint64_t *key) {
    int n = self->s.d.n;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 1 + n) {
        PyErr_SetString(PyExc_ValueError, "a key is a tuple of the small fields and every hand");
        return 0;
    }
    u128 v;
    if (py_to_mask(PyTuple_GET_ITEM(o, 0), &v) < 0) return 0;
    key[0] = (uint64_t)v;
    for (int i = 0; i < n; i++) {
        if (py_to_mask(PyTuple_GET_ITEM(o, 1 + i), &v) < 0) return 0;
        set_hand(key, i, v);
    }
    return 1;
}

static PyObject *key_tuple(const SearchObject *self, const uint64_t *key) {
    int n = self->s.d.n;
    PyObject *t = PyTuple_New(1 + n);
    if (t == NULL) return NULL;
    PyObject *x = PyLong_FromUnsignedLongLong(key[0]);
    if (x == NULL) goto fail;
    PyTuple_SET_ITEM(t, 0, x);
    for (int i = 0; i < n; i++) {
        x = py_from_mask(hand_of(key, i));
        if (x == NULL) goto fail;
        PyTuple_SET_ITEM(t, 1 + i, x);
    }
    return t;
fail:
    Py_DECREF(t);
    return NULL;
}

static int read_bytes(PyObject *o, uint8_t *out, Py_ssize_t max, int *len) {
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) > max) {
        PyErr_SetString(PyExc_ValueError, "bytes too long for the tables");
        return 0;
    }
    memcpy(out, PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o));
    if (len != NULL) *len = (int)PyBytes_GET_SIZE(o);
    return 1;
}

/* A tuple of ``count`` ints into u128 masks */
static int read_masks(PyObject *o, u128 *out, Py_ssize_t count) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != count) {
        PyErr_SetString(PyExc_ValueError, "a tuple of masks of the wrong length");
        return 0;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (py_to_mask(PyTuple_GET_ITEM(o, i), &out[i]) < 0) return 0;
    return 1;
}

/* A tuple of ``count`` bytes: lists of values */
static int read_lists(PyObject *o, uint8_t (*out)[100], uint8_t *lens, Py_ssize_t count) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != count) {
        PyErr_SetString(PyExc_ValueError, "a tuple of lists of the wrong length");
        return 0;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int len;
        if (!read_bytes(PyTuple_GET_ITEM(o, i), out[i], 100, &len)) return 0;
        lens[i] = (uint8_t)len;
    }
    return 1;
}

static int call_reach(void *ctx, long long nodes) {
    SearchObject *self = ctx;
    PyObject *r = PyObject_CallMethod(self->budget, "reach", "L", nodes);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* The table is at its bound: the search ends as the budget's end does,
 * with models.outcome.OutOfBudget */
static int call_full(void *ctx) {
    (void)ctx;
    PyObject *mod = PyImport_ImportModule("thegame.models.outcome");
    PyObject *exc = mod == NULL ? NULL : PyObject_GetAttrString(mod, "OutOfBudget");
    Py_XDECREF(mod);
    if (exc == NULL) return -1;
    PyErr_SetString(exc, "the table search's table is at its memory bound");
    Py_DECREF(exc);
    return -1;
}

static int search_init(SearchObject *self, PyObject *args, PyObject *kw) {
    (void)kw;
    Deal *d = &self->s.d;
    PyObject *draw, *canon, *repd, *single, *fit, *names, *chain_cards, *chain_names, *singles;
    PyObject *losses;
    if (!PyArg_ParseTuple(args, "iiiiiiiOOOOOOOOOO", &d->n, &d->k, &d->share, &d->special,
                          &d->chain_all, &d->trick_draw, &d->penalty, &draw, &canon, &repd,
                          &single, &fit, &names, &chain_cards, &chain_names, &singles, &losses))
        return -1;
    if (d->n < 2 || d->n > MAX_SEATS || d->k < 0 || d->k >= d->n) {
        PyErr_SetString(PyExc_ValueError, "2 to 6 seats");
        return -1;
    }
    if (!read_bytes(draw, d->draw, 127, &d->ndraw) || !read_bytes(canon, d->canon, 101, NULL) ||
        !read_bytes(repd, d->repdigit, 101, NULL) || !read_bytes(single, d->single, 101, NULL) ||
        !read_masks(fit, d->fit, 101) || !read_lists(names, d->names, d->nnames, 101) ||
        !read_masks(chain_cards, d->chain_cards, 10) ||
        !read_lists(chain_names, d->chain_names, d->nchain_names, 10) ||
        py_to_mask(singles, &d->singles) < 0)
        return -1;
    self->s.kw = 1 + 2 * d->n;
    if (losses != Py_None) {
        if (!PyObject_TypeCheck(losses, &SearchType) ||
            ((SearchObject *)losses)->s.kw != self->s.kw) {
            PyErr_SetString(PyExc_TypeError, "losses: a Search of the same table");
            return -1;
        }
        Py_INCREF(losses);
        self->losses = losses;
        self->s.losses = &((SearchObject *)losses)->s.tt;
    }
    if (!pt_init(&self->s.tt, self->s.kw)) {
        PyErr_NoMemory();
        return -1;
    }
    self->s.nearest = -1;
    self->s.budget = budget_make(0);
    self->s.budget.progress = call_reach;
    self->s.budget.progress_ctx = self;
    self->s.full = call_full;
    return 0;
}

static void search_dealloc(SearchObject *self) {
    pt_free(&self->s.tt);
    free(self->s.outs.v);
    free(self->s.scratch.v);
    free(self->s.seen_at);
    free(self->s.seen_stamp);
    Py_XDECREF(self->losses);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *search_prove(SearchObject *self, PyObject *args) {
    PyObject *root, *budget;
    long long nodes, max_nodes, max_bytes;
    uint64_t key[KW_MAX];
    if (!PyArg_ParseTuple(args, "OOLLL", &root, &budget, &nodes, &max_nodes, &max_bytes))
        return NULL;
    if (!read_key(self, root, key)) return NULL;
    /* the budget: the NodeCounter's node limit, the table's memory; its
     * deadline and Ctrl-C are the NodeCounter's, through call_reach */
    Budget *b = &self->s.budget;
    b->memory = max_bytes > 0 ? (size_t)max_bytes : 0;
    b->node_limit = max_nodes >= 0 ? max_nodes + 1 : LLONG_MAX;
    self->s.tt.max_bytes = b->memory;
    self->budget = budget;
    self->s.nodes = nodes;
    int64_t pn, dn;
    int r = prove(&self->s, key, &pn, &dn);
    self->budget = NULL;
    if (r) return NULL;
    return Py_BuildValue("LLL", (long long)pn, (long long)dn, self->s.nodes);
}

static PyObject *search_nodes(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(self->s.nodes);
}

static PyObject *search_lookup(SearchObject *self, PyObject *arg) {
    uint64_t key[KW_MAX];
    int64_t pn, dn;
    if (!read_key(self, arg, key)) return NULL;
    lookup(&self->s, key, &pn, &dn);
    return Py_BuildValue("LL", (long long)pn, (long long)dn);
}

static PyObject *search_get(SearchObject *self, PyObject *arg) {
    uint64_t key[KW_MAX];
    if (!read_key(self, arg, key)) return NULL;
    const int64_t *e = pt_get(&self->s.tt, key);
    if (e == NULL) Py_RETURN_NONE;
    return Py_BuildValue("LL", (long long)e[0], (long long)e[1]);
}

static PyObject *search_children(SearchObject *self, PyObject *arg) {
    uint64_t key[KW_MAX];
    ChildVec kids = {NULL, 0, 0};
    if (!read_key(self, arg, key)) return NULL;
    if (children(&self->s, key, &kids)) {
        free(kids.v);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New((Py_ssize_t)kids.n);
    for (size_t i = 0; out != NULL && i < kids.n; i++) {
        const Child *c = &kids.v[i];
        PyObject *k = c->end ? Py_None : key_tuple(self, c->key);
        if (c->end) Py_INCREF(Py_None);
        PyObject *item = k == NULL ? NULL
                                   : Py_BuildValue("NLLi", k, (long long)c->pn, (long long)c->dn,
                                                   c->steps);
        if (item == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, item);
    }
    free(kids.v);
    return out;
}

static PyObject *search_progress(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("LLi", self->s.proven, self->s.disproven, self->s.nearest);
}

static Py_ssize_t search_len(SearchObject *self) { return (Py_ssize_t)self->s.tt.count; }

/* Candidates from Python tuples (drew, trick, immune, free, open, obliged, mask) */
static struct Candidate *read_candidates(PyObject *cands, int *nc) {
    if (!PyTuple_Check(cands) || PyTuple_GET_SIZE(cands) > 4096) {
        PyErr_SetString(PyExc_ValueError, "candidates: a tuple of at most 4096");
        return NULL;
    }
    *nc = (int)PyTuple_GET_SIZE(cands);
    struct Candidate *cv = malloc((*nc ? *nc : 1) * sizeof(struct Candidate));
    if (cv == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (int j = 0; j < *nc; j++) {
        PyObject *mask, *t = PyTuple_GET_ITEM(cands, j);
        struct Candidate *c = &cv[j];
        if (!PyArg_ParseTuple(t, "iiiiiiO", &c->drew, &c->trick, &c->immune, &c->free, &c->open,
                              &c->obliged, &mask) ||
            py_to_mask(mask, &c->mask) < 0) {
            free(cv);
            return NULL;
        }
    }
    return cv;
}

/* A bytes of cards (0: a free card) into ints */
static int read_cards(PyObject *o, int *out, int max, int *len) {
    uint8_t buf[128];
    if (!read_bytes(o, buf, max, len)) return 0;
    for (int i = 0; i < *len; i++) out[i] = buf[i];
    return 1;
}

/* What the seat sees, for ``sample``: 1, or 0 with an exception set */
static int read_world(PyObject *small, PyObject *own, PyObject *unseen, PyObject *head,
                      PyObject *slots, int n, struct World *w) {
    u128 v;
    if (py_to_mask(small, &v) < 0 || py_to_mask(own, &w->own) < 0) return 0;
    w->small = (uint64_t)v;
    if (!read_cards(unseen, w->unseen, 127, &w->nunseen) || !read_cards(head, w->head, 8, &w->nhead))
        return 0;
    if (!PyTuple_Check(slots) || PyTuple_GET_SIZE(slots) != n) {
        PyErr_SetString(PyExc_ValueError, "slots: a tuple of masks a seat");
        return 0;
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(slots, i);
        if (!PyTuple_Check(t) || at + PyTuple_GET_SIZE(t) > 128) {
            PyErr_SetString(PyExc_ValueError, "slots: a tuple of masks a seat");
            return 0;
        }
        w->nslots[i] = (int)PyTuple_GET_SIZE(t);
        if (!read_masks(t, &w->slots[at], w->nslots[i])) return 0;
        at += w->nslots[i];
    }
    if (at > w->nunseen) {
        PyErr_SetString(PyExc_ValueError, "more cards in the other hands than unseen");
        return 0;
    }
    return 1;
}

/* The greedy checks (seat, small, skip, back, after, open), at most MAX_CHECKS:
 * 1, or 0 with an exception set */
static int read_checks(PyObject *checks, int n, struct World *w) {
    if (!PyTuple_Check(checks) || PyTuple_GET_SIZE(checks) > MAX_CHECKS) {
        PyErr_SetString(PyExc_ValueError, "checks: a tuple of at most 256");
        return 0;
    }
    w->nchecks = (int)PyTuple_GET_SIZE(checks);
    for (int i = 0; i < w->nchecks; i++) {
        struct Check *c = &w->checks[i];
        PyObject *small, *skip, *back, *after;
        u128 v;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(checks, i), "iOOOOi", &c->seat, &small, &skip,
                              &back, &after, &c->open) ||
            py_to_mask(small, &v) < 0 || py_to_mask(skip, &c->skip) < 0 ||
            py_to_mask(back, &c->back) < 0 ||
            py_to_mask(after, &c->after) < 0)
            return 0;
        c->small = (uint64_t)v;
        if (c->seat < 0 || c->seat >= n || c->open < 0 || c->open > 100) {
            PyErr_SetString(PyExc_ValueError, "checks: a seat of the table and an open card");
            return 0;
        }
    }
    return 1;
}

static PyObject *search_sample(SearchObject *self, PyObject *args) {
    PyObject *small, *own, *unseen, *head, *slots, *cands, *checks = NULL;
    unsigned long long seed;
    int worlds, turns = 0, rollouts = 1, tries = 1, steps = 0;
    struct World w;
    Deal *d = &self->s.d;
    if (!PyArg_ParseTuple(args, "OOOOOOKi|iiOii", &small, &own, &unseen, &head, &slots, &cands,
                          &seed, &worlds, &turns, &rollouts, &checks, &tries, &steps))
        return NULL;
    if (worlds < 0 || turns < 0 || rollouts < 1 || rollouts > 1000 || tries < 1 || steps < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "worlds >= 0; look ahead: turns >= 0, 1 to 1000 rollouts; tries >= 1; "
                        "steps >= 0");
        return NULL;
    }
    self->s.nest_turns = turns;
    self->s.nest_rollouts = rollouts;
    if (!read_world(small, own, unseen, head, slots, d->n, &w)) return NULL;
    w.tries = tries;
    w.steps = steps;
    w.nchecks = 0;
    if (checks != NULL && !read_checks(checks, d->n, &w)) return NULL;
    int nc;
    struct Candidate *cv = read_candidates(cands, &nc);
    if (cv == NULL) return NULL;
    long long *wins = calloc(nc ? nc : 1, sizeof(long long));
    long long *seen = calloc(nc ? nc : 1, sizeof(long long));
    PyObject *out = NULL;
    uint64_t rng = seed;
    if (wins == NULL || seen == NULL || sample_worlds(&self->s, &w, cv, nc, worlds, &rng, wins, seen)) {
        PyErr_NoMemory();
        goto done;
    }
    out = PyList_New(nc);
    for (int j = 0; out != NULL && j < nc; j++) {
        PyObject *x = Py_BuildValue("LL", wins[j], seen[j]);
        if (x == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, j, x);
    }
done:
    free(cv);
    free(wins);
    free(seen);
    return out;
}

static PyObject *search_dealt(SearchObject *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("LLL", self->s.worlds, self->s.dealt, self->s.consistent);
}

static PyMethodDef search_methods[] = {
    {"dealt", (PyCFunction)search_dealt, METH_NOARGS,
     "(worlds sampled, deals tried for them, worlds that passed every greedy check) by\n"
     "sample so far."},
    {"sample", (PyCFunction)search_sample, METH_VARARGS,
     "sample(small, own, unseen, head, slots, candidates, seed, worlds, turns=0, rollouts=1,\n"
     "checks=(), tries=1, steps=0)\n"
     "-> [(wins, worlds)]: ``worlds`` deals of the unseen cards (the other hands within their\n"
     "slots' masks, the pile after ``head``; the search's own pile is replaced), in each every\n"
     "candidate (drew, trick, immune, free, open, obliged, mask) of the seat played and the\n"
     "game finished by greedy play, but for the seat's next ``turns`` turns, each chosen by\n"
     "``rollouts`` greedy playouts of each of its turns in that world. ``checks``: turns of\n"
     "the others (seat, small, skip, back, after, open) each world is redealt until they are greedy\n"
     "in it, up to ``tries`` deals (else the deal failing fewest); with ``steps``, each world\n"
     "after the first is the last changed by that many swaps of unseen cards (a swap kept\n"
     "when it fails no more checks) and its pile shuffled."},
    {"prove", (PyCFunction)search_prove, METH_VARARGS,
     "prove(root, budget, nodes, max_nodes, max_bytes) -> (pn, dn, nodes): TableSolver.prove's\n"
     "loop; budget.reach(nodes) is called every 64 nodes and past max_nodes (-1: none);\n"
     "OutOfBudget when the table would grow past max_bytes (0: no bound)."},
    {"nodes", (PyCFunction)search_nodes, METH_NOARGS, "The nodes counted so far."},
    {"lookup", (PyCFunction)search_lookup, METH_O, "TableSolver.lookup(key) -> (pn, dn)."},
    {"get", (PyCFunction)search_get, METH_O, "The table's (pn, dn) for key, or None."},
    {"children", (PyCFunction)search_children, METH_O,
     "TableSolver.children(key) -> [(child or None, pn, dn, steps)]."},
    {"progress", (PyCFunction)search_progress, METH_NOARGS,
     "(positions proven, disproven, nearest decided turn or -1)."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods search_as_sequence = {.sq_length = (lenfunc)search_len};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.cento._ctable.Search",
    .tp_doc = "Search(n, k, share, special, chain_all, trick_draw, penalty, draw, canon,\n"
              "repdigit, single, fit, names, chain_cards, chain_names, singles, losses)",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
    .tp_as_sequence = &search_as_sequence,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_ctable",
    .m_doc = "The Cento table search compiled (see solver/cento/ctable.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__ctable(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_ctable needs a CPU with POPCNT");
        return NULL;
    }
#endif
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
