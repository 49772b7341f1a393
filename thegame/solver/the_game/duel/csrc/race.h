/* race.c: the type Race of _cduel (race.RaceSolver's search, compiled). */
#ifndef THEGAME_DUEL_RACE_H
#define THEGAME_DUEL_RACE_H

#include "bindings.h"

/* Add the type Race to the module; ``game`` is the type Game it reads the
 * rules from. -1 with an exception set. */
int race_add_type(PyObject *module, PyTypeObject *game);

#endif
