/* The module _cduel: the type Game (its methods in game.c, sift.c and
 * playout.c), the type Race (race.c) and the type Solver (solverpy.c). */
#include "bindings.h"

PyDoc_STRVAR(expand_doc,
             "expand(pos) -> (status, children)\n--\n\n"
             "status 0: no legal turn (D6, the mover loses); 1: a turn plays every card\n"
             "(D6, the mover wins); 2: children, the undominated turn results in\n"
             "DuelGame.turns order, each (position after, score, opponent has a turn).");

/* engine.DuelEngine._playout: the fast policy from pos to the end of the
 * duel, reading the table `tt` (position -> mover wins) at each turn start
 * and drawing from the SplitMix64 `state`; (winner 0-based, the state
 * after, turns played). */
PyDoc_STRVAR(playout_doc,
             "playout(pos, tt, state) -> (winner, state, turns)\n--\n\n"
             "DuelEngine._playout with the compiled expansion, its draws from\n"
             "SplitMix64 state `state`.");

PyDoc_STRVAR(turns_doc,
             "turns(pos, done=0, dumped=False) -> [(plays, position after or None)]\n--\n\n"
             "DuelGame.turns: every distinct result of the mover's whole turn.");

PyDoc_STRVAR(solo_turns_doc,
             "solo_turns(p, solo, robust) -> [(plays, solo after or None)]\n--\n\n"
             "position.solo_turns: player p's distinct turns on their own piles alone.");

PyDoc_STRVAR(relaxed_turns_doc,
             "relaxed_turns(p, solo) -> [solo after or None]\n--\n\n"
             "survival.relaxed_turns: player p's distinct states after a relaxed turn.");

PyDoc_STRVAR(dead_cards_doc, "dead_cards(p, solo) -> int: race.dead_cards.");

/* search.DuelSearch._by_dominance: the value of pos read from `known`, a
 * list of (position, won) pairs that share pos's hands, draw piles and mover
 * (only their tops are read). True: at least as good as a won one; False: no
 * better than a lost one; None: neither. */
PyDoc_STRVAR(dominance_doc,
             "dominance(pos, known) -> bool | None: DuelSearch._by_dominance's scan.");

/* search.DuelSearch._sift: the children of expand, each looked up in the
 * table `tt` (a dict of position -> mover wins) and, when `by_cards` is a
 * dict, read by dominance from its group (search._cards). In order: a child
 * lost for the opponent (table or dominance) ends the node (status 3, that
 * child); a child known won for the opponent is skipped; a child where the
 * opponent has no turn ends it (status 4, that child); the rest come back
 * sorted by score, ties in expand's order (status 2). The third item counts
 * the values read by dominance, the fourth the table hits. */
PyDoc_STRVAR(sift_doc,
             "sift(children, tt, by_cards) -> (status, child | children, dominated, hits)\n--\n\n"
             "DuelSearch._sift over expand's children.");

/* pns.ProofNumberSearch._read: the proof and disproof numbers of each child
 * (from the view of its mover, the opponent): (0, inf) when `tt` holds it as
 * won, (inf, 0) as lost, else its entry in `numbers`, else (1, 1 + weight *
 * its rank). Two lists, in the children's order. */
PyDoc_STRVAR(numbers_doc,
             "numbers(children, tt, numbers, weight, inf) -> (phis, deltas)\n--\n\n"
             "ProofNumberSearch._read over the children to search.");

static PyMethodDef game_methods[] = {
    {"numbers", (PyCFunction)game_numbers, METH_VARARGS, numbers_doc},
    {"dominance", (PyCFunction)game_dominance, METH_VARARGS, dominance_doc},
    {"sift", (PyCFunction)game_sift, METH_VARARGS, sift_doc},
    {"expand", (PyCFunction)game_expand, METH_O, expand_doc},
    {"playout", (PyCFunction)game_playout, METH_VARARGS, playout_doc},
    {"turns", (PyCFunction)game_turns, METH_VARARGS, turns_doc},
    {"has_turn", (PyCFunction)game_has_turn, METH_O, "DuelGame.has_turn(pos)."},
    {"solo_turns", (PyCFunction)game_solo_turns, METH_VARARGS, solo_turns_doc},
    {"dead_cards", (PyCFunction)game_dead_cards, METH_VARARGS, dead_cards_doc},
    {"relaxed_turns", (PyCFunction)game_relaxed_turns, METH_VARARGS, relaxed_turns_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game.duel._cduel.Game",
    .tp_doc = "Game(deck0, deck1, hand_size, min_play, min_play_empty, step, draw_own)",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_methods = game_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cduel",
    .m_doc = "The duel search's node expansion, compiled (see duel/ccore.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__cduel(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    /* Built with -mpopcnt (setup.py, x86-64): refuse to load on a CPU
     * without it, so ccore.py falls back to the Python expansion instead of
     * the process dying on an illegal instruction. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_cduel needs a CPU with POPCNT");
        return NULL;
    }
#endif
    if (PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(m);
        return NULL;
    }
    if (solver_add_type(m, &GameType) < 0 || race_add_type(m, &GameType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
