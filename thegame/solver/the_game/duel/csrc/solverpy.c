/* The type Solver of _cduel: the duel's whole proof search (solver.h) for
 * duel/pns.py's ProofNumberSearch. Its table of proven positions is the
 * search's ``tt`` (get, in, len, items), so the lines, the engine and the
 * playouts read it where it is. */
#include "bindings.h"
#include "pybind.h"
#include "solver.h"

typedef struct {
    PyObject_HEAD
    Solver s;
    int ready;
} SolverObject;

static PyTypeObject *game_type;
static PyTypeObject SolverType;

static int solver_new_init(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"game", "table_limit", "numbers_limit", "weight", "inf", NULL};
    PyObject *game;
    Py_ssize_t tt_limit, nums_limit;
    long long weight, inf;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!nnLL", names, game_type, &game, &tt_limit,
                                     &nums_limit, &weight, &inf))
        return -1;
    if (tt_limit < 0 || nums_limit < 0 || weight < 0 || inf <= 0 || inf > ((long long)1 << 50)) {
        PyErr_SetString(PyExc_ValueError, "limits >= 0, weight >= 0, inf in 1..2^50");
        return -1;
    }
    if (self->ready) solver_free(&self->s);
    self->ready = 0;
    if (!solver_init(&self->s, &((GameObject *)game)->rules, (size_t)tt_limit, (size_t)nums_limit)) {
        solver_free(&self->s);
        PyErr_NoMemory();
        return -1;
    }
    self->s.weight = weight;
    self->s.inf = inf;
    self->s.widen = 1.25;
    self->ready = 1;
    return 0;
}

static void solver_dealloc(SolverObject *self) {
    if (self->ready) solver_free(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_ready(SolverObject *self) {
    if (self->ready) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Solver not initialised");
    return 0;
}

static PyObject *solver_configure(SolverObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"dominance", "alone",       "relaxed_race", "survival",
                            "survival_turns", "widen", "eval_weight", "table_limit",
                            "numbers_limit", "sizes", NULL};
    SearchOptions o;
    double widen;
    long long eval_weight;
    Py_ssize_t tt_limit, nums_limit;
    if (!check_ready(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "ppppidLnn(iiiii)", names, &o.dominance, &o.alone,
                                     &o.relaxed_race, &o.survival, &o.survival_turns, &widen,
                                     &eval_weight, &tt_limit, &nums_limit, &o.robust_cards,
                                     &o.robust_nodes, &o.relaxed_cards, &o.relaxed_nodes,
                                     &o.survival_nodes))
        return NULL;
    if (widen < 1.0 || eval_weight < 0 || eval_weight > ((long long)1 << 20) || tt_limit < 0 ||
        nums_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "widen >= 1, eval_weight in 0..2^20, limits >= 0");
        return NULL;
    }
    /* At most what the tables were made for (their slots at 70%) */
    const size_t most = self->s.tt.maxcap / 10 * 7;
    if ((size_t)tt_limit > most) tt_limit = (Py_ssize_t)most;
    self->s.opt = o;
    self->s.widen = widen;
    self->s.eval_weight = eval_weight;
    self->s.tt_limit = (size_t)tt_limit;
    self->s.nums_limit = (size_t)nums_limit;
    Py_RETURN_NONE;
}

static int read_position(SolverObject *self, PyObject *o, DuelPos *pos) {
    return check_ready(self) && read_pos(&self->s.g, o, pos);
}

/* The answer of a search step: NULL with the error, None when the budget
 * ran out, else ``value`` as given */
