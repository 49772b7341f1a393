/* The type Race of _cduel: race.py's RaceSolver over a RaceCore
 * (racecore.c), its budget in nodes and a Python `stop` callable asked
 * every 256 nodes. */
#include "bindings.h"
#include "race.h"

typedef struct {
    PyObject_HEAD
    GameObject *game; /* the rules, kept alive */
    RaceCore core;
    PyObject *stop; /* for one call */
} RaceObject;

static PyTypeObject *game_type;

/* The core's stop: the Python callable's truth, -1 when it failed */
static int py_stop(void *ctx) {
    PyObject *stop = ctx;
    PyObject *r = PyObject_CallNoArgs(stop);
    if (!r) return -1;
    const int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
}

static int read_solo(RaceObject *R, PyObject *o, SoloState *st) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(o, "Kiii", &hand, &st->at, &st->a, &st->d)) return 0;
    st->hand = (CardMask64)hand;
    return solo_in_range(&R->game->rules, R->core.p, st);
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
    race_core_free(&self->core);
    if (!race_core_init(&self->core, &self->game->rules, p, robust)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void race_dealloc(RaceObject *self) {
    race_core_free(&self->core);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* fewest(solo, nodes, stop) -> value or None (out of budget) */
static PyObject *race_fewest(RaceObject *self, PyObject *args) {
    PyObject *solo, *stop;
    long long nodes;
    if (!PyArg_ParseTuple(args, "OLO", &solo, &nodes, &stop)) return NULL;
    if (!self->game) {
        PyErr_SetString(PyExc_RuntimeError, "Race not initialised");
        return NULL;
    }
    SoloState st;
    if (!read_solo(self, solo, &st)) return NULL;
    self->core.stop = stop == Py_None ? NULL : py_stop;
    self->core.stop_ctx = stop;
    const int v = race_core_fewest(&self->core, &st, nodes);
    self->core.stop = NULL;
    self->core.stop_ctx = NULL;
    if (self->core.halted == 2) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    if (self->core.halted == 1) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* The path's turns: [((card, pile), ...), ...] */
static PyObject *path_turns(const RacePath *path) {
    PyObject *turns = PyList_New(0);
    int start = 0;
    for (int i = 0; turns && i <= path->n; i++) {
        if (i < path->n && path->pile[i] != RACE_TURN_END) continue;
        PyObject *t = plays_tuple(path->card + start, path->pile + start, i - start);
        if (!t || PyList_Append(turns, t) < 0) Py_CLEAR(turns);
        Py_XDECREF(t);
        start = i + 1;
    }
    return turns;
}

/* finishes(solo, nodes, stop) -> (the finish's turns | False | None, nodes) */
static PyObject *race_finishes(RaceObject *self, PyObject *args) {
    PyObject *solo, *stop;
    long long nodes, used = 0;
    if (!PyArg_ParseTuple(args, "OLO", &solo, &nodes, &stop)) return NULL;
    if (!self->game) {
        PyErr_SetString(PyExc_RuntimeError, "Race not initialised");
        return NULL;
    }
    SoloState st;
    if (!read_solo(self, solo, &st)) return NULL;
    RacePath path;
    const int r = race_core_finishes(&self->game->rules, self->core.p, &st, nodes,
                                     stop == Py_None ? NULL : py_stop, stop, &used, &path);
    if (r == -2) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    if (r == -1) return Py_BuildValue("(OL)", Py_None, used);
    if (r == 0) return Py_BuildValue("(OL)", Py_False, used);
    return Py_BuildValue("(NL)", path_turns(&path), used);
}

/* known(solo) -> the memo's value or None */
static PyObject *race_known(RaceObject *self, PyObject *solo) {
    SoloState st;
    if (!self->game) Py_RETURN_NONE;
    if (!read_solo(self, solo, &st)) return NULL;
    const int got = race_core_known(&self->core, &st);
    if (got < 0) Py_RETURN_NONE;
    return PyLong_FromLong(got);
}

static PyObject *race_nodes(RaceObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->core.nodes);
}

static PyObject *race_stored(RaceObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->core.memo.count);
}

static PyMethodDef race_methods[] = {
    {"fewest", (PyCFunction)race_fewest, METH_VARARGS,
     "fewest(solo, nodes, stop) -> int | None\n--\n\n"
     "RaceSolver.fewest: the exact fewest turns from solo (race.INF: never);\n"
     "None when `nodes` more nodes (negative: no limit) ran out or `stop()`,\n"
     "called every 256 nodes, said true."},
    {"known", (PyCFunction)race_known, METH_O, "known(solo) -> the memo's value or None."},
    {"finishes", (PyCFunction)race_finishes, METH_VARARGS,
     "finishes(solo, nodes, stop) -> (turns | False | None, nodes)\n--\n\n"
     "race.finish_line: a finish alone in the fewest turns (its turns' plays), False\n"
     "when there is none; None when `nodes` (negative: no limit) ran out or\n"
     "`stop()`, called every 4096 nodes, said true."},
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
