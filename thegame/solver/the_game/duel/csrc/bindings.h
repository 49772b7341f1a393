/* The CPython side of _cduel: the type Game (a DuelRules) and the
 * conversions between Python's Pos tuples and DuelPos (convert.c), its
 * methods over positions (game.c), over the search's tables (sift.c) and
 * the engine's playout (playout.c), registered by module.c. */
#ifndef THEGAME_DUEL_BINDINGS_H
#define THEGAME_DUEL_BINDINGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "duel.h"

typedef struct {
    PyObject_HEAD
    DuelRules rules;
} GameObject;

/* ---- convert.c ------------------------------------------------------------ */

/* A Pos tuple into ``pos``, checked against the rules; 0 with an exception
 * set */
int read_pos(const DuelRules *g, PyObject *o, DuelPos *pos);
/* A solo state of player p in range; 0 with an exception set */
int solo_in_range(const DuelRules *g, int p, const SoloState *st);
/* New references; NULL with an exception set */
PyObject *pos_tuple(const DuelPos *pos);
PyObject *cards_key(const DuelPos *pos); /* search._cards */
PyObject *plays_tuple(const uint8_t *cards, const uint8_t *piles, int n);
/* (plays, after), taking both references; NULL when either is NULL */
PyObject *turn_pair(PyObject *plays, PyObject *after);

/* ---- game.c and sift.c: the methods --------------------------------------- */

int game_init(GameObject *self, PyObject *args, PyObject *kw);
PyObject *game_expand(GameObject *self, PyObject *arg);
PyObject *game_turns(GameObject *self, PyObject *args);
PyObject *game_has_turn(GameObject *self, PyObject *arg);
PyObject *game_solo_turns(GameObject *self, PyObject *args);
PyObject *game_relaxed_turns(GameObject *self, PyObject *args);
PyObject *game_dead_cards(GameObject *self, PyObject *args);
PyObject *game_dominance(GameObject *self, PyObject *args);
PyObject *game_sift(GameObject *self, PyObject *args);
PyObject *game_numbers(GameObject *self, PyObject *args);

/* ---- race.c, solverpy.c: the types Race and Solver -------------------------- */

/* Add the type to the module; ``game`` is the type Game it reads the rules
 * from. -1 with an exception set. */
int race_add_type(PyObject *module, PyTypeObject *game);
int solver_add_type(PyObject *module, PyTypeObject *game);
/* When ``o`` is a Solver: 1 and ``*won`` when its table holds ``pos``, 0
 * when not; -1 when ``o`` is not a Solver. */
int solver_table_get(PyObject *o, const DuelPos *pos, int *won);

/* ---- playout.c: the engine's playout -------------------------------------- */

PyObject *game_playout(GameObject *self, PyObject *args);

#endif
