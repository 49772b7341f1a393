/* Blind-policy playouts of the classic family (rules C, P, F), compiled.
 *
 * This is a second implementation of two Python pieces, and it must make
 * exactly the same decisions as they do (tests/the_game/test_rollout.py compares the
 * two game by game):
 *
 *   - the blind policy, thegame/analysis/the_game/blind.py: BlindPolicy.
 *     choose_turn, _TurnSearch (its enumeration order, its `seen` set, its
 *     pruning), BlindPolicy.score (the same double operations in the same
 *     order, so that equal scores stay equal and the first one found wins)
 *     and _clear_line;
 *   - the rules engine's turn cycle as play_out drives it,
 *     thegame/models/the_game/state.py: plays, end_turn (C6 drawing, the F2
 *     fire deadline, F3, the C7 clear and skip of empty hands), the turn
 *     minimum (C4/P1) and has_legal_turn (C8).
 *
 * Card sets are 128-bit masks (bit c = card c), so cards and pile tops must
 * be at most 127; rollout.c_covers sends anything larger to Python. Hands
 * inside a turn search are also indexed by position in the sorted hand
 * (a 64-bit mask), which is what the `seen` keys hold.
 *
 * Must be compiled without floating-point contraction (-ffp-contract=off,
 * see setup.py): a fused multiply-add would round differently from Python.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* x86-64 without -march has no popcount instruction: GCC would call a
 * library routine for every set size, which costs the playouts a third of
 * their time. Every function up to the module's init is compiled for CPUs
 * with POPCNT (all x86-64 CPUs since 2008), and the init refuses to load on
 * an older one, so that rollout.py falls back to Python there. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ROLLOUT_POPCNT 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif

/* The `seen` keys' hash (hashtable.h's KEYSET_HASH): the hand (word 0)
 * and the tops, 8 bytes a word, each multiplied once. Cheaper than
 * hash_words, and as good on these keys: the playouts ask millions. */
