/* The WebAssembly binding of the classic family's search core (and
 * Extreme's): the same C as the Python extension (thegame/solver/the_game/
 * csrc, without its CPython files), driven by solver.js. build-wasm.sh
 * builds it; the tests compare its searches with the Python binding's node
 * for node.
 *
 * One kernel lives here: ``tg_configure`` takes the deal as an int array
 * (solver.js makes it from webcore.kernel_config), ``tg_reset`` goes back
 * to the deal's start, ``tg_play``/``tg_end_turn`` walk the turns played
 * (checked against the placement tables and the turn's end, as the kernel
 * knows them), and ``tg_search`` runs the decision search from there; its
 * result is read with ``tg_nodes``, ``tg_best_left``, ``tg_line``.
 */
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define EXPORT(name) __attribute__((export_name(#name)))

/* What tg_play and tg_end_turn answer (solver.js words them) */
enum { OK = 0, NO_SUCH = 1, NOT_IN_HAND = 2, NOT_TAKEN = 3, CANNOT_END = 4, COMMAND = 5, OVER = 6 };

static Kernel K;
static State start;
static int configured;
static int lost; /* the game ended lost (F2, X2, C8): the rules engine's ``over`` */

/* The last search's answer: its line (a whole game unless a win), the
 * cards that line leaves, its nodes */
static Action *res_line;
static int res_len, res_left;
static double res_nodes;

/* The 128-bit shifts the compiler calls on wasm32 (i128 has no
 * instructions there): the word-wise shift, for counts 0..127 */
typedef union {
    unsigned __int128 all;
    struct {
        uint64_t lo, hi;
    } w;
} U128;

__int128 __ashlti3(__int128 a, int b) {
    U128 x, r;
    x.all = (unsigned __int128)a;
    if (b >= 64) {
        r.w.lo = 0;
        r.w.hi = x.w.lo << (b - 64);
    } else if (b == 0) {
        return a;
    } else {
        r.w.lo = x.w.lo << b;
        r.w.hi = (x.w.hi << b) | (x.w.lo >> (64 - b));
    }
    return (__int128)r.all;
}

__int128 __lshrti3(__int128 a, int b) {
    U128 x, r;
    x.all = (unsigned __int128)a;
    if (b >= 64) {
        r.w.hi = 0;
        r.w.lo = x.w.hi >> (b - 64);
    } else if (b == 0) {
        return a;
    } else {
        r.w.hi = x.w.hi >> b;
        r.w.lo = (x.w.lo >> b) | (x.w.hi << (64 - b));
    }
    return (__int128)r.all;
}

EXPORT(tg_alloc) void *tg_alloc(int bytes) { return malloc(bytes > 0 ? (size_t)bytes : 1); }

EXPORT(tg_free) void tg_free(void *p) { free(p); }

/* ---- the deal ------------------------------------------------------------ */

typedef struct {
    const int32_t *p;
    int left, bad;
} Reader;

static int next_int(Reader *r) {
    if (r->left <= 0) {
        r->bad = 1;
        return 0;
    }
    r->left--;
    return *r->p++;
}

static CardMask next_mask(Reader *r) {
    CardMask m = 0;
    for (int i = 0; i < 4; i++) m |= (CardMask)(uint32_t)next_int(r) << (32 * i);
    return m;
}

static void next_ints(Reader *r, int *out, int n) {
    for (int i = 0; i < n; i++) out[i] = next_int(r);
}

/* The int array solver.js's configInts writes: 0 when taken, else the
 * first field found wrong (its rank, from 1). */
EXPORT(tg_configure) int tg_configure(const int32_t *v, int n) {
    Reader r = {v, n, 0};
    Kernel *k = &K;
    configured = 0;
    if (next_int(&r) != 1) return 1; /* the format */
    k->players = next_int(&r);
    k->hand_size = next_int(&r);
    k->n_asc = next_int(&r);
    k->n_piles = next_int(&r);
    k->step = next_int(&r);
    k->min_play = next_int(&r);
    k->min_empty = next_int(&r);
    k->low = next_int(&r);
    k->size = next_int(&r);
    k->base_max_turn = next_int(&r);
    k->w2 = next_int(&r);
    k->w3 = next_int(&r);
    k->extreme = next_int(&r) != 0;
    k->total = next_int(&r);
    if (r.bad || k->players < 1 || k->players > KERNEL_MAX_PLAYERS || k->n_piles < 1 ||
        k->n_piles > KERNEL_MAX_PILES || k->n_asc < 0 || k->n_asc > k->n_piles || k->size < 2 ||
        k->size > KERNEL_MAX_SIZE || k->step < 1 || k->total < 0 || k->total > KERNEL_MAX_SIZE ||
        k->hand_size < 1 || k->players * k->hand_size > k->total)
        return 2;
    k->fire = next_mask(&r);
    k->stop = next_mask(&r);
    k->skull = next_mask(&r);
    k->three = next_mask(&r);
    k->no_trick = next_mask(&r);
    k->one_pile = next_mask(&r);
    k->draw_one = next_mask(&r);
    if (k->extreme && k->fire) return 3; /* commands with fire cards are not modelled */
    next_ints(&r, k->deck, k->total);
    for (int i = 0; i < k->total; i++)
        if (k->deck[i] < 0 || k->deck[i] >= k->size) return 4;
    int m = k->size + 1;
    next_ints(&r, k->trick_top[0], m);
    next_ints(&r, k->trick_top[1], m);
    next_ints(&r, k->first_beyond, m);
    next_ints(&r, k->last_beyond, m);
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < m; i++) k->accepted[d][i] = next_mask(&r);
    State s;
    memset(&s, 0, sizeof s);
    next_ints(&r, s.tops, k->n_piles);
    for (int p = 0; p < k->players; p++) s.hands[p] = next_mask(&r);
    s.pos = next_int(&r);
    s.unplayed = next_mask(&r);
    s.cur = next_int(&r);
    s.turn_min = next_int(&r);
    s.max_turn = next_int(&r);
    if (r.bad || r.left != 0) return 5;
    for (int i = 0; i < k->n_piles; i++)
        if (s.tops[i] < 0 || s.tops[i] >= k->size) return 6;
    if (s.cur < 0 || s.cur >= k->players || s.pos < 0 || s.pos > k->total) return 7;
    for (int p = 0; p < k->players; p++)
        if (card_count(s.hands[p]) > k->hand_size) return 8;
    k->ks = key_shape(k->players, k->hand_size, k->size, k->total, k->min_play, k->extreme);
    k->s = start = s;
    configured = 1;
    return 0;
}

EXPORT(tg_reset) void tg_reset(void) {
    K.s = start;
    lost = 0;
}

/* ---- the turns played ------------------------------------------------------ */

/* A play of the player to move: in hand, taken by the pile (C5), and under
 * Extreme allowed by the commands showing (X3, X4) */
EXPORT(tg_play) int tg_play(int c, int pile) {
    Kernel *k = &K;
    if (!configured || pile < 0 || pile >= k->n_piles || c < 0 || c >= k->size) return NO_SUCH;
    if (lost || won(k)) return OVER;
    if (!card_in(k->s.hands[k->s.cur], c)) return NOT_IN_HAND;
    if (!card_in(k->accepted[pile < k->n_asc ? 0 : 1][k->s.tops[pile]], c)) return NOT_TAKEN;
    if (k->extreme) {
        CardMask shown = x_shown(k);
        if (!x_keeps(k, c, pile, (shown & k->no_trick) != 0, (shown & k->one_pile) != 0))
            return COMMAND;
    }
    play(k, c, pile);
    return OK;
}

/* The turn's minimum is met (C4; Extreme: X3, the kernel's min_met) */
static int min_met(const Kernel *k) {
    return k->extreme ? x_can_end(k) : k->s.t >= k->s.turn_min;
}

/* Some plays let the player to move end the turn (GameState.has_legal_turn:
 * C8). Every legal play is tried (no pruning), to the minimum only. */
static int has_turn(Kernel *k, int depth) {
    if (k->s.t > 0 && (won(k) || min_met(k))) return 1;
    if (depth > k->hand_size) return 0;
    Move ms[MAX_MOVES];
    int n = k->extreme ? x_moves(k, ms) : all_moves(k, ms);
    for (int i = 0; i < n; i++) {
        PlayUndo u = play(k, ms[i].c, ms[i].pile);
        int found = has_turn(k, depth + 1);
        unplay(k, ms[i].c, ms[i].pile, u);
        if (found) return 1;
    }
    return 0;
}

/* The end of the turn: after a play, with the minimum met (C4), or once
 * every card is down (C7). Ending with a fire card uncovered (F2) or a
 * command broken (X2) is legal and loses, as does leaving the next player
 * no turn (C8): then the game is over. */
EXPORT(tg_end_turn) int tg_end_turn(void) {
    Kernel *k = &K;
    if (!configured) return NO_SUCH;
    if (lost) return OVER;
    if (won(k)) {
        end_turn(k);
        return OK;
    }
    int stopped = k->extreme && (k->s.pending & X_STOP); /* X3a waives C4 */
    if (k->s.t == 0 || (!stopped && k->s.t < k->s.turn_min)) return CANNOT_END;
    if (!can_end(k)) {
        lost = 1;
        return OK;
    }
    end_turn(k);
    if (!has_turn(k, 0)) lost = 1;
    return OK;
}

EXPORT(tg_lost) int tg_lost(void) { return lost; }

EXPORT(tg_won) int tg_won(void) { return configured && won(&K); }

EXPORT(tg_draw_left) int tg_draw_left(void) { return K.total - K.s.pos; }

EXPORT(tg_cards_left) int tg_cards_left(void) { return card_count(K.s.unplayed); }

/* ---- the search ------------------------------------------------------------ */

/* The decision search from the position (ckernel.search's, with the
 * settings of webcore.kernel_config): -1 when it failed (memory), else bit
 * 0 a win, bit 1 proven. ``node_limit`` and ``time_ms`` below 0: none. */
EXPORT(tg_search)
int tg_search(int mode, double node_limit, double time_ms, const int32_t *widths, int n_widths,
              int branch, int per_parent, int extra_cost, int endgame, double memory) {
    Kernel *k = &K;
    res_len = 0;
    res_nodes = 0;
    res_left = card_count(k->s.unplayed);
    if (!configured || mode < MODE_PLAY || mode > MODE_EXTREME || n_widths < 0 ||
        n_widths > MAX_BEAM_WIDTHS || memory < 0)
        return -2;
    if (mode == MODE_TURN && k->players != 1) return -2;
    if (mode != MODE_PLAY && (mode == MODE_EXTREME) != k->extreme) return -2;
    SearchSettings set;
    memset(&set, 0, sizeof set);
    set.mode = (SearchMode)mode;
    for (int i = 0; i < n_widths; i++) set.widths[i] = widths[i];
    set.n_widths = n_widths;
    set.branch = branch;
    set.per_parent = per_parent;
    set.extra_cost = extra_cost;
    set.endgame = endgame;
    Budget budget = budget_make((size_t)memory);
    if (node_limit >= 0) budget.node_limit = (long long)node_limit;
    if (time_ms >= 0) {
        budget.has_deadline = 1;
        budget.deadline = budget_now() + time_ms / 1000.0;
    }
    Kernel copy = *k; /* the search moves a copy */
    int kw = copy.ks.kw;
    Table dead;
    Search s;
    if (!tab_init(&dead, kw, slots_for(budget.memory / 2, kw, 4 + 1))) {
        tab_free(&dead);
        return -1;
    }
    if (!search_init(&s, &copy, &set, &budget, &dead, NULL)) {
        tab_free(&dead);
        return -1;
    }
    int win, proven;
    search_run(&s, &win, &proven);
    int rc = -1;
    /* A win's line as found; else, as ``thegame solve`` makes it
     * (api._whole_game): cut back to whole turns, then finished greedily
     * to the game's end, and the cards that whole game leaves. */
    Line out = {NULL, 0, 0};
    int ok = !s.error;
    const Line *found = win ? &s.path : &s.best_path;
    int keep = found->n;
    if (!win)
        while (keep > 0 && found->a[keep - 1].c >= 0) keep--;
    for (int i = 0; ok && i < keep; i++) ok = line_push(&out, found->a[i]);
    int left = 0;
    if (ok && !win) {
        Kernel walk = *k;
        for (int i = 0; i < keep; i++) {
            Action a = found->a[i];
            if (a.c < 0)
                end_turn(&walk);
            else
                play(&walk, a.c, a.p);
        }
        ok = finish_greedily(&walk, &out);
        left = card_count(walk.s.unplayed);
    }
    if (ok) {
        free(res_line);
        res_line = out.a;
        res_len = out.n;
        res_left = left;
        res_nodes = (double)s.nodes;
        /* the greedy finish cleared: a win, whatever the search said */
        rc = (win || left == 0) | (proven << 1);
    } else {
        free(out.a);
    }
    search_free(&s);
    tab_free(&dead);
    return rc;
}

EXPORT(tg_nodes) double tg_nodes(void) { return res_nodes; }

EXPORT(tg_best_left) int tg_best_left(void) { return res_left; }

/* The line: pairs of int16 (card, pile); (-1, -1) ends a turn */
EXPORT(tg_line) const Action *tg_line(void) { return res_line; }

EXPORT(tg_line_length) int tg_line_length(void) { return res_len; }
