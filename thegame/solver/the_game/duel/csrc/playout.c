/* The duel engine's playout (engine.DuelEngine._playout): the fast policy
 * plays the duel to its end, one whole turn at a time, without building a
 * Python object per turn result.
 *
 * The same turns as the Python loop over Game.expand, drawn from the same
 * SplitMix64 stream: expand's children are the undominated turn results
 * in DuelGame.turns order; the loop ends when the mover has no turn (D6),
 * a turn plays every card (D6) or leaves the opponent without a turn;
 * else engine.policy_index picks the child of the lowest score (the first
 * of equals) or, one time in NOISE_ONE_IN when there are two or more, one
 * of the NOISE_WIDTH lowest. Here only the results the choice reads are
 * tested for dominance, lowest score first, rather than all of them.
 * tests/the_game/duel/test_cplayout.py compares the two, turn for turn. */
#include <stdlib.h>

#include "bindings.h"
#include "splitmix.h"

/* engine.NOISE_ONE_IN, engine.NOISE_WIDTH, engine.PLAYOUT_TURNS */
#define NOISE_ONE_IN 5
#define NOISE_WIDTH 3
#define PLAYOUT_TURNS 200

enum { STEP_OOM = -1, STEP_LOST = 0, STEP_WON = 1, STEP_ON = 2 };

/* One turn of the fast policy from pos: STEP_LOST (the mover has no turn),
 * STEP_WON (a turn plays every card or leaves the opponent without a
 * turn), or STEP_ON with the turn's result in *next. */
static int policy_step(const DuelRules *g, const DuelPos *pos, uint64_t *rng, DuelPos *next) {
    TurnSearch T;
    if (!list_turns(&T, g, pos, 0, 0, 2)) return STEP_OOM;
    const size_t n = T.n_out;
    TurnResult *r = T.out;
    const int p = pos->cur;
    int status = n == 0 ? STEP_LOST : STEP_ON;
    for (size_t i = 0; i < n && status == STEP_ON; i++)
        if (r[i].won) status = STEP_WON;
    int *sc = status == STEP_ON ? malloc(n * sizeof(int)) : NULL;
    unsigned char *taken = status == STEP_ON ? calloc(n, 1) : NULL;
    if (status == STEP_ON && (!sc || !taken)) status = STEP_OOM;
    /* An undominated child that leaves the opponent without a turn (D6). */
    for (size_t i = 0; i < n && status == STEP_ON; i++) {
        const int ht = has_turn(g, &r[i].after);
        if (ht < 0) status = STEP_OOM;
        else if (!ht && !dominated(g, p, r, n, i)) status = STEP_WON;
    }
    if (status == STEP_ON) {
        for (size_t i = 0; i < n; i++) sc[i] = score(g, pos, &r[i].after);
        /* The NOISE_WIDTH lowest (score, order) among the undominated. */
        size_t best[NOISE_WIDTH];
        int found = 0;
        for (;;) {
            size_t k = n;
            for (size_t i = 0; i < n; i++)
                if (!taken[i] && (k == n || sc[i] < sc[k])) k = i;
            if (k == n) break;
            taken[k] = 1;
            if (!dominated(g, p, r, n, k)) {
                best[found++] = k;
                if (found == NOISE_WIDTH) break;
            }
        }
        /* found >= 1: dominance is a strict order within a group (takes_all_of
         * holds both ways only for equal tops), so each group keeps one. */
        size_t pick = best[0];
        if (found > 1 && sm_below(rng, NOISE_ONE_IN) == 0) pick = best[sm_below(rng, found)];
        *next = r[pick].after;
    }
    free(sc);
    free(taken);
    turns_free(&T);
    return status;
}

/* The table's value of pos: 1 won, 0 lost, -1 not there, -2 an error */
static int proven(PyObject *tt, const DuelPos *pos) {
    int won;
    if (solver_table_get(tt, pos, &won) >= 0) return won;
    PyObject *key = pos_tuple(pos);
    if (!key) return -2;
    PyObject *known = PyDict_GetItemWithError(tt, key);
    Py_DECREF(key);
    if (!known) return PyErr_Occurred() ? -2 : -1;
    const int v = PyObject_IsTrue(known);
    return v < 0 ? -2 : v;
}

/* playout(pos, tt, state) -> (winner, state, turns): see module.c */
PyObject *game_playout(GameObject *self, PyObject *args) {
    const DuelRules *g = &self->rules;
    PyObject *start, *tt;
    unsigned long long state;
    if (!PyArg_ParseTuple(args, "OOK", &start, &tt, &state)) return NULL;
    if (!PyDict_Check(tt) && solver_table_get(tt, &(DuelPos){0}, &(int){0}) < 0) {
        PyErr_SetString(PyExc_TypeError, "tt is a dict or a Solver");
        return NULL;
    }
    DuelPos pos;
    if (!read_pos(g, start, &pos)) return NULL;
    uint64_t rng = state;
    int winner = 0, turns = 0;
    for (; turns < PLAYOUT_TURNS; turns++) {
        /* A position already proven ends the playout with its value. */
        const int won = proven(tt, &pos);
        if (won == -2) return NULL;
        const int mover = pos.cur;
        if (won >= 0) {
            winner = won ? mover : 1 - mover;
            break;
        }
        DuelPos next;
        const int step = policy_step(g, &pos, &rng, &next);
        if (step == STEP_OOM) return PyErr_NoMemory();
        if (step == STEP_LOST) {
            winner = 1 - mover;
            break;
        }
        if (step == STEP_WON) {
            winner = mover;
            break;
        }
        pos = next;
    }
    return Py_BuildValue("(iKi)", winner, (unsigned long long)rng, turns);
}