static inline uint64_t seen_hash(const uint64_t *w) {
    uint64_t h = w[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (w[1] + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= (w[2] + 0x8CB92BA72F3D8DD7ULL) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}
#define KEYSET_HASH(w) seen_hash(w)

/* after the pragma: their inline functions are compiled for POPCNT too */
#include "cards.h"
#include "hashtable.h"

/* The limits of rollout.c_covers */
#define MAX_CARD (CARD_LIMIT - 1)
#define MAX_TOP (MAX_CARD + 1) /* a descending pile starts at high + 1 */
#define ROLLOUT_MAX_PILES 16 /* the tops of a `seen` key are two words of bytes */
#define ROLLOUT_MAX_HAND 32
#define ROLLOUT_MAX_PLAYERS 8
#define MAX_DEPTH 8

enum { IN_PROGRESS = 0, WON = 1, LOST = 2 };

/* ---- the rules and the policy's weights (blind._Tables, BlindParams) ---- */

typedef struct {
    int low, high, step;
    int n_piles, n_asc; /* piles 0..n_asc-1 ascend, the rest descend */
    int hand_size;      /* H for this number of players (C2) */
    int min_play, min_play_empty;
    int fire_safe_at_clear; /* F3 */
    int has_fire;
    unsigned char fire[MAX_TOP + 1]; /* fire[t]: t is a fire card (F1) */
    CardMask above[MAX_TOP + 1];       /* cards > t */
    CardMask below[MAX_TOP + 1];       /* cards < t */
    CardMask bit[MAX_CARD + 1];        /* {c}: a load is cheaper than a 128-bit shift */
    int free_gap, forced_slack;
    double trick_hand, trick_unseen, play_bonus, fire_cost;
    int depth;
    double out_steps[MAX_DEPTH], hand_steps[MAX_DEPTH];
} Ctx;

/* ---- the `seen` / `failed` keys: (tops, hand) ---------------------------
 * A KeySet key (hashtable.h) of three words: the hand (a mask over the
 * positions in the sorted hand), then the tops, a byte each. */

static inline void key_set_top(SetKey *k, int i, int top) {
    ((uint8_t *)(k->w + 1))[i] = (uint8_t)top;
}

static inline void make_key(SetKey *k, const int *tops, int n_piles, uint64_t hand) {
    memset(k, 0, sizeof(SetKey));
    k->w[0] = hand;
    for (int i = 0; i < n_piles; i++) key_set_top(k, i, tops[i]);
}

/* ---- BlindPolicy.score --------------------------------------------------- */

/* Inlined with `depth` a constant where it can be (see score), so that the
 * compiler unrolls the loops over it and keeps `at` in registers. */
static inline __attribute__((always_inline)) double score_body(const Ctx *cx, const int *tops,
                                                               CardMask hand, CardMask out,
                                                               int played, int fresh_fire,
                                                               const int depth) {
    CardMask at[MAX_DEPTH]; /* at[k]: cards at least k+1 piles can take */
    for (int k = 0; k < depth; k++) at[k] = 0;
    double credit = 0.0;
    for (int i = 0; i < cx->n_piles; i++) {
        int t = tops[i];
        CardMask cover;
        if (i < cx->n_asc) {
            cover = t <= cx->high ? cx->above[t] : 0;
            int partner = t - cx->step;
            if (partner >= cx->low) {
                CardMask bit = cx->bit[partner];
                cover |= bit;
                if ((out & bit) && t <= cx->high + 1) {
                    CardMask window = cx->above[partner] & cx->below[t] & out;
                    double w = (hand & bit) ? cx->trick_hand : cx->trick_unseen;
                    credit += w * (double)card_count(window);
                }
            }
        } else {
            cover = t >= cx->low ? cx->below[t] : 0;
            int partner = t + cx->step;
            if (partner <= cx->high) {
                CardMask bit = cx->bit[partner];
                cover |= bit;
                if (out & bit) {
                    CardMask window = cx->above[t] & cx->below[partner] & out;
                    double w = (hand & bit) ? cx->trick_hand : cx->trick_unseen;
                    credit += w * (double)card_count(window);
                }
            }
        }
        for (int k = depth - 1; k > 0; k--) at[k] |= at[k - 1] & cover;
        if (depth > 0) at[0] |= cover;
    }
    double cost = 0.0;
    for (int k = 0; k < depth; k++) {
        CardMask miss = ~at[k];
        double ws = cx->out_steps[k];
        if (ws != 0.0) cost += ws * (double)card_count(out & miss);
        double wh = cx->hand_steps[k];
        if (wh != 0.0) cost += wh * (double)card_count(hand & miss);
    }
    /* Python: cost - credit - p.play_bonus * played + p.fire_cost * fresh_fire,
     * evaluated left to right. */
    double r = cost - credit;
    r = r - cx->play_bonus * (double)played;
    r = r + cx->fire_cost * (double)fresh_fire;
    return r;
}

/* BlindPolicy.score: the cost of an end-of-turn position (lower is better). */
static double score(const Ctx *cx, const int *tops, CardMask hand, CardMask out, int played,
                    int fresh_fire) {
    if (cx->depth == 4) /* the default weights (BlindParams: 4 costs) */
        return score_body(cx, tops, hand, out, played, fresh_fire, 4);
    return score_body(cx, tops, hand, out, played, fresh_fire, cx->depth);
}

/* ---- _TurnSearch ---------------------------------------------------------- */

typedef struct {
    int n;
    uint8_t card[ROLLOUT_MAX_HAND], pile[ROLLOUT_MAX_HAND];
} Line;

typedef struct {
    const Ctx *cx;
    KeySet *seen;
    int tops[ROLLOUT_MAX_PILES];
    SetKey key;          /* the `seen` key of the node: hand, tops as bytes */
    int cards[ROLLOUT_MAX_HAND]; /* the hand at the start of the search, sorted */
    int n_cards;
    uint8_t rank[MAX_TOP + 1]; /* rank[x]: how many of those cards are below x */
    int need;
    unsigned char old_fire[ROLLOUT_MAX_PILES], changed[ROLLOUT_MAX_PILES];
    long free_gap, slack;
    Line path;
    int has_best, has_unsafe;
    double best_cost, unsafe_cost;
    Line best, unsafe, longest;
} Search;

typedef struct {
    int16_t gap;     /* cards jumped over (at most 127), -1 for a backward trick */
    uint8_t j, pile; /* j: index into Search.cards */
} Move;

static void consider(Search *S, CardMask hand, CardMask out) {
    const Ctx *cx = S->cx;
    int fresh = 0, safe = 1;
    if (cx->has_fire) {
        for (int i = 0; i < cx->n_piles; i++) {
            if (cx->fire[S->tops[i]]) {
                if (S->changed[i] || !S->old_fire[i])
                    fresh++;
                else
                    safe = 0;
            }
        }
        if (out == 0) safe = 1; /* F3: a clear ends the game before any deadline */
    }
    double cost = score(cx, S->tops, hand, out, S->path.n, fresh);
    if (safe) {
        if (!S->has_best || cost < S->best_cost) {
            S->has_best = 1;
            S->best_cost = cost;
            S->best = S->path;
        }
    } else if (!S->has_unsafe || cost < S->unsafe_cost) {
        S->has_unsafe = 1;
        S->unsafe_cost = cost;
        S->unsafe = S->path;
    }
}

/* A node of the search, already added to `seen` by the caller (Python's
 * _visit returns at once for a key it has seen; checking before the call
 * is the same and saves the call). */
static void visit(Search *S, uint64_t hm, CardMask hand, CardMask out) {
    const Ctx *cx = S->cx;
    const int depth = S->path.n;
    if (depth > S->longest.n) S->longest = S->path;
    if (depth >= S->need) consider(S, hand, out);
    const int n_piles = cx->n_piles, step = cx->step;
    /* Piles of one direction with the same top are interchangeable: only
     * the first is tried. (Python keeps a `tried` set per card; a pile with
     * an earlier twin takes a card exactly when the twin does, so skipping
     * it for every card is the same. Tops are distinct cards except the
     * piles' start values, so only those are compared.)
     *
     * Per pile: which cards of the hand it takes, as a mask over their
     * positions in the sorted hand (a normal play, C5, takes a run of
     * positions; a backward trick one position), and the cards still out
     * below its top (+1 for an ascending pile), from which the gap of a
     * play is a difference of counts. */
    uint64_t takes[ROLLOUT_MAX_PILES], tricks[ROLLOUT_MAX_PILES];
    int piles[ROLLOUT_MAX_PILES], below_top[ROLLOUT_MAX_PILES];
    uint64_t any = 0;
    int n_use = 0;
    for (int i = 0; i < n_piles; i++) {
        const int asc = i < cx->n_asc, t = S->tops[i];
        int twin = 0;
        if (t == (asc ? cx->low - 1 : cx->high + 1)) /* the start value */
            for (int q = asc ? 0 : cx->n_asc; q < i; q++) twin |= S->tops[q] == t;
        if (twin) continue;
        uint64_t take;
        if (asc) /* positions past the hand's cards <= t */
            take = hm & ~(((uint64_t)1 << S->rank[t + 1]) - 1);
        else /* positions of the hand's cards < t */
            take = hm & (((uint64_t)1 << S->rank[t]) - 1);
        const int back = asc ? t - step : t + step;
        uint64_t trick = 0;
        /* the trick card is in the hand when the rank steps over it */
        if (back >= cx->low && back <= cx->high && S->rank[back + 1] != S->rank[back])
            trick = hm & ((uint64_t)1 << S->rank[back]);
        piles[n_use] = i;
        takes[n_use] = take | trick;
        tricks[n_use] = trick;
        below_top[n_use] = card_count(out & cx->below[asc ? t + 1 : t]);
        any |= take | trick;
        n_use++;
    }
    Move moves[ROLLOUT_MAX_HAND * ROLLOUT_MAX_PILES];
    int n_moves = 0, min_gap = 0;
    /* Python's order: the cards in ascending order, each on the piles in
     * pile order. */
    for (uint64_t rest = any; rest; rest &= rest - 1) {
        const int j = __builtin_ctzll(rest);
        const int c = S->cards[j];
        /* Cards still out below c; c itself is out (it is in the hand). */
        const int below_c = card_count(out & cx->below[c]);
        for (int u = 0; u < n_use; u++) {
            if (!((takes[u] >> j) & 1)) continue;
            const int i = piles[u];
            int gap;
            if ((tricks[u] >> j) & 1)
                gap = -1; /* a backward trick (C5) */
            else /* cards out strictly between the top and c */
                gap = i < cx->n_asc ? below_c - below_top[u] : below_top[u] - below_c - 1;
            if (n_moves == 0 || gap < min_gap) min_gap = gap;
            moves[n_moves].gap = (int16_t)gap;
            moves[n_moves].j = (uint8_t)j;
            moves[n_moves].pile = (uint8_t)i;
            n_moves++;
        }
    }
    if (n_moves == 0) return;
    const long limit = depth >= S->need ? S->free_gap : (long)min_gap + S->slack;
    for (int m = 0; m < n_moves; m++) {
        const int i = moves[m].pile;
        /* Covering a fire card due this turn is never pruned (rule F2). */
        if (moves[m].gap <= limit || (S->old_fire[i] && !S->changed[i])) {
            const int c = S->cards[moves[m].j];
            const int t = S->tops[i];
            const uint64_t child = hm & ~((uint64_t)1 << moves[m].j);
            key_set_top(&S->key, i, c); /* S->key: the child's tops and hand */
            S->key.w[0] = child;
            /* new (a set that could not grow counts as seen: ``oom`` ends the game) */
            if (keyset_add(S->seen, &S->key) > 0) {
                const unsigned char was = S->changed[i];
                S->tops[i] = c;
                S->changed[i] = 1;
                S->path.card[depth] = (uint8_t)c;
                S->path.pile[depth] = (uint8_t)i;
                S->path.n = depth + 1;
                visit(S, child, hand & ~cx->bit[c], out & ~cx->bit[c]);
                S->path.n = depth;
                S->changed[i] = was;
                S->tops[i] = t;
            }
            key_set_top(&S->key, i, t);
        }
    }
}

/* ---- _clear_line ----------------------------------------------------------- */

typedef struct {
    const Ctx *cx;
    KeySet *failed;
    int tops[ROLLOUT_MAX_PILES];
    int cards[ROLLOUT_MAX_HAND];
    int n_cards;
    Line path;
} Clear;

static int clear_search(Clear *C, uint64_t left) {
    if (!left) return 1;
    const Ctx *cx = C->cx;
    SetKey key;
    make_key(&key, C->tops, cx->n_piles, left);
    if (keyset_has(C->failed, &key)) return 0;
    for (int j = 0; j < C->n_cards; j++) {
        if (!((left >> j) & 1)) continue;
        const int c = C->cards[j];
        for (int i = 0; i < cx->n_piles; i++) {
            const int t = C->tops[i];
            if (!pile_accepts(i < cx->n_asc, t, c, cx->step)) continue;
            C->tops[i] = c;
            C->path.card[C->path.n] = (uint8_t)c;
            C->path.pile[C->path.n] = (uint8_t)i;
            C->path.n++;
            const int found = clear_search(C, left & ~((uint64_t)1 << j));
            C->tops[i] = t;
            if (found) return 1;
            C->path.n--;
        }
    }
    keyset_add(C->failed, &key);
    return 0;
}

/* ---- the game (GameState, classic family) ------------------------------- */

typedef struct {
    int tops[ROLLOUT_MAX_PILES], top_turn[ROLLOUT_MAX_PILES];
    CardMask hands[ROLLOUT_MAX_PLAYERS];
    CardMask unplayed; /* every hand and the draw pile */
    const uint8_t *stock;
    int stock_pos, stock_len;
    int players, current, turn, turn_min, placed, status;
} Game;

static int hand_cards(CardMask hand, int *cards) {
    int n = 0;
    uint64_t lo = (uint64_t)hand, hi = (uint64_t)(hand >> 64);
    while (lo) {
        cards[n++] = __builtin_ctzll(lo);
        lo &= lo - 1;
    }
    while (hi) {
        cards[n++] = 64 + __builtin_ctzll(hi);
        hi &= hi - 1;
    }
    return n;
}

/* BlindPolicy.choose_turn: the plays that finish the current turn. */
static void choose_turn(const Ctx *cx, const Game *g, KeySet *set, Line *result) {
    const int me = g->current;
    const CardMask hand = g->hands[me];
    const CardMask out = g->unplayed;
    int cards[ROLLOUT_MAX_HAND];
    const int n_cards = hand_cards(hand, cards);
    const uint64_t all = n_cards == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n_cards) - 1);
    int need = g->turn_min - g->placed;
    if (need < 0) need = 0;
    if (out == hand && (cx->fire_safe_at_clear || !cx->has_fire)) {
        /* Every card still out is in this hand: look for a line that plays
         * them all in this turn. */
        Clear C;
        C.cx = cx;
        C.failed = set;
        memcpy(C.tops, g->tops, sizeof C.tops);
        memcpy(C.cards, cards, sizeof cards);
        C.n_cards = n_cards;
        C.path.n = 0;
        keyset_clear(set);
        if (clear_search(&C, all)) {
            *result = C.path;
            return;
        }
    }
    Search S;
    S.cx = cx;
    S.seen = set;
    memcpy(S.cards, cards, sizeof cards);
    S.n_cards = n_cards;
    for (int x = 0, r = 0; x <= cx->high + 1; x++) {
        S.rank[x] = (uint8_t)r;
        r += x <= MAX_CARD && (hand & cx->bit[x]) ? 1 : 0;
    }
    S.need = need;
    for (int i = 0; i < cx->n_piles; i++)
        S.old_fire[i] = cx->fire[g->tops[i]] && g->top_turn[i] < g->turn;
    for (int round = 0; round < 2; round++) {
        memcpy(S.tops, g->tops, sizeof S.tops);
        make_key(&S.key, S.tops, cx->n_piles, 0);
        memset(S.changed, 0, sizeof S.changed);
        if (round == 0) {
            S.free_gap = cx->free_gap;
            S.slack = cx->forced_slack;
        } else {
            /* The pruning cut every safe way to finish the turn: look again
             * without it. */
            S.free_gap = cx->high;
            S.slack = cx->high;
        }
        S.path.n = 0;
        S.has_best = S.has_unsafe = 0;
        S.longest.n = 0;
        keyset_clear(set);
        S.key.w[0] = all;
        keyset_add(set, &S.key);
        visit(&S, all, hand, out);
        if (S.has_best) break;
    }
    if (S.has_best)
        *result = S.best;
    else if (S.has_unsafe)
        *result = S.unsafe;
    else
        *result = S.longest;
}

