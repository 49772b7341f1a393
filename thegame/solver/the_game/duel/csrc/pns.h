/* The compiled df-pn of the duel (pns.c), registered into the _cduel module. */
#ifndef THEGAME_DUEL_PNS_H
#define THEGAME_DUEL_PNS_H

#include <Python.h>

/* Adds the type Pns to the module; -1 with an exception set on failure. */
int pns_add_type(PyObject *module);

#endif
