/* The CPython module _crollout: ``playouts``, ``plan`` and ``options`` read the rules,
 * the policy's weights and the position from Python (rollout.playouts_c
 * and rollout.plan_c build the arguments), deal each order of the hidden
 * cards and run the playouts of game.c, or the one turn of blind.c.
 * ``playouts`` takes the shared Budget (budget.h, read by pybind.h's
 * py_budget), a playout counting as a node. */
#include "pybind.h"

#include <stdlib.h>

#include "rollout.h"

/* ---- reading the arguments ------------------------------------------------ */
/* Read a sequence of numbers into ints[0..n-1], or where ``ints`` is NULL
 * into floats[0..n-1]; n, or -1 and an exception on error. */
static Py_ssize_t read_numbers(PyObject *seq, long *ints, double *floats, Py_ssize_t max,
                               const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(fast, i);
        const int failed = ints ? (ints[i] = PyLong_AsLong(x)) == -1
                                : (floats[i] = PyFloat_AsDouble(x)) == -1.0;
        if (failed && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return n;
}

static Py_ssize_t read_ints(PyObject *seq, long *out, Py_ssize_t max, const char *what) {
    return read_numbers(seq, out, NULL, max, what);
}

static Py_ssize_t read_floats(PyObject *seq, double *out, Py_ssize_t max, const char *what) {
    return read_numbers(seq, NULL, out, max, what);
}

static PyObject *bad(const char *msg) {
    PyErr_SetString(PyExc_ValueError, msg);
    return NULL;
}

/* The arguments of playouts and plan, as parsed */
typedef struct {
    PyObject *ints, *floats, *position, *top_turn, *sizes;
    PyObject *budget; /* playouts: py_budget's tuple, or None (no limit) */
    Py_buffer fire, tops, hand, orders;
    Py_ssize_t n_orders;
} RunArgs;

/* The rules (blind._Tables) from ``ints``; 0 with an exception set. */
static int read_counts(Tables *tb, const RunArgs *a) {
    long iv[16];
    if (read_ints(a->ints, iv, 16, "ints") != 11) {
        if (!PyErr_Occurred()) bad("ints: 11 entries expected");
        return 0;
    }
    tb->low = (int)iv[0];
    tb->high = (int)iv[1];
    tb->step = (int)iv[2];
    tb->n_asc = (int)iv[3];
    tb->n_piles = (int)(iv[3] + iv[4]);
    tb->hand_size = (int)iv[5];
    tb->min_play = (int)iv[6];
    tb->min_play_empty = (int)iv[7];
    tb->fire_safe_at_clear = iv[8] != 0;
    tb->free_gap = (int)iv[9];
    tb->forced_slack = (int)iv[10];
    if (!(1 <= tb->low && tb->low <= tb->high && tb->high <= MAX_CARD)) {
        bad("cards must lie within 1..127");
        return 0;
    }
    if (iv[3] < 0 || iv[4] < 0 || tb->n_piles > ROLLOUT_MAX_PILES || tb->step < 1 ||
        tb->hand_size > ROLLOUT_MAX_HAND || tb->min_play < 1 || tb->min_play_empty < 1) {
        bad("rules out of the extension's range");
        return 0;
    }
    return 1;
}

/* The policy's weights (BlindParams) from ``floats``; 0 with an exception
 * set. */
static int read_weights(Tables *tb, const RunArgs *a) {
    double fv[4 + 2 * MAX_DEPTH];
    Py_ssize_t nf = read_floats(a->floats, fv, 4 + 2 * MAX_DEPTH, "floats");
    if (nf < 0) return 0;
    if (nf < 4 || (nf - 4) % 2 != 0) {
        bad("floats: 4 weights, then the out and hand steps");
        return 0;
    }
    tb->trick_hand = fv[0];
    tb->trick_unseen = fv[1];
    tb->play_bonus = fv[2];
    tb->fire_cost = fv[3];
    tb->depth = (int)((nf - 4) / 2);
    for (int k = 0; k < tb->depth; k++) {
        tb->out_steps[k] = fv[4 + k];
        tb->hand_steps[k] = fv[4 + tb->depth + k];
    }
    return 1;
}

/* The score's tables of pile tops (Tables.cover, partner, window), from
 * BlindPolicy.score's case analysis of a top t */
static void fill_scores(Tables *tb) {
    for (int t = 0; t <= tb->high + 1; t++) {
        /* ascending: takes the cards above t, and the trick card t - step */
        CardMask cover = t <= tb->high ? tb->above[t] : 0, partner = 0, window = 0;
        int p = t - tb->step;
        if (p >= tb->low) {
            cover |= tb->bit[p];
            if (t <= tb->high + 1) {
                partner = tb->bit[p];
                window = tb->above[p] & tb->below[t];
            }
        }
        tb->cover[0][t] = cover;
        tb->partner[0][t] = partner;
        tb->window[0][t] = window;
        /* descending: takes the cards below t, and the trick card t + step */
        cover = t >= tb->low ? tb->below[t] : 0;
        partner = window = 0;
        p = t + tb->step;
        if (p <= tb->high) {
            cover |= tb->bit[p];
            partner = tb->bit[p];
            window = tb->above[t] & tb->below[p];
        }
        tb->cover[1][t] = cover;
        tb->partner[1][t] = partner;
        tb->window[1][t] = window;
    }
}

/* The fire cards (F1) from ``fire``, and the card masks of the rules'
 * range; 0 with an exception set. */
static int fill_tables(Tables *tb, const RunArgs *a) {
    const uint8_t *f = a->fire.buf;
    for (Py_ssize_t k = 0; k < a->fire.len; k++) {
        if (f[k] < tb->low || f[k] > tb->high) {
            bad("fire card out of range");
            return 0;
        }
        tb->fire[f[k]] = 1;
        tb->has_fire = 1;
    }
    CardMask all = 0;
    for (int c = tb->low; c <= tb->high; c++) all |= card_bit(c);
    for (int c = 0; c <= MAX_CARD; c++) tb->bit[c] = card_bit(c);
    for (int t = 0; t <= tb->high + 1; t++) {
        CardMask le = 0; /* cards <= t */
        for (int c = tb->low; c <= t && c <= tb->high; c++) le |= card_bit(c);
        tb->above[t] = all & ~le;
        tb->below[t] = le & ~(t <= tb->high ? card_bit(t) : 0);
    }
    fill_scores(tb);
    return 1;
}

/* The position the playouts start from: the game without the cards the
 * current player cannot see */
typedef struct {
    Game base;
    CardMask hand;                    /* the current player's */
    long sizes[ROLLOUT_MAX_PLAYERS]; /* every player's hand size */
    Py_ssize_t n_hidden;              /* the other players' cards */
    int end_first; /* end the turn before the policy plays (the review's "end
                    * the turn now", drawing from each order's draw pile) */
} Start;

/* ``position``, ``tops``, ``top_turn``, ``hand`` and ``sizes`` into ``st``;
 * 0 with an exception set. */
static int read_start(const Tables *tb, const RunArgs *a, Start *st) {
    long pos[8], top_turn[ROLLOUT_MAX_PILES];
    const Py_ssize_t n_pos = read_ints(a->position, pos, 8, "position");
    if (n_pos != 5 && n_pos != 6) {
        if (!PyErr_Occurred()) bad("position: 5 or 6 entries expected");
        return 0;
    }
    st->end_first = n_pos == 6 && pos[5] != 0;
    Game *base = &st->base;
    memset(base, 0, sizeof *base);
    base->players = (int)pos[0];
    base->current = (int)pos[1];
    base->turn = (int)pos[2];
    base->turn_min = (int)pos[3];
    base->placed = (int)pos[4];
    if (base->players < 1 || base->players > ROLLOUT_MAX_PLAYERS || base->current < 0 ||
        base->current >= base->players) {
        bad("position: players out of range");
        return 0;
    }
    if (st->end_first && base->placed < base->turn_min) {
        bad("position: the turn cannot end before its minimum");
        return 0;
    }
    if (a->tops.len != tb->n_piles ||
        read_ints(a->top_turn, top_turn, ROLLOUT_MAX_PILES, "top_turn") != tb->n_piles) {
        if (!PyErr_Occurred()) bad("tops and top_turn: one entry per pile");
        return 0;
    }
    for (int i = 0; i < tb->n_piles; i++) {
        base->tops[i] = ((const uint8_t *)a->tops.buf)[i];
        base->top_turn[i] = (int)top_turn[i];
        if (base->tops[i] + 1 < tb->low || base->tops[i] > tb->high + 1) {
            bad("pile top out of range");
            return 0;
        }
    }
    if (read_ints(a->sizes, st->sizes, ROLLOUT_MAX_PLAYERS, "sizes") != base->players) {
        if (!PyErr_Occurred()) bad("sizes: one entry per player");
        return 0;
    }
    st->hand = 0;
    for (Py_ssize_t k = 0; k < a->hand.len; k++) {
        int c = ((const uint8_t *)a->hand.buf)[k];
        if (c < tb->low || c > tb->high || a->hand.len > ROLLOUT_MAX_HAND) {
            bad("hand out of range");
            return 0;
        }
        st->hand |= card_bit(c);
    }
    st->n_hidden = 0;
    for (int p = 0; p < base->players; p++) {
        if (st->sizes[p] < 0 || st->sizes[p] > ROLLOUT_MAX_HAND) {
            bad("hand sizes out of range");
            return 0;
        }
        if (p != base->current) st->n_hidden += st->sizes[p];
    }
    return 1;
}

/* The game of one order of the unseen cards: the other players' hands in
 * player order, then the draw pile */
static Game deal_order(const Start *st, const uint8_t *order, Py_ssize_t k_len) {
    Game g = st->base;
    g.hands[g.current] = st->hand;
    g.unplayed = st->hand;
    Py_ssize_t at = 0;
    for (int p = 0; p < g.players; p++) {
        if (p == g.current) continue;
        for (long k = 0; k < st->sizes[p]; k++) g.hands[p] |= card_bit(order[at + k]);
        at += st->sizes[p];
        g.unplayed |= g.hands[p];
    }
    g.stock = order + at;
    g.stock_pos = 0;
    g.stock_len = (int)(k_len - at);
    for (Py_ssize_t k = at; k < k_len; k++) g.unplayed |= card_bit(order[k]);
    g.status = IN_PROGRESS;
    return g;
}


/* n orders of equal length, each longer than the other players' hands:
 * their length into ``k_len``; 0 with an exception set. */
static int check_orders(const RunArgs *a, const Start *st, Py_ssize_t *k_len) {
    const Py_ssize_t n = a->n_orders;
    if (n < 0 || (n == 0 && a->orders.len != 0) || (n > 0 && a->orders.len % n != 0)) {
        bad("orders: n orders of equal length expected");
        return 0;
    }
    *k_len = n > 0 ? a->orders.len / n : 0;
    if (n > 0 && *k_len < st->n_hidden) {
        bad("orders shorter than the other players' hands");
        return 0;
    }
    return 1;
}

/* The game of order ``o``; 0 with an exception set when a card of the
 * order is out of range. */
static int order_game(const Tables *tb, const RunArgs *a, const Start *st, Py_ssize_t k_len,
                      Py_ssize_t o, Game *g) {
    const uint8_t *order = (const uint8_t *)a->orders.buf + o * k_len;
    for (Py_ssize_t k = 0; k < k_len; k++) {
        if (order[k] < tb->low || order[k] > tb->high) {
            bad("order card out of range");
            return 0;
        }
    }
    *g = deal_order(st, order, k_len);
    return 1;
}

/* The plays the policy makes to finish the current turn, as a list of
 * (card, pile); the one order only fills the other hands and the draw pile,
 * which the blind policy never looks at. */
static PyObject *plan_list(const Tables *tb, const Game *g, KeySet *set) {
    Line line;
    choose_turn(tb, g, set, &line);
    if (set->oom) return PyErr_NoMemory();
    PyObject *out = PyList_New(line.n);
    if (out == NULL) return NULL;
    for (int k = 0; k < line.n; k++) {
        PyObject *item = Py_BuildValue("(ii)", line.card[k], line.pile[k]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, item);
    }
    return out;
}

/* The budget of ``playouts``: none, or py_budget's; 0, or -1 with an
 * exception set */
static int read_budget(const RunArgs *a, Budget *b) {
    if (a->budget == NULL || a->budget == Py_None) {
        *b = budget_make(0);
        return 0;
    }
    return py_budget(a->budget, b);
}

/* Whether the budget stops the playouts before order ``o`` (``o`` playouts
 * made): 1 stop, 0 go on, -1 failed with an exception set. budget_spent's
 * checks, but all of them at every playout rather than every BUDGET_EVERY
 * nodes: a playout weighs as much as thousands of search nodes, and 64 of
 * them would overshoot a deadline by a tenth of a second. */
static int budget_stops(const Budget *b, Py_ssize_t o) {
    if (PyErr_CheckSignals() < 0) return -1; /* Ctrl-C without the polling handler */
    const long long nodes = (long long)o;
    if (nodes >= b->node_limit) return 1;
    if (b->has_deadline && budget_now() > b->deadline) return 1;
    if (b->interrupt) return 1;
    if (!b->progress) return 0;
    const int r = b->progress(b->progress_ctx, nodes);
    return r == BUDGET_FAIL ? -1 : r == BUDGET_STOP;
}

/* The orders played out, up to where the budget stops them: a list of
 * (won, cards left), one per order played, in order */
static PyObject *play_orders(const Tables *tb, const RunArgs *a, const Start *st,
                             Py_ssize_t k_len, KeySet *set) {
    Budget b;
    if (read_budget(a, &b) < 0) return NULL;
    PyObject *result = PyList_New(0);
    if (result == NULL) return NULL;
    for (Py_ssize_t o = 0; o < a->n_orders; o++) {
        const int stop = budget_stops(&b, o);
        if (stop < 0) goto fail;
        if (stop) break;
        Game g;
        if (!order_game(tb, a, st, k_len, o, &g)) goto fail;
        Py_BEGIN_ALLOW_THREADS
        if (st->end_first) end_turn(tb, &g, set);
        play_out(tb, &g, set);
        Py_END_ALLOW_THREADS
        if (set->oom) {
            PyErr_NoMemory();
            goto fail;
        }
        PyObject *item = Py_BuildValue("(Oi)", g.status == WON ? Py_True : Py_False,
                                       card_count(g.unplayed));
        if (item == NULL) goto fail;
        const int appended = PyList_Append(result, item);
        Py_DECREF(item);
        if (appended < 0) goto fail;
    }
    return result;
fail:
    Py_DECREF(result);
    return NULL;
}

/* The best ways to finish the turn, [(cost, [(card, pile), ...]), ...]
 * (BlindPolicy.turn_options, its first ``k``) */
static PyObject *options_list(const Tables *tb, const Game *g, KeySet *set, Py_ssize_t k) {
    Options *o = malloc(sizeof(Options));
    if (o == NULL) return PyErr_NoMemory();
    o->k = (int)(k < MAX_OPTIONS ? k : MAX_OPTIONS);
    turn_options(tb, g, set, o);
    PyObject *out = set->oom ? PyErr_NoMemory() : PyList_New(o->n);
    for (int e = 0; out != NULL && e < o->n; e++) {
        PyObject *plays = PyList_New(o->line[e].n);
        PyObject *item = plays ? Py_BuildValue("(dN)", o->cost[e], plays) : NULL;
        if (item == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, e, item);
        for (int q = 0; q < o->line[e].n; q++) {
            PyObject *play = Py_BuildValue("(ii)", o->line[e].card[q], o->line[e].pile[q]);
            if (play == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(plays, q, play);
        }
    }
    free(o);
    return out;
}

/* playouts (plan 0), plan (plan 1) and options (plan 2): the same
 * arguments, read once; options takes the number of entries after them. */
static PyObject *run(PyObject *args, int plan) {
    RunArgs a;
    Py_ssize_t k = 0;
    a.budget = NULL;
    const int parsed =
        plan == 0 ? PyArg_ParseTuple(args, "OOy*Oy*Oy*Oy*n|O", &a.ints, &a.floats, &a.fire,
                                     &a.position, &a.tops, &a.top_turn, &a.hand, &a.sizes,
                                     &a.orders, &a.n_orders, &a.budget)
                  : PyArg_ParseTuple(args, "OOy*Oy*Oy*Oy*n|n", &a.ints, &a.floats, &a.fire,
                                     &a.position, &a.tops, &a.top_turn, &a.hand, &a.sizes,
                                     &a.orders, &a.n_orders, &k);
    if (!parsed) return NULL;
    PyObject *result = NULL;
    Tables *tb = calloc(1, sizeof(Tables));
    KeySet set = {0};
    Start st;
    Py_ssize_t k_len;
    if (tb == NULL) {
        PyErr_NoMemory();
    } else if (read_counts(tb, &a) && read_weights(tb, &a) && fill_tables(tb, &a) &&
               read_start(tb, &a, &st) && check_orders(&a, &st, &k_len)) {
        if (!keyset_init(&set, 1 << 12)) {
            PyErr_NoMemory();
        } else if (!plan) {
            result = play_orders(tb, &a, &st, k_len, &set);
        } else if (a.n_orders != 1) {
            bad("plan: one order expected");
        } else {
            Game g;
            if (order_game(tb, &a, &st, k_len, 0, &g))
                result = plan == 1 ? plan_list(tb, &g, &set) : options_list(tb, &g, &set, k);
        }
    }
    keyset_free(&set);
    free(tb);
    PyBuffer_Release(&a.fire);
    PyBuffer_Release(&a.tops);
    PyBuffer_Release(&a.hand);
    PyBuffer_Release(&a.orders);
    return result;
}

/* ---- the module --------------------------------------------------------------- */

PyDoc_STRVAR(playouts_doc,
             "playouts(ints, floats, fire, position, tops, top_turn, hand, sizes, orders, n,\n"
             "         budget=None)\n"
             "--\n\n"
             "Blind-policy playouts, as many orders as the budget (node_limit, deadline,\n"
             "memory, progress) lets play, a playout a node; see rollout.playouts_c.");

static PyObject *py_playouts(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, 0);
}

PyDoc_STRVAR(plan_doc,
             "plan(ints, floats, fire, position, tops, top_turn, hand, sizes, order, 1)\n"
             "--\n\n"
             "The blind policy's plays for the rest of the turn, [(card, pile), ...];\n"
             "see rollout.plan_c.");

static PyObject *py_plan(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, 1);
}

PyDoc_STRVAR(options_doc,
             "options(ints, floats, fire, position, tops, top_turn, hand, sizes, order, 1, k)\n"
             "--\n\n"
             "The blind policy's best k ways to finish the turn, [(cost, [(card, pile), ...]),\n"
             "...], best first; see rollout.turn_options_c.");

static PyObject *py_options(PyObject *self, PyObject *args) {
    (void)self;
    return run(args, 2);
}

static PyMethodDef methods[] = {
    {"playouts", py_playouts, METH_VARARGS, playouts_doc},
    {"plan", py_plan, METH_VARARGS, plan_doc},
    {"options", py_options, METH_VARARGS, options_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_crollout",
    .m_doc = "Compiled blind-policy playouts (see thegame.analysis.the_game.rollout).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__crollout(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    /* Built with -mpopcnt (setup.py, x86-64): without the instruction GCC
     * would call a library routine for every set size, a third of the
     * playouts' time. Refuse to load on a CPU without it, so rollout.py
     * falls back to Python instead of the process dying on an illegal
     * instruction. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_crollout needs a CPU with POPCNT");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