/* GameState.has_legal_turn at the start of a turn: can the player make
 * max(1, m) plays in a row? (The engine's search needs one play before it
 * asks whether the turn may end.) */
static int legal_search(const Ctx *cx, KeySet *failed, int *tops, const int *cards, int n_cards,
                        uint64_t hm, int need) {
    if (need <= 0) return 1;
    SetKey key;
    make_key(&key, tops, cx->n_piles, hm);
    if (keyset_has(failed, &key)) return 0;
    for (int j = 0; j < n_cards; j++) {
        if (!((hm >> j) & 1)) continue;
        const int c = cards[j];
        for (int i = 0; i < cx->n_piles; i++) {
            const int t = tops[i];
            if (!pile_accepts(i < cx->n_asc, t, c, cx->step)) continue;
            tops[i] = c;
            const int found =
                legal_search(cx, failed, tops, cards, n_cards, hm & ~((uint64_t)1 << j), need - 1);
            tops[i] = t;
            if (found) return 1;
        }
    }
    keyset_add(failed, &key);
    return 0;
}

static int has_legal_turn(const Ctx *cx, const Game *g, KeySet *set) {
    int cards[ROLLOUT_MAX_HAND];
    const int n_cards = hand_cards(g->hands[g->current], cards);
    const int need = g->turn_min > 1 ? g->turn_min : 1;
    if (n_cards < need) return 0;
    int tops[ROLLOUT_MAX_PILES];
    memcpy(tops, g->tops, sizeof tops);
    keyset_clear(set);
    const uint64_t all = n_cards == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n_cards) - 1);
    return legal_search(cx, set, tops, cards, n_cards, all, need);
}

