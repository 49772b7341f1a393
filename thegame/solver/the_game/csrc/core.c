/* The ``Core`` type: the compiled kernel's position with the Kernel interface
 * (ckernel.CKernel wraps it), for the conformance tests and for anything
 * that walks a kernel from Python; ``_search`` is in module.c. */
#include "bindings.h"

int check_configured(CoreObject *o) {
    if (!o->configured) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled kernel is not configured");
        return 0;
    }
    return 1;
}

static int check_state(const Kernel *k) {
    for (int i = 0; i < k->n_piles; i++)
        if (k->s.tops[i] < 0 || k->s.tops[i] >= k->size) {
            PyErr_SetString(PyExc_ValueError, "a top outside the card range");
            return 0;
        }
    if (k->s.cur < 0 || k->s.cur >= k->players || k->s.pos < 0 || k->s.pos > k->total) {
        PyErr_SetString(PyExc_ValueError, "a player or draw position out of range");
        return 0;
    }
    /* the memo key holds at most the hand size per hand (key_words) */
    for (int p = 0; p < k->players; p++)
        if (card_count(k->s.hands[p]) > k->hand_size) {
            PyErr_SetString(PyExc_ValueError, "a hand over the hand size");
            return 0;
        }
    if (k->s.t < 0 || k->s.t > tmax_of(&k->ks)) {
        PyErr_SetString(PyExc_ValueError, "more plays this turn than a hand holds");
        return 0;
    }
    return 1;
}

/* _configure(players, hand_size, n_asc, n_piles, step, min_play, min_empty, low, size,
 *            base_max_turn, w2, w3, fire, deck, trick_up, trick_down, first_beyond,
 *            last_beyond, accepted_up, accepted_down) */
static PyObject *core_configure(CoreObject *self, PyObject *args) {
    Kernel *k = &self->k;
    PyObject *fire, *deck, *tu, *td, *fb, *lb, *au, *ad;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiiiiOOOOOOOO", &k->players, &k->hand_size, &k->n_asc,
                          &k->n_piles, &k->step, &k->min_play, &k->min_empty, &k->low, &k->size,
                          &k->base_max_turn, &k->w2, &k->w3, &fire, &deck, &tu, &td, &fb, &lb,
                          &au, &ad))
        return NULL;
    self->configured = 0;
    if (k->players < 1 || k->players > KERNEL_MAX_PLAYERS || k->n_piles < 1 ||
        k->n_piles > KERNEL_MAX_PILES ||
        k->n_asc < 0 || k->n_asc > k->n_piles || k->size < 2 || k->size > KERNEL_MAX_SIZE ||
        k->step < 1) {
        PyErr_SetString(PyExc_ValueError, "the compiled kernel does not cover these rules");
        return NULL;
    }
    Py_ssize_t nd = PySequence_Size(deck);
    if (nd < 0) return NULL;
    if (nd > KERNEL_MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "deck too long");
        return NULL;
    }
    k->total = (int)nd;
    if (py_to_mask(fire, &k->fire) < 0 || int_list(deck, k->deck, k->total, "deck") < 0 ||
        int_list(tu, k->trick_top[0], k->size + 1, "trick_up") < 0 ||
        int_list(td, k->trick_top[1], k->size + 1, "trick_down") < 0 ||
        int_list(fb, k->first_beyond, k->size + 1, "first_beyond") < 0 ||
        int_list(lb, k->last_beyond, k->size + 1, "last_beyond") < 0 ||
        mask_list(au, k->accepted[0], k->size + 1, "accepted_up") < 0 ||
        mask_list(ad, k->accepted[1], k->size + 1, "accepted_down") < 0)
        return NULL;
    for (int i = 0; i < k->total; i++)
        if (k->deck[i] < 0 || k->deck[i] >= k->size) {
            PyErr_SetString(PyExc_ValueError, "a card outside the card range");
            return NULL;
        }
    k->extreme = 0;
    k->stop = k->skull = k->three = k->no_trick = k->one_pile = k->draw_one = 0;
    k->ks = key_shape(k->players, k->hand_size, k->size, k->total, k->min_play, 0);
    memset(&k->s, 0, sizeof(State));
    self->configured = 1;
    Py_RETURN_NONE;
}