static PyObject *halted_or(SolverObject *self, PyObject *value) {
    const int halted = self->s.halted;
    self->s.halted = 0;
    self->s.budget = NULL;
    if (halted == 2) {
        Py_XDECREF(value);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    if (halted == 1) {
        Py_XDECREF(value);
        Py_RETURN_NONE;
    }
    return value;
}

static PyObject *solver_wins(SolverObject *self, PyObject *args) {
    PyObject *pos_o, *budget_o;
    int depth_first;
    if (!PyArg_ParseTuple(args, "OpO", &pos_o, &depth_first, &budget_o)) return NULL;
    DuelPos pos;
    Budget budget;
    if (!read_position(self, pos_o, &pos) || py_budget(budget_o, &budget) < 0) return NULL;
    self->s.budget = &budget;
    self->s.halted = 0;
    const int v = depth_first ? solver_dfs(&self->s, &pos) : solver_dfpn(&self->s, &pos);
    return halted_or(self, v < 0 ? NULL : PyBool_FromLong(v));
}

static PyObject *solver_first_look_py(SolverObject *self, PyObject *arg) {
    DuelPos pos;
    if (!read_position(self, arg, &pos)) return NULL;
    const int v = solver_first_look(&self->s, &pos);
    if (self->s.halted) return halted_or(self, NULL);
    if (v < 0) Py_RETURN_NONE;
    return PyBool_FromLong(v);
}

static PyObject *solver_open_py(SolverObject *self, PyObject *arg) {
    DuelPos pos, *kids;
    size_t n;
    if (!read_position(self, arg, &pos)) return NULL;
    const int v = solver_open(&self->s, &pos, &kids, &n);
    if (v < 0) return halted_or(self, NULL);
    if (v < 2) return PyBool_FromLong(v);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *t = pos_tuple(&kids[i]);
        if (!t) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    free(kids);
    return list;
}

static PyObject *solver_store_py(SolverObject *self, PyObject *args) {
    PyObject *pos_o;
    int won;
    DuelPos pos;
    if (!PyArg_ParseTuple(args, "Op", &pos_o, &won) || !read_position(self, pos_o, &pos))
        return NULL;
    solver_store(&self->s, &pos, won);
    if (self->s.halted) return halted_or(self, NULL);
    Py_RETURN_NONE;
}

/* The table's value of a position object: -1 not there, -2 an error */
static int lookup(SolverObject *self, PyObject *o) {
    DuelPos pos;
    if (!read_position(self, o, &pos)) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return -2;
        PyErr_Clear(); /* not a position of this duel: not in the table */
        return -1;
    }
    return solver_get(&self->s, &pos);
}

static PyObject *solver_get_py(SolverObject *self, PyObject *args) {
    PyObject *pos_o, *dflt = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &pos_o, &dflt)) return NULL;
    const int v = lookup(self, pos_o);
    if (v == -2) return NULL;
    if (v < 0) return Py_NewRef(dflt);
    return PyBool_FromLong(v);
}

static PyObject *solver_items(SolverObject *self, PyObject *noargs) {
    (void)noargs;
    if (!check_ready(self)) return NULL;
    const Table *t = &self->s.tt;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < t->cap; i++) {
        if (!t->used[i]) continue;
        DuelPos pos;
        key_pos(t->keys + 3 * i, &pos);
        PyObject *item = Py_BuildValue("(NO)", pos_tuple(&pos), t->vals[i] ? Py_True : Py_False);
        if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    return list;
}

static PyObject *solver_numbers(SolverObject *self, PyObject *noargs) {
    (void)noargs;
    if (!check_ready(self)) return NULL;
    const PairMap *m = &self->s.nums;
    PyObject *d = PyDict_New();
    for (size_t i = 0; d && i < m->cap; i++) {
        if (!m->used[i]) continue;
        DuelPos pos;
        key_pos(m->keys[i].w, &pos);
        PyObject *key = pos_tuple(&pos);
        PyObject *val = Py_BuildValue("(LL)", (long long)m->vals[i].first,
                                      (long long)m->vals[i].second);
        if (!key || !val || PyDict_SetItem(d, key, val) < 0) Py_CLEAR(d);
        Py_XDECREF(key);
        Py_XDECREF(val);
    }
    return d;
}

static PyObject *solver_trace(SolverObject *self, PyObject *arg) {
    if (!check_ready(self)) return NULL;
    const int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    self->s.tracing = on;
    PyObject *list = PyList_New((Py_ssize_t)self->s.n_trace);
    for (size_t i = 0; list && i < self->s.n_trace; i++) {
        const TraceEvent *e = &self->s.trace[i];
        PyObject *value = e->kind ? PyBool_FromLong(e->value) : Py_NewRef(Py_None);
        PyObject *item = Py_BuildValue("(sNN)", e->kind ? "store" : "open", pos_tuple(&e->pos), value);
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    self->s.n_trace = 0;
    return list;
}

static PyObject *solver_get_stats(SolverObject *self, void *closure) {
    (void)closure;
    if (!check_ready(self)) return NULL;
    const SearchStats *s = &self->s.stats;
    return Py_BuildValue("(LLLLLL)", s->nodes, s->bound_cuts, s->survival_cuts, s->stuck_cuts,
                         s->tt_hits, s->dominated);
}

static int solver_set_stats(SolverObject *self, PyObject *value, void *closure) {
    (void)closure;
    SearchStats s;
    if (!check_ready(self) || !value ||
        !PyArg_ParseTuple(value, "LLLLLL", &s.nodes, &s.bound_cuts, &s.survival_cuts,
                          &s.stuck_cuts, &s.tt_hits, &s.dominated))
        return -1;
    self->s.stats = s;
    return 0;
}

static PyObject *solver_clear_numbers(SolverObject *self, PyObject *noargs) {
    (void)noargs;
    if (!check_ready(self)) return NULL;
    pairmap_clear(&self->s.nums);
    Py_RETURN_NONE;
}

static PyObject *solver_clear(SolverObject *self, PyObject *noargs) {
    (void)noargs;
    if (!check_ready(self)) return NULL;
    tab_clear(&self->s.tt);
    tab_clear(&self->s.groups);
    self->s.n_entries = 0;
    Py_RETURN_NONE;
}

/* tt[pos] = won: DuelNodes._store */
static int solver_setitem(SolverObject *self, PyObject *key, PyObject *value) {
    DuelPos pos;
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "a proven position stays proven");
        return -1;
    }
    const int won = PyObject_IsTrue(value);
    if (won < 0 || !read_position(self, key, &pos)) return -1;
    solver_store(&self->s, &pos, won);
    return 0;
}