/* GameState.end_turn after a turn of at least the minimum. */
static void end_turn(const Ctx *cx, Game *g, KeySet *set) {
    const int me = g->current;
    int want = cx->hand_size - card_count(g->hands[me]);
    int left = g->stock_len - g->stock_pos;
    int take = want < left ? want : left;
    if (take < 0) take = 0;
    for (int k = 0; k < take; k++) g->hands[me] |= cx->bit[g->stock[g->stock_pos + k]];
    g->stock_pos += take;
    const int all_played = g->unplayed == 0;
    if (cx->has_fire && !(all_played && cx->fire_safe_at_clear)) {
        for (int i = 0; i < cx->n_piles; i++) {
            /* F2: a fire card laid in an earlier turn had this turn as its
             * deadline; F4: a newer one has its own. */
            if (cx->fire[g->tops[i]] && g->top_turn[i] < g->turn) {
                g->placed = 0;
                g->turn++;
                g->status = LOST;
                return;
            }
        }
    }
    g->placed = 0;
    g->turn++;
    if (all_played) {
        g->status = WON; /* C7 */
        return;
    }
    /* C7: once the draw pile is empty, a player with no cards is skipped. */
    int nxt = (g->current + 1) % g->players;
    for (int k = 0; k < g->players; k++) {
        if (g->hands[nxt]) break;
        nxt = (nxt + 1) % g->players;
    }
    g->current = nxt;
    g->turn_min = g->stock_pos < g->stock_len ? cx->min_play : cx->min_play_empty;
    if (!has_legal_turn(cx, g, set)) g->status = LOST; /* C8 */
}