/* _commands(stop, skull, three, no_trick, one_pile, draw_one): the cards of
 * each command kind (masks); the kernel is then ExtremeKernel's */
static PyObject *core_commands(CoreObject *self, PyObject *args) {
    if (!check_configured(self)) return NULL;
    Kernel *k = &self->k;
    PyObject *o[6];
    CardMask m[6];
    if (!PyArg_ParseTuple(args, "OOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5])) return NULL;
    for (int i = 0; i < 6; i++)
        if (py_to_mask(o[i], &m[i]) < 0) return NULL;
    if (k->fire) {
        PyErr_SetString(PyExc_ValueError, "commands with fire cards are not modelled");
        return NULL;
    }
    k->stop = m[0];
    k->skull = m[1];
    k->three = m[2];
    k->no_trick = m[3];
    k->one_pile = m[4];
    k->draw_one = m[5];
    k->extreme = 1;
    k->ks = key_shape(k->players, k->hand_size, k->size, k->total, k->min_play, 1);
    Py_RETURN_NONE;
}

/* _set_state(tops, hands, pos, unplayed, cur, t, pending, turn_min, max_turn) */
static PyObject *core_set_state(CoreObject *self, PyObject *args) {
    if (!check_configured(self)) return NULL;
    Kernel *k = &self->k;
    PyObject *tops, *hands, *un;
    State s;
    if (!PyArg_ParseTuple(args, "OOiOiiiii", &tops, &hands, &s.pos, &un, &s.cur, &s.t,
                          &s.pending, &s.turn_min, &s.max_turn))
        return NULL;
    memset(s.tops, 0, sizeof s.tops);
    memset(s.hands, 0, sizeof s.hands);
    if (int_list(tops, s.tops, k->n_piles, "tops") < 0 ||
        mask_list(hands, s.hands, k->players, "hands") < 0 || py_to_mask(un, &s.unplayed) < 0)
        return NULL;
    State old = k->s;
    k->s = s;
    if (!check_state(k)) {
        k->s = old;
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *moves_list(const Move *ms, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(iii)", ms[i].cost, ms[i].c, ms[i].pile);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *core_moves(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    Move ms[MAX_MOVES];
    return moves_list(ms, moves(&self->k, ms));
}

static PyObject *core_all_moves(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    Move ms[MAX_MOVES];
    return moves_list(ms, all_moves(&self->k, ms));
}

static PyObject *core_legal_plays(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    Kernel *k = &self->k;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    CardMask h = k->s.hands[k->s.cur], shown = k->extreme ? x_shown(k) : 0;
    int no_trick = (shown & k->no_trick) != 0, one_pile = (shown & k->one_pile) != 0;
    while (h) {
        int c = lowest_card(h);
        h &= h - 1;
        for (int i = 0; i < k->n_piles; i++) {
            if (!card_in(k->accepted[i < k->n_asc ? 0 : 1][k->s.tops[i]], c)) continue;
            if (k->extreme && !x_keeps(k, c, i, no_trick, one_pile)) continue;
            PyObject *t = Py_BuildValue("(ii)", c, i);
            if (!t || PyList_Append(out, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(t);
        }
    }
    return out;
}

static int check_play(const Kernel *k, int c, int pile) {
    if (pile < 0 || pile >= k->n_piles || c < 0 || c >= k->size) {
        PyErr_SetString(PyExc_ValueError, "no such card or pile");
        return 0;
    }
    return 1;
}

static PyObject *core_play(CoreObject *self, PyObject *args) {
    int c, pile;
    if (!check_configured(self) || !PyArg_ParseTuple(args, "ii", &c, &pile)) return NULL;
    if (!check_play(&self->k, c, pile)) return NULL;
    PlayUndo u = play(&self->k, c, pile);
    return Py_BuildValue("(ii)", u.top, u.pending);
}

static PyObject *core_unplay(CoreObject *self, PyObject *args) {
    int c, pile;
    PlayUndo u;
    if (!check_configured(self) ||
        !PyArg_ParseTuple(args, "ii(ii)", &c, &pile, &u.top, &u.pending))
        return NULL;
    if (!check_play(&self->k, c, pile)) return NULL;
    unplay(&self->k, c, pile, u);
    Py_RETURN_NONE;
}

static PyObject *core_end_turn(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    TurnUndo u = end_turn(&self->k);
    PyObject *hand = py_from_mask(u.hand);
    if (!hand) return NULL;
    return Py_BuildValue("(iiiNiii)", u.player, u.plays, u.pos, hand, u.pending, u.turn_min,
                         u.max_turn);
}

static PyObject *core_unend_turn(CoreObject *self, PyObject *args) {
    TurnUndo u;
    PyObject *hand;
    if (!check_configured(self) ||
        !PyArg_ParseTuple(args, "(iiiOiii)", &u.player, &u.plays, &u.pos, &hand, &u.pending,
                          &u.turn_min, &u.max_turn))
        return NULL;
    if (py_to_mask(hand, &u.hand) < 0) return NULL;
    if (u.player < 0 || u.player >= self->k.players) {
        PyErr_SetString(PyExc_ValueError, "no such player");
        return NULL;
    }
    unend_turn(&self->k, u);
    Py_RETURN_NONE;
}

static PyObject *core_key(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    Kernel *k = &self->k;
    int na = k->n_asc, np = k->n_piles, x = k->extreme;
    int marked[KERNEL_MAX_PILES];
    for (int i = 0; i < np; i++)
        marked[i] = x ? k->s.tops[i] * 2 + ((k->s.pending >> i) & 1)
                      : k->s.tops[i] + (((k->s.pending >> i) & 1) ? 1000 : 0);
    for (int g = 0; g < 2; g++) {
        int from = g ? na : 0, to = g ? np : na;
        for (int i = from + 1; i < to; i++) {
            int v = marked[i], j = i - 1;
            while (j >= from && marked[j] > v) { marked[j + 1] = marked[j]; j--; }
            marked[j + 1] = v;
        }
    }
    PyObject *out = PyTuple_New(np + k->players + 3 + x);
    if (!out) return NULL;
    int n = 0;
    for (int i = 0; i < np; i++) PyTuple_SET_ITEM(out, n++, PyLong_FromLong(marked[i]));
    for (int p = 0; p < k->players; p++) PyTuple_SET_ITEM(out, n++, py_from_mask(k->s.hands[p]));
    PyTuple_SET_ITEM(out, n++, PyLong_FromLong(k->s.pos));
    PyTuple_SET_ITEM(out, n++, PyLong_FromLong(k->s.cur));
    PyTuple_SET_ITEM(out, n++, PyLong_FromLong(x ? x_key_turns(k) : key_turns(k)));
    if (x) PyTuple_SET_ITEM(out, n++, PyLong_FromLong(k->s.pending >> 20));
    for (int i = 0; i < n; i++)
        if (!PyTuple_GET_ITEM(out, i)) {
            Py_DECREF(out);
            return NULL;
        }
    return out;
}

/* _key_words(): the memo key as the compiled tables hold it (key_words) */
static PyObject *core_key_words(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    uint64_t w[MAX_KEY_WORDS];
    int n = make_key(&self->k, w);
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "the position does not fit the key");
        return NULL;
    }
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(w[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

#define BOOL_METHOD(name, expr)                                           \
    static PyObject *core_##name(CoreObject *self, PyObject *unused) {    \
        (void)unused;                                                     \
        if (!check_configured(self)) return NULL;                         \
        Kernel *k = &self->k;                                                  \
        return PyBool_FromLong(expr);                                     \
    }
BOOL_METHOD(won, won(k))
BOOL_METHOD(can_end, can_end(k))
/* Extreme: min_met is can_end, and no end loses (the solver never ends a
 * turn that breaks a command, X2) */
BOOL_METHOD(min_met, k->extreme ? x_can_end(k) : k->s.t >= k->s.turn_min)
BOOL_METHOD(end_loses, !k->extreme && k->s.pending != 0)
BOOL_METHOD(auto_end, auto_end(k))
BOOL_METHOD(dead_card, dead_mask(k) != 0)
BOOL_METHOD(turn_cut, turn_cut(k))

static PyObject *core_dead_mask(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    return py_from_mask(dead_mask(&self->k));
}

static PyObject *core_reach(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    int lo, hi;
    reach(&self->k, &lo, &hi);
    return Py_BuildValue("(ii)", lo, hi);
}

static PyObject *core_stuck_ahead(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    return PyBool_FromLong(stuck_ahead(&self->k));
}

static PyObject *core_evaluate(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (!check_configured(self)) return NULL;
    return PyLong_FromLong(evaluate(&self->k));
}

static TurnScratch py_scratch; /* for turn lists asked from Python */

static PyObject *turns_py(CoreObject *self, PyObject *args, TurnKind kind) {
    long long branch = INF, longest = INF, extra = INF;
    if (!check_configured(self) || !PyArg_ParseTuple(args, "|LLL", &branch, &longest, &extra))
        return NULL;
    if (branch > INF) branch = INF;
    if (longest > INF) longest = INF;
    if (extra > INF) extra = INF;
    Kernel *k = &self->k;
    if (kind == TURNS_SOLO && k->players != 1) {
        PyErr_SetString(PyExc_ValueError, "solo_turns is for solo games");
        return NULL;
    }
    if ((kind == TURNS_EXTREME) != k->extreme) {
        PyErr_SetString(PyExc_ValueError, "extreme_turns is for Extreme, and only it");
        return NULL;
    }
    TurnList tl;
    State saved = k->s;
    int ok = list_turns(k, &py_scratch, kind, (int)branch, (int)longest, (int)extra, &tl);
    k->s = saved;
    if (!ok) return PyErr_NoMemory();
    PyObject *out = PyList_New(tl.n);
    if (!out) {
        turns_free(&tl);
        return NULL;
    }
    for (int r = 0; r < tl.n; r++) {
        PyObject *plays = PyList_New(tl.len[r]);
        if (!plays) {
            Py_DECREF(out);
            turns_free(&tl);
            return NULL;
        }
        for (int i = 0; i < tl.len[r]; i++) {
            Action a = tl.plays[tl.off[r] + i];
            PyList_SET_ITEM(plays, i, Py_BuildValue("(ii)", a.c, a.p));
        }
        PyList_SET_ITEM(out, r, Py_BuildValue("(iN)", tl.cost[r], plays));
    }
    turns_free(&tl);
    return out;
}

static PyObject *core_solo_turns(CoreObject *self, PyObject *args) {
    return turns_py(self, args, TURNS_SOLO);
}
static PyObject *core_fire_turns(CoreObject *self, PyObject *args) {
    return turns_py(self, args, TURNS_FIRE);
}
static PyObject *core_extreme_turns(CoreObject *self, PyObject *args) {
    return turns_py(self, args, TURNS_EXTREME);
}

static PyObject *get_tops(CoreObject *self, void *c) {
    (void)c;
    PyObject *out = PyList_New(self->k.n_piles);
    if (!out) return NULL;
    for (int i = 0; i < self->k.n_piles; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(self->k.s.tops[i]));
    return out;
}

static PyObject *get_hands(CoreObject *self, void *c) {
    (void)c;
    PyObject *out = PyList_New(self->k.players);
    if (!out) return NULL;
    for (int p = 0; p < self->k.players; p++) {
        PyObject *h = py_from_mask(self->k.s.hands[p]);
        if (!h) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, p, h);
    }
    return out;
}

static PyObject *get_unplayed(CoreObject *self, void *c) {
    (void)c;
    return py_from_mask(self->k.s.unplayed);
}

#define INT_FIELD(name)                                                            \
    static PyObject *get_##name(CoreObject *self, void *c) {                       \
        (void)c;                                                                   \
        return PyLong_FromLong(self->k.s.name);                                    \
    }                                                                              \
    static int set_##name(CoreObject *self, PyObject *v, void *c) {                \
        (void)c;                                                                   \
        if (!v) {                                                                  \
            PyErr_SetString(PyExc_AttributeError, "cannot delete " #name);         \
            return -1;                                                             \
        }                                                                          \
        long x = PyLong_AsLong(v);                                                 \
        if (x == -1 && PyErr_Occurred()) return -1;                                \
        self->k.s.name = (int)x;                                                   \
        return 0;                                                                  \
    }
INT_FIELD(t)
INT_FIELD(pending)
INT_FIELD(turn_min)
INT_FIELD(max_turn)

static PyObject *get_pos(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->k.s.pos);
}
static PyObject *get_cur(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->k.s.cur);
}

static PyGetSetDef core_getset[] = {
    {"tops", (getter)get_tops, NULL, "pile tops (a copy)", NULL},
    {"hands", (getter)get_hands, NULL, "hands as masks (a copy)", NULL},
    {"unplayed", (getter)get_unplayed, NULL, "cards in hands and the draw pile", NULL},
    {"pos", (getter)get_pos, NULL, "cards dealt so far", NULL},
    {"cur", (getter)get_cur, NULL, "player to move", NULL},
    {"t", (getter)get_t, (setter)set_t, "plays this turn", NULL},
    {"pending", (getter)get_pending, (setter)set_pending, "piles with a fire card due", NULL},
    {"turn_min", (getter)get_turn_min, (setter)set_turn_min, "this turn's minimum", NULL},
    {"max_turn", (getter)get_max_turn, (setter)set_max_turn, "longest turn worth trying", NULL},
    {NULL},
};

static PyMethodDef core_methods[] = {
    {"_configure", (PyCFunction)core_configure, METH_VARARGS, NULL},
    {"_set_state", (PyCFunction)core_set_state, METH_VARARGS, NULL},
    {"_commands", (PyCFunction)core_commands, METH_VARARGS, NULL},
    {"_search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS, NULL},
    {"moves", (PyCFunction)core_moves, METH_NOARGS, NULL},
    {"_all_moves", (PyCFunction)core_all_moves, METH_NOARGS, NULL},
    {"legal_plays", (PyCFunction)core_legal_plays, METH_NOARGS, NULL},
    {"play", (PyCFunction)core_play, METH_VARARGS, NULL},
    {"unplay", (PyCFunction)core_unplay, METH_VARARGS, NULL},
    {"end_turn", (PyCFunction)core_end_turn, METH_NOARGS, NULL},
    {"unend_turn", (PyCFunction)core_unend_turn, METH_VARARGS, NULL},
    {"key", (PyCFunction)core_key, METH_NOARGS, NULL},
    {"_key_words", (PyCFunction)core_key_words, METH_NOARGS, NULL},
    {"won", (PyCFunction)core_won, METH_NOARGS, NULL},
    {"can_end", (PyCFunction)core_can_end, METH_NOARGS, NULL},
    {"min_met", (PyCFunction)core_min_met, METH_NOARGS, NULL},
    {"end_loses", (PyCFunction)core_end_loses, METH_NOARGS, NULL},
    {"auto_end", (PyCFunction)core_auto_end, METH_NOARGS, NULL},
    {"dead_card", (PyCFunction)core_dead_card, METH_NOARGS, NULL},
    {"dead_mask", (PyCFunction)core_dead_mask, METH_NOARGS, NULL},
    {"reach", (PyCFunction)core_reach, METH_NOARGS, NULL},
    {"stuck_ahead", (PyCFunction)core_stuck_ahead, METH_NOARGS, NULL},
    {"turn_cut", (PyCFunction)core_turn_cut, METH_NOARGS, NULL},
    {"evaluate", (PyCFunction)core_evaluate, METH_NOARGS, NULL},
    {"solo_turns", (PyCFunction)core_solo_turns, METH_VARARGS, NULL},
    {"fire_turns", (PyCFunction)core_fire_turns, METH_VARARGS, NULL},
    {"extreme_turns", (PyCFunction)core_extreme_turns, METH_VARARGS, NULL},
    {NULL},
};

PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game._ckernel.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The compiled kernel's position and moves (see ckernel.CKernel).",
    .tp_new = PyType_GenericNew,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};
