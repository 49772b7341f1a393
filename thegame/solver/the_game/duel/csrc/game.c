/* The methods of _cduel.Game over positions: expand (DuelSearch._expand's
 * children), turns, has_turn, and the one-sided turns of the races
 * (solo_turns, relaxed_turns, dead_cards). */
#include <stdlib.h>

#include "bindings.h"
#include "bounds.h"

int game_init(GameObject *self, PyObject *args, PyObject *kw) {
    (void)kw;
    DuelRules *g = &self->rules;
    Py_buffer d0, d1;
    int hs, mp, mpe, step, draw_own;
    if (!PyArg_ParseTuple(args, "y*y*iiiii", &d0, &d1, &hs, &mp, &mpe, &step, &draw_own))
        return -1;
    int ok = d0.len <= MAX_DECK && d1.len <= MAX_DECK && hs >= 0 && mp >= 1 && mpe >= 1 &&
             step >= 1 && draw_own >= 0;
    const Py_buffer *decks[2] = {&d0, &d1};
    for (int q = 0; ok && q < 2; q++) {
        g->deck_len[q] = (int)decks[q]->len;
        CardMask64 seen = 0;
        for (Py_ssize_t k = 0; k < decks[q]->len; k++) {
            const int c = ((const uint8_t *)decks[q]->buf)[k];
            if (c > MAX_CARD || (seen >> c & 1)) ok = 0;
            seen |= (CardMask64)1 << (c & MAX_CARD);
            g->deck[q][k] = (uint8_t)c;
        }
        g->rest[q][decks[q]->len] = 0;
        for (Py_ssize_t k = decks[q]->len - 1; k >= 0; k--)
            g->rest[q][k] = g->rest[q][k + 1] | (CardMask64)1 << g->deck[q][k];
    }
    PyBuffer_Release(&d0);
    PyBuffer_Release(&d1);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "duel outside the compiled kernel's range");
        return -1;
    }
    g->hand_size = hs;
    g->min_play = mp;
    g->min_play_empty = mpe;
    g->step = step;
    g->draw_own = draw_own;
    return 0;
}

/* An expansion's child: (position after, score, the opponent has a turn) */
static PyObject *child_tuple(const DuelRules *g, const DuelPos *pos, const DuelPos *after) {
    const int ht = has_turn(g, after);
    if (ht < 0) return PyErr_NoMemory();
    PyObject *items = pos_tuple(after);
    PyObject *item = items ? PyTuple_New(3) : NULL;
    if (!item) {
        Py_XDECREF(items);
        return NULL;
    }
    PyObject *sc = PyLong_FromLong(score(g, pos, after));
    PyTuple_SET_ITEM(item, 0, items);
    PyTuple_SET_ITEM(item, 1, sc);
    PyTuple_SET_ITEM(item, 2, PyBool_FromLong(ht));
    if (!sc) Py_CLEAR(item);
    return item;
}

PyObject *game_expand(GameObject *self, PyObject *arg) {
    const DuelRules *g = &self->rules;
    DuelPos pos;
    if (!read_pos(g, arg, &pos)) return NULL;
    TurnSearch T;
    if (!list_turns(&T, g, &pos, 0, 0, 2)) return PyErr_NoMemory();
    const size_t n = T.n_out;
    TurnResult *r = T.out;
    int status = n == 0 ? 0 : 2;
    for (size_t i = 0; i < n && status == 2; i++)
        if (r[i].won) status = 1;
    if (status != 2) {
        turns_free(&T);
        return Py_BuildValue("(i[])", status);
    }
    unsigned char *dropped = calloc(n, 1);
    if (!dropped || !undominated(g, pos.cur, r, n, dropped)) {
        free(dropped);
        turns_free(&T);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        if (dropped[i]) continue;
        PyObject *item = child_tuple(g, &pos, &r[i].after);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(item);
    }
    free(dropped);
    turns_free(&T);
    if (!list) return NULL;
    return Py_BuildValue("(iN)", 2, list);
}