/* blind.play_out */
static void play_out(const Ctx *cx, Game *g, KeySet *set) {
    Line line;
    while (g->status == IN_PROGRESS) {
        choose_turn(cx, g, set, &line);
        for (int k = 0; k < line.n; k++) {
            const int c = line.card[k], i = line.pile[k];
            g->hands[g->current] &= ~cx->bit[c];
            g->unplayed &= ~cx->bit[c];
            g->tops[i] = c;
            g->top_turn[i] = g->turn;
            g->placed++;
        }
        if (g->placed >= g->turn_min)
            end_turn(cx, g, set);
        else
            g->status = LOST; /* C8: the turn cannot reach its minimum */
    }
}

/* ---- the Python interface ------------------------------------------------ */

/* Read a tuple of ints into out[0..n-1]; -1 and an exception on error. */
static Py_ssize_t read_ints(PyObject *seq, long *out, Py_ssize_t max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return n;
}

static Py_ssize_t read_floats(PyObject *seq, double *out, Py_ssize_t max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return n;
}

static PyObject *bad(const char *msg) {
    PyErr_SetString(PyExc_ValueError, msg);
    return NULL;
}

PyDoc_STRVAR(playouts_doc,
             "playouts(ints, floats, fire, position, tops, top_turn, hand, sizes, orders, n)\n"
             "--\n\n"
             "Blind-policy playouts; see rollout.playouts_c, which builds the arguments.");