static Py_ssize_t solver_len(SolverObject *self) {
    return self->ready ? (Py_ssize_t)self->s.tt.count : 0;
}

static int solver_contains(SolverObject *self, PyObject *o) {
    const int v = lookup(self, o);
    return v == -2 ? -1 : v >= 0;
}

int solver_table_get(PyObject *o, const DuelPos *pos, int *won) {
    if (!PyObject_TypeCheck(o, &SolverType) || !((SolverObject *)o)->ready) return -1;
    const int v = solver_get(&((SolverObject *)o)->s, pos);
    *won = v;
    return v >= 0;
}

static PyMethodDef solver_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))solver_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(dominance, alone, relaxed_race, survival, survival_turns, widen, eval_weight,\n"
     "table_limit, numbers_limit, sizes): DuelNodes's switches, df-pn's options and\n"
     "the bounds' sizes (nodes.BoundSizes as a tuple)."},
    {"wins", (PyCFunction)solver_wins, METH_VARARGS,
     "wins(pos, depth_first, budget) -> bool | None: the mover wins, by the depth-first\n"
     "search or df-pn; None when the budget (node_limit, deadline, memory, progress) ran out."},
    {"first_look", (PyCFunction)solver_first_look_py, METH_O, "DuelNodes._first_look."},
    {"open", (PyCFunction)solver_open_py, METH_O, "DuelNodes._open."},
    {"store", (PyCFunction)solver_store_py, METH_VARARGS, "DuelNodes._store."},
    {"get", (PyCFunction)solver_get_py, METH_VARARGS, "get(pos, default=None): the table."},
    {"items", (PyCFunction)solver_items, METH_NOARGS, "items() -> [(pos, won)]: the table."},
    {"numbers", (PyCFunction)solver_numbers, METH_NOARGS, "numbers() -> df-pn's unsettled numbers."},
    {"clear", (PyCFunction)solver_clear, METH_NOARGS, "Empties the table of proven positions."},
    {"clear_numbers", (PyCFunction)solver_clear_numbers, METH_NOARGS, "Empties the numbers."},
    {"trace", (PyCFunction)solver_trace, METH_O,
     "trace(on) -> the events since the last call: ('open', pos, None), ('store', pos, won)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef solver_getset[] = {
    {"stats", (getter)solver_get_stats, (setter)solver_set_stats,
     "(nodes, bound_cuts, survival_cuts, stuck_cuts, tt_hits, dominated)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods solver_sequence = {.sq_contains = (objobjproc)solver_contains};
static PyMappingMethods solver_mapping = {.mp_length = (lenfunc)solver_len,
                                          .mp_ass_subscript = (objobjargproc)solver_setitem};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game.duel._cduel.Solver",
    .tp_doc = "Solver(game, table_limit, numbers_limit, weight, inf): the duel's proof search.",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)solver_new_init,
    .tp_dealloc = (destructor)solver_dealloc,
    .tp_methods = solver_methods,
    .tp_getset = solver_getset,
    .tp_as_sequence = &solver_sequence,
    .tp_as_mapping = &solver_mapping,
};

int solver_add_type(PyObject *module, PyTypeObject *game) {
    game_type = game;
    if (PyType_Ready(&SolverType) < 0) return -1;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(module, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        return -1;
    }
    return 0;
}