PyObject *game_turns(GameObject *self, PyObject *args) {
    const DuelRules *g = &self->rules;
    PyObject *pos_o;
    int done = 0, dumped = 0;
    if (!PyArg_ParseTuple(args, "O|ip", &pos_o, &done, &dumped)) return NULL;
    DuelPos pos;
    if (!read_pos(g, pos_o, &pos)) return NULL;
    if (done < 0) {
        PyErr_SetString(PyExc_ValueError, "position out of range");
        return NULL;
    }
    TurnSearch T;
    if (!list_turns(&T, g, &pos, done, dumped, 0)) return PyErr_NoMemory();
    PyObject *list = PyList_New((Py_ssize_t)T.n_out);
    for (size_t i = 0; list && i < T.n_out; i++) {
        const TurnResult *r = &T.out[i];
        PyObject *item =
            turn_pair(plays_tuple(T.plays_c + r->plays, T.plays_pile + r->plays, r->n_plays),
                      r->won ? (Py_INCREF(Py_None), Py_None) : pos_tuple(&r->after));
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    turns_free(&T);
    return list;
}

PyObject *game_has_turn(GameObject *self, PyObject *arg) {
    DuelPos pos;
    if (!read_pos(&self->rules, arg, &pos)) return NULL;
    const int r = has_turn(&self->rules, &pos);
    if (r < 0) return PyErr_NoMemory();
    return PyBool_FromLong(r);
}

/* ---- the races' one-sided turns (duel/race.py, duel/survival.py) ----------- */

/* (p, (hand, at, a, d)), and ``robust`` where it is asked for, from
 * ``args``, checked; 0 with an exception set */
static int parse_solo(const DuelRules *g, PyObject *args, int *p, SoloState *st, int *robust) {
    unsigned long long hand;
    const int ok = robust ? PyArg_ParseTuple(args, "i(Kiii)p", p, &hand, &st->at, &st->a, &st->d,
                                             robust)
                          : PyArg_ParseTuple(args, "i(Kiii)", p, &hand, &st->at, &st->a, &st->d);
    st->hand = (CardMask64)hand;
    return ok && solo_in_range(g, *p, st);
}

PyObject *game_solo_turns(GameObject *self, PyObject *args) {
    const DuelRules *g = &self->rules;
    int p, robust;
    SoloState st;
    if (!parse_solo(g, args, &p, &st, &robust)) return NULL;
    SoloSearch S;
    if (!solo_list(g, &S, p, &st, robust, 0, 1)) return PyErr_NoMemory();
    int take = g->deck_len[p] - st.at;
    if (g->draw_own < take) take = g->draw_own;
    if (take < 0) take = 0;
    CardMask64 drawn = 0;
    for (int k = 0; k < take; k++) drawn |= (CardMask64)1 << g->deck[p][st.at + k];
    PyObject *list = PyList_New((Py_ssize_t)S.n_out);
    for (size_t i = 0; list && i < S.n_out; i++) {
        const SoloResult *r = &S.out[i];
        PyObject *after = r->hand == 0 && S.empty
                              ? (Py_INCREF(Py_None), Py_None)
                              : Py_BuildValue("(Kiii)", (unsigned long long)(r->hand | drawn),
                                              st.at + take, r->a, r->d);
        PyObject *item = turn_pair(plays_tuple(S.plays_c + r->plays, S.plays_pile + r->plays, r->n), after);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(S.out);
    free(S.plays_c);
    free(S.plays_pile);
    return list;
}

PyObject *game_relaxed_turns(GameObject *self, PyObject *args) {
    const DuelRules *g = &self->rules;
    int p, won;
    SoloState st, *out;
    size_t n;
    if (!parse_solo(g, args, &p, &st, NULL)) return NULL;
    if (!relaxed_list(g, p, &st, &out, &n, &won)) return PyErr_NoMemory();
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(Kiii)", (unsigned long long)out[i].hand, out[i].at,
                                       out[i].a, out[i].d);
        if (!item || PyList_Append(list, item) < 0) Py_CLEAR(list);
        Py_XDECREF(item);
    }
    free(out);
    if (list && won && PyList_Append(list, Py_None) < 0) Py_CLEAR(list);
    return list;
}

PyObject *game_dead_cards(GameObject *self, PyObject *args) {
    int p;
    SoloState st;
    if (!parse_solo(&self->rules, args, &p, &st, NULL)) return NULL;
    return PyLong_FromLong(dead_count(&self->rules, p, &st));
}