/* The plays the policy makes to finish the current turn, as a list of
 * (card, pile); the one order only fills the other hands and the draw pile,
 * which the blind policy never looks at. */
static PyObject *plan_list(const Ctx *cx, const Game *g, KeySet *set) {
    Line line;
    choose_turn(cx, g, set, &line);
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

/* The arguments of playouts and plan, as parsed */
typedef struct {
    PyObject *ints, *floats, *position, *top_turn, *sizes;
    Py_buffer fire, tops, hand, orders;
    Py_ssize_t n_orders;
} RunArgs;

/* The rules and the policy's weights (blind._Tables, BlindParams) from
 * ``ints``, ``floats`` and ``fire``; 0 with an exception set. */
static int read_rules(Ctx *cx, const RunArgs *a) {
    long iv[16];
    double fv[4 + 2 * MAX_DEPTH];
    if (read_ints(a->ints, iv, 16, "ints") != 11) {
        if (!PyErr_Occurred()) bad("ints: 11 entries expected");
        return 0;
    }
    cx->low = (int)iv[0];
    cx->high = (int)iv[1];
    cx->step = (int)iv[2];
    cx->n_asc = (int)iv[3];
    cx->n_piles = (int)(iv[3] + iv[4]);
    cx->hand_size = (int)iv[5];
    cx->min_play = (int)iv[6];
    cx->min_play_empty = (int)iv[7];
    cx->fire_safe_at_clear = iv[8] != 0;
    cx->free_gap = (int)iv[9];
    cx->forced_slack = (int)iv[10];
    if (!(1 <= cx->low && cx->low <= cx->high && cx->high <= MAX_CARD)) {
        bad("cards must lie within 1..127");
        return 0;
    }
    if (iv[3] < 0 || iv[4] < 0 || cx->n_piles > ROLLOUT_MAX_PILES || cx->step < 1 ||
        cx->hand_size > ROLLOUT_MAX_HAND || cx->min_play < 1 || cx->min_play_empty < 1) {
        bad("rules out of the extension's range");
        return 0;
    }
    Py_ssize_t nf = read_floats(a->floats, fv, 4 + 2 * MAX_DEPTH, "floats");
    if (nf < 0) return 0;
    if (nf < 4 || (nf - 4) % 2 != 0) {
        bad("floats: 4 weights, then the out and hand steps");
        return 0;
    }
    cx->trick_hand = fv[0];
    cx->trick_unseen = fv[1];
    cx->play_bonus = fv[2];
    cx->fire_cost = fv[3];
    cx->depth = (int)((nf - 4) / 2);
    for (int k = 0; k < cx->depth; k++) {
        cx->out_steps[k] = fv[4 + k];
        cx->hand_steps[k] = fv[4 + cx->depth + k];
    }
    const uint8_t *f = a->fire.buf;
    for (Py_ssize_t k = 0; k < a->fire.len; k++) {
        if (f[k] < cx->low || f[k] > cx->high) {
            bad("fire card out of range");
            return 0;
        }
        cx->fire[f[k]] = 1;
        cx->has_fire = 1;
    }
    CardMask all = 0;
    for (int c = cx->low; c <= cx->high; c++) all |= card_bit(c);
    for (int c = 0; c <= MAX_CARD; c++) cx->bit[c] = card_bit(c);
    for (int t = 0; t <= cx->high + 1; t++) {
        CardMask le = 0; /* cards <= t */
        for (int c = cx->low; c <= t && c <= cx->high; c++) le |= card_bit(c);
        cx->above[t] = all & ~le;
        cx->below[t] = le & ~(t <= cx->high ? card_bit(t) : 0);
    }
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
static int read_start(const Ctx *cx, const RunArgs *a, Start *st) {
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
    if (a->tops.len != cx->n_piles ||
        read_ints(a->top_turn, top_turn, ROLLOUT_MAX_PILES, "top_turn") != cx->n_piles) {
        if (!PyErr_Occurred()) bad("tops and top_turn: one entry per pile");
        return 0;
    }
    for (int i = 0; i < cx->n_piles; i++) {
        base->tops[i] = ((const uint8_t *)a->tops.buf)[i];
        base->top_turn[i] = (int)top_turn[i];
        if (base->tops[i] + 1 < cx->low || base->tops[i] > cx->high + 1) {
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
        if (c < cx->low || c > cx->high || a->hand.len > ROLLOUT_MAX_HAND) {
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

/* playouts (plan 0) and plan (plan 1): the same arguments, read once. */
static PyObject *run(PyObject *args, int plan) {
    RunArgs a;
    if (!PyArg_ParseTuple(args, "OOy*Oy*Oy*Oy*n", &a.ints, &a.floats, &a.fire, &a.position,
                          &a.tops, &a.top_turn, &a.hand, &a.sizes, &a.orders, &a.n_orders))
        return NULL;
    PyObject *result = NULL;
    Ctx *cx = calloc(1, sizeof(Ctx));
    KeySet set = {0};
    int set_ok = 0;
    Start st;
    const Py_ssize_t n_orders = a.n_orders;
    if (cx == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_rules(cx, &a) || !read_start(cx, &a, &st)) goto done;
    if (n_orders < 0 || (n_orders == 0 && a.orders.len != 0) ||
        (n_orders > 0 && a.orders.len % n_orders != 0)) {
        bad("orders: n orders of equal length expected");
        goto done;
    }
    const Py_ssize_t k_len = n_orders > 0 ? a.orders.len / n_orders : 0;
    if (n_orders > 0 && k_len < st.n_hidden) {
        bad("orders shorter than the other players' hands");
        goto done;
    }
    if (!keyset_init(&set, 1 << 12)) {
        PyErr_NoMemory();
        goto done;
    }
    set_ok = 1;
    if (plan && n_orders != 1) {
        bad("plan: one order expected");
        goto done;
    }
    result = plan ? NULL : PyList_New(n_orders);
    if (!plan && result == NULL) goto done;
    for (Py_ssize_t o = 0; o < n_orders; o++) {
        const uint8_t *order = (const uint8_t *)a.orders.buf + o * k_len;
        for (Py_ssize_t k = 0; k < k_len; k++) {
            if (order[k] < cx->low || order[k] > cx->high) {
                Py_CLEAR(result);
                bad("order card out of range");
                goto done;
            }
        }
        Game g = deal_order(&st, order, k_len);
        if (plan) {
            result = plan_list(cx, &g, &set);
            if (set.oom) {
                Py_CLEAR(result);
                PyErr_NoMemory();
            }
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        if (st.end_first) end_turn(cx, &g, &set);
        play_out(cx, &g, &set);
        Py_END_ALLOW_THREADS
        if (set.oom) {
            Py_CLEAR(result);
            PyErr_NoMemory();
            goto done;
        }
        /* Thousands of playouts take seconds: let Ctrl-C through. */
        if (PyErr_CheckSignals() < 0) {
            Py_CLEAR(result);
            goto done;
        }
        PyObject *item = Py_BuildValue("(Oi)", g.status == WON ? Py_True : Py_False,
                                       card_count(g.unplayed));
        if (item == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, o, item);
    }
done:
    if (set_ok) keyset_free(&set);
    free(cx);
    PyBuffer_Release(&a.fire);
    PyBuffer_Release(&a.tops);
    PyBuffer_Release(&a.hand);
    PyBuffer_Release(&a.orders);
    return result;
}

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

static PyMethodDef methods[] = {
    {"playouts", py_playouts, METH_VARARGS, playouts_doc},
    {"plan", py_plan, METH_VARARGS, plan_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_crollout",
    .m_doc = "Compiled blind-policy playouts (see thegame.analysis.the_game.rollout).",
    .m_size = -1,
    .m_methods = methods,
};

#ifdef ROLLOUT_POPCNT
#pragma GCC pop_options
#endif

PyMODINIT_FUNC PyInit__crollout(void) {
#ifdef ROLLOUT_POPCNT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_crollout needs a CPU with POPCNT");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
