/* The compiled search kernel of the classic family and Extreme (issue 16).
 *
 * A line-by-line port of kernel.py (Kernel), dfs.py (Searcher) and beam.py
 * (TurnSearcher, FireBeamSearcher): the same positions, the same move
 * order, the same memo keys and the same sound cuts, so that a search here
 * visits exactly the nodes the Python searchers visit (the tests compare
 * node counts). The Python kernel stays the reference; every rule and every
 * shortcut is argued there, next to its Python code, and only the names are
 * repeated here. Rule C5 itself is not restated: the placement tables are
 * computed in Python from ``models.the_game.placement`` and handed over.
 *
 * Card sets are 128-bit masks (bit c = card c), so card values and start
 * tops must lie below 128 (Python's ``covers`` refuses the rest, which then
 * run on the Python kernel).
 *
 * Extreme (rules X, without fire cards) is ported the same way, from
 * extreme_kernel.py (ExtremeKernel) and extreme_beam.py
 * (ExtremeBeamSearcher): ``_commands`` hands over one card mask per command
 * kind (stop, skull, three, no-trick, one-pile, draw-one) and sets
 * ``extreme``; the kernel's functions then answer as ExtremeKernel's (the
 * x_ functions). As there, the turn state is packed into ``pending``: bits
 * 0..n_piles-1 the piles this turn's cards went onto (X4b), X_STOP and
 * X_THREE a stop or a three played this turn (X3a, X3c); what shows on the
 * tops (X3b, X4a-c) is read from the tops. MODE_EXTREME is the Extreme
 * beam over whole turns (extreme_rec), then the play-level search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 M;
#define INF (1 << 30)
#define MAXPILES 8
#define MAXPL 8
#define MAXSIZE 128
#define MAXKW (2 + 2 * MAXPL)
#define MAXMOVES 256

/* results of a node, as dfs.Node; BUDGET: the node or time budget ran out */
#define CLEAR 1
#define DEAD 0
#define OPEN (-1)
#define BUDGET (-2)
/* dfs.LAST_ALLOWANCE: the iterations' allowances are 0, 1, 3, then unlimited */
#define LAST_ALLOWANCE 3

static inline M bitm(int c) { return (c >= 0 && c < 128) ? ((M)1) << c : 0; }
static inline M low_bits(int n) {
    if (n <= 0) return 0;
    if (n >= 128) return ~(M)0;
    return (((M)1) << n) - 1;
}
/* cards strictly between a and b (a < b), as kernel._between_table */
static inline M btw(int a, int b) { return b > a + 1 ? low_bits(b) & ~low_bits(a + 1) : 0; }
static inline int popc(M x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline int ctz128(M x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int hibit(M x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}
static inline int testbit(M x, int c) { return c >= 0 && c < 128 && (int)((x >> c) & 1); }

/* ---- the kernel ------------------------------------------------------- */

typedef struct {
    int tops[MAXPILES];
    M hands[MAXPL];
    int pos;
    M unplayed;
    int cur, t, pending, turn_min, max_turn;
} State;

/* The memo key's layout (``key_shape``) */
typedef struct {
    int compact, tbits, fbits, cbits, pbits, hand, kw;
} KeyShape;

typedef struct {
    int players, hand_size, n_asc, n_piles, step, min_play, min_empty, total, low, size;
    int base_max_turn, w2, w3;
    M fire;
    /* Extreme (ExtremeKernel): the cards of each command kind; 0 for the
     * classic family. The turn state is packed into ``pending`` as there. */
    int extreme;
    M stop, skull, three, no_trick, one_pile, draw_one;
    KeyShape ks;
    int deck[MAXSIZE];
    int trick_top[2][MAXSIZE + 1];
    int first_beyond[MAXSIZE + 1];
    int last_beyond[MAXSIZE + 1];
    M accepted[2][MAXSIZE + 1];
    State s;
} K;

typedef struct { int cost, c, pile; } Mv;
typedef struct { int16_t c, p; } Act; /* a play, or END = (-1, -1) */
typedef struct { int top, pending; } PlayUndo;
typedef struct { int player, plays, pos; M hand; int pending, turn_min, max_turn; } TurnUndo;

static int minimum(const K *k) { return k->s.pos < k->total ? k->min_play : k->min_empty; }

/* Moves sort by (cost, card, pile), as Python sorts its tuples: one
 * integer per move in that order (costs lie within -128..+255). */
static inline uint32_t mv_order(const Mv *m) {
    return ((uint32_t)(m->cost + 512) << 16) | ((uint32_t)m->c << 8) | (uint32_t)m->pile;
}

static void sort_moves(Mv *out, int n) {
    /* insertion sort of the keys alone (short lists), then the moves
     * rebuilt from them: the key holds the whole move */
    uint32_t keys[MAXMOVES];
    for (int i = 0; i < n; i++) {
        uint32_t kv = mv_order(&out[i]);
        int j = i - 1;
        while (j >= 0 && keys[j] > kv) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = kv;
    }
    for (int i = 0; i < n; i++)
        out[i] = (Mv){(int)(keys[i] >> 16) - 512, (int)((keys[i] >> 8) & 0xff),
                      (int)(keys[i] & 0xff)};
}

/* ---- Extreme (extreme_kernel.ExtremeKernel) ---------------------------
 * The commands' rules are argued in extreme_kernel.py; the turn state is
 * ``pending`` as there: bits 0..n_piles-1 the piles this turn's cards went
 * onto (X4b), X_STOP a stop was played this turn (X3a), X_THREE a three
 * (X3c). What shows (X3b, X4a-c) is read from the tops. */
#define X_STOP (1 << 20)
#define X_THREE (1 << 21)
#define X_FLAGS (X_STOP | X_THREE)

/* ExtremeKernel._showing: the cards on top, as a mask */
static inline M x_shown(const K *k) {
    M shown = 0;
    for (int i = 0; i < k->n_piles; i++) shown |= bitm(k->s.tops[i]);
    return shown;
}

/* ExtremeKernel._turn_bits */
static inline int x_turn_bits(const K *k, int c, int pile) {
    int bits = 1 << pile;
    if (testbit(k->stop, c)) bits |= X_STOP;
    if (testbit(k->three, c)) bits |= X_THREE;
    return bits;
}

/* ExtremeKernel.can_end: X3c, C4 (waived by a stop, X3a), X3b */
static inline int x_can_end(const K *k) {
    const State *s = &k->s;
    int st = s->pending;
    if (st & X_THREE) {
        if (s->t != 3) return 0;
    } else if (!(st & X_STOP) && s->t < s->turn_min) {
        return 0;
    }
    return !(x_shown(k) & k->skull);
}

/* ExtremeKernel._keeps (placement is the caller's) */
static int x_keeps(const K *k, int c, int pile, int no_trick, int one_pile) {
    const State *s = &k->s;
    int st = s->pending;
    if (st & X_STOP) return 0; /* X3a */
    int three = (st & X_THREE) || testbit(k->three, c);
    if (three && s->t >= 3) return 0; /* X3c */
    if (three && testbit(k->stop, c) && s->t != 2) return 0; /* X3c */
    if (one_pile && (st & ~X_FLAGS & ~(1 << pile))) return 0; /* X4b */
    int asc = pile < k->n_asc, top = s->tops[pile];
    return !(no_trick && c == (asc ? top - k->step : top + k->step)); /* X4a */
}

/* ExtremeKernel.moves */
__attribute__((noinline)) static int x_moves(const K *k, Mv *out) {
    const State *s = &k->s;
    M hand = s->hands[s->cur];
    int st = s->pending, t = s->t;
    if (!hand || (st & X_STOP)) return 0; /* X3a */
    M cards;
    if (st & X_THREE) {
        if (t >= 3) return 0; /* X3c */
        cards = t == 2 ? hand : hand & ~k->stop;
    } else {
        cards = t < 3 ? hand : hand & ~k->three;
    }
    M shown = x_shown(k);
    int no_trick = (shown & k->no_trick) != 0;
    int piles_played = st & ~X_FLAGS, only = -1;
    if ((shown & k->one_pile) && piles_played) {
        if (piles_played & (piles_played - 1)) return 0; /* X4b */
        only = 31 - __builtin_clz((unsigned)piles_played);
    }
    int step = k->step, n_asc = k->n_asc, n = 0;
    M un = s->unplayed;
    for (int i = 0; i < k->n_piles; i++) {
        if (only >= 0 && i != only) continue;
        int asc = i < n_asc, top = s->tops[i], dup = 0;
        /* equal tops branched once (the piles skipped above are not seen) */
        for (int j = 0; only < 0 && j < i; j++)
            if ((j < n_asc) == asc && s->tops[j] == top) { dup = 1; break; }
        if (dup) continue;
        int bonus = testbit(k->skull, top) ? -100 : 0; /* X3b: cover the skull */
        M normal;
        int back;
        if (asc) {
            normal = cards & ~low_bits(top + 1);
            back = top - step;
        } else {
            normal = cards & low_bits(top);
            back = top + step;
        }
        M h = normal;
        while (h) {
            int c = ctz128(h);
            h &= h - 1;
            M between = asc ? btw(top, c) : btw(c, top);
            out[n++] = (Mv){popc(un & between) + bonus, c, i};
        }
        if (!no_trick && back > 0 && testbit(cards, back)) out[n++] = (Mv){bonus - step, back, i};
    }
    sort_moves(out, n);
    return n;
}

/* Kernel._all_moves: every legal play, fire variants */
static int all_moves(const K *k, Mv *out) {
    const State *s = &k->s;
    M hand = s->hands[s->cur], un = s->unplayed, h = hand;
    int n = 0;
    while (h) {
        int c = ctz128(h);
        h &= h - 1;
        for (int i = 0; i < k->n_piles; i++) {
            int asc = i < k->n_asc, t = s->tops[i], dup = 0;
            for (int j = 0; j < i; j++)
                if ((j < k->n_asc) == asc && s->tops[j] == t) { dup = 1; break; }
            if (dup) continue;
            int d = asc ? 0 : 1;
            if (!testbit(k->accepted[d][t], c)) continue;
            if (t == k->trick_top[d][c]) {
                out[n++] = (Mv){-k->step, c, i};
            } else {
                M between = asc ? btw(t, c) : btw(c, t);
                out[n++] = (Mv){popc(un & between), c, i};
            }
        }
    }
    sort_moves(out, n);
    return n;
}

/* Kernel.moves */
static int moves(const K *k, Mv *out) {
    if (__builtin_expect(k->extreme, 0)) return x_moves(k, out);
    if (k->fire) return all_moves(k, out);
    const State *s = &k->s;
    M hand = s->hands[s->cur], un = s->unplayed, h = hand;
    const int *tops = s->tops;
    int step = k->step, n_asc = k->n_asc, n_piles = k->n_piles, n = 0;
    while (h) {
        int c = ctz128(h);
        h &= h - 1;
        int up_bonus = c > step ? testbit(hand, c - step) : 0;
        int down_bonus = testbit(hand, c + step);
        int back = k->trick_top[0][c], trick = -1, best = -1;
        for (int i = 0; i < n_asc; i++) {
            int t = tops[i];
            if (t == back) { trick = i; break; }
            if (c >= k->first_beyond[t] && (best < 0 || t > tops[best])) best = i;
        }
        if (trick >= 0) {
            out[n++] = (Mv){-step, c, trick};
        } else if (best >= 0) {
            int a = tops[best];
            out[n++] = (Mv){popc(un & btw(a, c)) - up_bonus, c, best};
            if (n_asc > 1) {
                int keep_ok = a - step > 0 && testbit(un, a - step);
                int seen = a;
                for (int i = 0; i < n_asc; i++) {
                    int b = tops[i];
                    if (c >= k->first_beyond[b] && b != seen && keep_ok && a - step <= b) {
                        seen = b;
                        out[n++] = (Mv){popc(un & btw(b, c)) - up_bonus, c, i};
                    }
                }
            }
        }
        back = k->trick_top[1][c];
        trick = -1;
        best = -1;
        for (int i = n_asc; i < n_piles; i++) {
            int t = tops[i];
            if (t == back) { trick = i; break; }
            if (c <= k->last_beyond[t] && (best < 0 || t < tops[best])) best = i;
        }
        if (trick >= 0) {
            out[n++] = (Mv){-step, c, trick};
        } else if (best >= 0) {
            int a = tops[best];
            out[n++] = (Mv){popc(un & btw(c, a)) - down_bonus, c, best};
            if (n_piles - n_asc > 1) {
                int keep_ok = testbit(un, a + step);
                int seen = a;
                for (int i = n_asc; i < n_piles; i++) {
                    int b = tops[i];
                    if (c <= k->last_beyond[b] && b != seen && keep_ok && a + step >= b) {
                        seen = b;
                        out[n++] = (Mv){popc(un & btw(c, b)) - down_bonus, c, i};
                    }
                }
            }
        }
    }
    sort_moves(out, n);
    return n;
}

static inline PlayUndo play(K *k, int c, int pile) {
    State *s = &k->s;
    M bit = bitm(c);
    PlayUndo u = {s->tops[pile], s->pending};
    s->hands[s->cur] ^= bit;
    s->unplayed ^= bit;
    s->tops[pile] = c;
    if (k->extreme)
        s->pending |= x_turn_bits(k, c, pile);
    else
        s->pending &= ~(1 << pile);
    s->t++;
    return u;
}

static inline void unplay(K *k, int c, int pile, PlayUndo u) {
    State *s = &k->s;
    M bit = bitm(c);
    s->hands[s->cur] ^= bit;
    s->unplayed ^= bit;
    s->tops[pile] = u.top;
    s->pending = u.pending;
    s->t--;
}

static inline int can_end(const K *k) {
    if (k->extreme) return x_can_end(k);
    return k->s.t >= k->s.turn_min && !k->s.pending;
}
/* ExtremeKernel.won: C7 with X3b/X3c, the last turn must end keeping them */
static inline int won(const K *k) { return k->s.unplayed == 0 && (!k->extreme || x_can_end(k)); }
static inline int auto_end(const K *k) {
    return k->players == 1 && k->s.pos >= k->total && !k->fire && !k->extreme;
}

static TurnUndo end_turn(K *k) {
    State *s = &k->s;
    TurnUndo u = {s->cur, s->t, s->pos, s->hands[s->cur], s->pending, s->turn_min, s->max_turn};
    s->max_turn = k->base_max_turn;
    M hand = s->hands[s->cur];
    /* draw_need: X4c, one card while a draw-one card shows, else back to H */
    int need = k->extreme && (x_shown(k) & k->draw_one) ? 1 : k->hand_size - popc(hand);
    int pos = s->pos;
    int end = pos + need < k->total ? pos + need : k->total;
    for (int i = pos; i < end; i++) hand |= bitm(k->deck[i]);
    s->hands[s->cur] = hand;
    s->pos = end;
    int pend = 0;
    if (k->fire)
        for (int i = 0; i < k->n_piles; i++)
            if (testbit(k->fire, s->tops[i])) pend |= 1 << i;
    s->pending = pend;
    int nxt = (s->cur + 1) % k->players;
    if (end >= k->total) {
        for (int r = 0; r < k->players; r++) {
            if (s->hands[nxt]) break;
            nxt = (nxt + 1) % k->players;
        }
    }
    s->cur = nxt;
    s->t = 0;
    s->turn_min = minimum(k);
    return u;
}

static void unend_turn(K *k, TurnUndo u) {
    State *s = &k->s;
    s->cur = u.player;
    s->t = u.plays;
    s->pos = u.pos;
    s->pending = u.pending;
    s->turn_min = u.turn_min;
    s->max_turn = u.max_turn;
    s->hands[u.player] = u.hand;
}

/* ExtremeKernel._permanent_no_trick: a no-trick card shows that no
 * unplayed card can ever cover (X4a) */
__attribute__((noinline)) static int x_permanent_no_trick(const K *k) {
    const State *s = &k->s;
    M un = s->unplayed;
    for (int i = 0; i < k->n_piles; i++) {
        int t = s->tops[i];
        if (!testbit(k->no_trick, t)) continue;
        M above = i < k->n_asc ? un & ~low_bits(t + 1) : un & low_bits(t);
        if (!above) return 1;
    }
    return 0;
}

/* Kernel.reach(cards): as if only the cards of ``un`` could ever be played */
static void reach_cards(const K *k, M un, int *lo_out, int *hi_out) {
    const State *s = &k->s;
    int step = k->step;
    int lo = INF;
    for (int i = 0; i < k->n_asc; i++) {
        int t = s->tops[i], low = t + 1;
        for (;;) {
            M src = (un & ~low_bits(low)) | bitm(t);
            M tgt = (src >> step) & un & low_bits(low);
            if (!tgt) break;
            low = ctz128(tgt);
        }
        if (low < lo) lo = low;
    }
    int hi = -1;
    for (int i = k->n_asc; i < k->n_piles; i++) {
        int t = s->tops[i], high = t - 1;
        for (;;) {
            M src = (un & low_bits(high + 1)) | bitm(t);
            M tgt = (src << step) & un & ~low_bits(high + 1);
            if (!tgt) break;
            high = hibit(tgt);
        }
        if (high > hi) hi = high;
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* Kernel.reach (ExtremeKernel.reach: no tricks ever again under a
 * permanent no-trick card) */
static void reach(const K *k, int *lo_out, int *hi_out) {
    const State *s = &k->s;
    if (k->extreme && x_permanent_no_trick(k)) {
        int lo = INF, hi = -1;
        for (int i = 0; i < k->n_asc; i++)
            if (s->tops[i] + 1 < lo) lo = s->tops[i] + 1;
        for (int i = k->n_asc; i < k->n_piles; i++)
            if (s->tops[i] - 1 > hi) hi = s->tops[i] - 1;
        *lo_out = lo;
        *hi_out = hi;
        return;
    }
    reach_cards(k, s->unplayed, lo_out, hi_out);
}

/* Kernel.stuck_ahead: a later player of this round cannot play their
 * minimum when their turn comes (argued there; not for Extreme) */
static int stuck_ahead(const K *k) {
    const State *s = &k->s;
    if (k->extreme || k->players == 1) return 0;
    int left = k->total - s->pos - s->t;
    M before = 0;
    for (int i = 1; i < k->players; i++) {
        before |= s->hands[(s->cur + i - 1) % k->players];
        if (left <= popc(before)) return 0;
        M hand = s->hands[(s->cur + i) % k->players];
        int lo, hi;
        reach_cards(k, before | hand, &lo, &hi);
        if (lo > k->total + k->low + 1) lo = k->total + k->low + 1;
        M out = hi + 1 < lo ? low_bits(lo) & ~low_bits(hi + 1) : 0;
        if (popc(hand & ~out) < k->min_play) return 1;
    }
    return 0;
}

/* ExtremeKernel._draw_one_limit: the deck index from which no card is
 * ever drawn once a draw-one card shows for good (X4c; total: no bound) */
static int x_draw_one_limit(const K *k) {
    const State *s = &k->s;
    if (s->pos >= k->total || !k->draw_one || k->min_play < 2) return k->total;
    M un = s->unplayed;
    int step = k->step, stuck = 0;
    for (int i = 0; i < k->n_piles && !stuck; i++) {
        int top = s->tops[i], follows;
        if (!testbit(k->draw_one, top)) continue;
        if (i < k->n_asc)
            follows = (un & ~low_bits(top + 1)) != 0 || (top > step && testbit(un, top - step));
        else
            follows = (un & low_bits(top > 0 ? top : 0)) != 0 || testbit(un, top + step);
        stuck = !follows;
    }
    if (!stuck) return k->total;
    int draws = popc(un & k->stop);
    for (int p = 0; p < k->players; p++) {
        int h = popc(s->hands[p]);
        draws += (p == s->cur && s->t > 0) ? 1 + h : (h > 1 ? h - 1 : 0);
    }
    return s->pos + draws < k->total ? s->pos + draws : k->total;
}

/* ExtremeKernel.dead_mask: the classic bound, then the skulls (X3b) that
 * no pile can take or no card can follow in their turn, then the draw
 * pile's bottom under a draw-one card that shows for good */
__attribute__((noinline)) static M x_dead_mask(const K *k) {
    int lo, hi;
    reach(k, &lo, &hi);
    int cap = k->total + k->low + 1;
    if (cap < lo) lo = cap;
    M un = k->s.unplayed, dead = 0;
    if (hi + 1 < lo) dead = un & low_bits(lo) & ~low_bits(hi + 1);
    M sk = un & k->skull & ~dead;
    int step = k->step;
    while (sk) {
        int s = ctz128(sk);
        M low = bitm(s);
        sk ^= low;
        M others = un & ~low & ~dead;
        int up = s >= lo && ((others & ~low_bits(s + 1)) || (s > step && testbit(others, s - step)));
        int down = s <= hi && ((others & low_bits(s)) || testbit(others, s + step));
        if (!up && !down) dead |= low;
    }
    for (int i = x_draw_one_limit(k); i < k->total; i++) dead |= bitm(k->deck[i]);
    return dead;
}

static M dead_mask(const K *k) {
    if (k->extreme) return x_dead_mask(k);
    int lo, hi;
    reach(k, &lo, &hi);
    int cap = k->total + k->low + 1;
    if (cap < lo) lo = cap;
    if (hi + 1 >= lo) return 0;
    return k->s.unplayed & low_bits(lo) & ~low_bits(hi + 1);
}

static int evaluate(const K *k) {
    const State *s = &k->s;
    M blocked[MAXPILES];
    int n = k->n_piles, score = 0;
    for (int i = 0; i < n; i++)
        blocked[i] = s->unplayed & ~k->accepted[i < k->n_asc ? 0 : 1][s->tops[i]];
    for (int i = 0; i < n; i++) {
        M bi = blocked[i];
        score += popc(bi);
        for (int j = i + 1; j < n; j++) {
            M bij = bi & blocked[j];
            score += k->w2 * popc(bij);
            for (int m = j + 1; m < n; m++) score += k->w3 * popc(bij & blocked[m]);
        }
    }
    return score;
}

/* Kernel.key, as words. Word 0: the sorted marked tops (8 bits each: the
 * top and the pending-fire mark). The rest in one of two layouts, fixed
 * per game (``key_shape``):
 * - masks: each hand as two words (a 128-bit mask), then pos, cur and the
 *   capped turn count (with Extreme's flags above its low 8 bits);
 * - compact, where it takes fewer words: one bit stream of the turn count
 *   and flags, cur and pos, then each hand's cards in ascending order, 7
 *   bits each, padded with 127 up to the hand size. A hand never holds more
 *   than the hand size (``check_state``) and no card is 127 here (the card
 *   range is at most 127), so the stream is read back one way only.
 * The memo tables hold whole keys, so a shorter key is more positions in
 * the same memory: profi-hard, one player, 2 words instead of 4; three
 * players, 3 instead of 8. Equal words exactly when Python's tuples are
 * equal. */
static int bits_for(int v) {
    int b = 0;
    while (b < 31 && (1 << b) <= v) b++;
    return b;
}

static KeyShape key_shape(int players, int hand, int size, int total, int min_play, int extreme) {
    KeyShape ks;
    int tmax = hand > min_play ? hand : min_play;
    if (tmax < 3) tmax = 3; /* Extreme caps the turn count at max(m, 3) */
    ks.hand = hand;
    ks.tbits = bits_for(tmax);
    ks.fbits = extreme ? 2 : 0; /* X_STOP, X_THREE */
    ks.cbits = bits_for(players - 1);
    ks.pbits = bits_for(total);
    int bits = ks.tbits + ks.fbits + ks.cbits + ks.pbits + 7 * hand * players;
    int compact_kw = 1 + (bits + 63) / 64, mask_kw = 2 + 2 * players;
    ks.compact = size <= 127 && compact_kw < mask_kw;
    ks.kw = ks.compact ? compact_kw : mask_kw;
    return ks;
}

static int tmax_of(const KeyShape *ks) { return (1 << ks->tbits) - 1; }

static uint64_t tops_word(int n_asc, int n_piles, const int *marked) {
    int a[MAXPILES];
    memcpy(a, marked, sizeof(int) * n_piles);
    for (int g = 0; g < 2; g++) {
        int from = g ? n_asc : 0, to = g ? n_piles : n_asc;
        for (int i = from + 1; i < to; i++) {
            int v = a[i], j = i - 1;
            while (j >= from && a[j] > v) { a[j + 1] = a[j]; j--; }
            a[j + 1] = v;
        }
    }
    uint64_t w = 0;
    for (int i = 0; i < n_piles; i++) w |= (uint64_t)(a[i] & 0xff) << (8 * i);
    return w;
}

static inline void put_bits(uint64_t *w, int *at, uint64_t v, int n) {
    if (n == 0) return;
    int i = *at >> 6, off = *at & 63;
    w[i] |= v << off;
    if (off + n > 64) w[i + 1] |= v >> (64 - off);
    *at += n;
}

/* The key's words into ``out``; -1 when the position does not fit the
 * shape (a hand over the hand size, a count past its field): then it is no
 * position of this game. */
static int key_words(const KeyShape *ks, int n_asc, int n_piles, int players, const int *marked,
                     const M *hands, int pos, int cur, int t, int flags, uint64_t *out) {
    out[0] = tops_word(n_asc, n_piles, marked);
    if (!ks->compact) {
        int tail = ks->fbits ? (t & 0xff) | (flags << 8) : t;
        for (int p = 0; p < players; p++) {
            out[1 + 2 * p] = (uint64_t)hands[p];
            out[2 + 2 * p] = (uint64_t)(hands[p] >> 64);
        }
        out[1 + 2 * players] = (uint64_t)(uint32_t)pos | ((uint64_t)(uint16_t)cur << 32) |
                               ((uint64_t)(uint16_t)tail << 48);
        return ks->kw;
    }
    if (t < 0 || t > tmax_of(ks) || flags < 0 || flags >= (1 << ks->fbits) || cur < 0 ||
        cur >= (1 << ks->cbits) || pos < 0 || pos >= (1 << ks->pbits))
        return -1;
    memset(out + 1, 0, sizeof(uint64_t) * (ks->kw - 1));
    int at = 0;
    put_bits(out + 1, &at, (uint64_t)t | ((uint64_t)flags << ks->tbits), ks->tbits + ks->fbits);
    put_bits(out + 1, &at, (uint64_t)cur, ks->cbits);
    put_bits(out + 1, &at, (uint64_t)pos, ks->pbits);
    for (int p = 0; p < players; p++) {
        M h = hands[p];
        if (popc(h) > ks->hand || (h >> 127)) return -1;
        for (int i = 0; i < ks->hand; i++) {
            int c = h ? ctz128(h) : 127;
            put_bits(out + 1, &at, (uint64_t)c, 7);
            h &= h - 1;
        }
    }
    return ks->kw;
}

/* Whether a key is of a position at a turn's start (turn count 0) */
static inline int key_at_turn_start(const KeyShape *ks, const uint64_t *key) {
    if (ks->compact) return (key[1] & (((uint64_t)1 << ks->tbits) - 1)) == 0;
    return ((key[ks->kw - 1] >> 48) & 0xffff) == 0;
}

static inline int key_turns(const K *k) {
    const State *s = &k->s;
    int t = s->t;
    if (t > s->turn_min && (s->max_turn == INF || s->pos >= k->total)) t = s->turn_min;
    return t;
}

/* ExtremeKernel.key: each top marked 2 * top + (this turn's cards went
 * there), the turn count capped at max(m, 3), and the stop/three flags, held
 * in the turn count's word above its low 8 bits */
static inline int x_key_turns(const K *k) {
    const State *s = &k->s;
    int cap = s->turn_min > 3 ? s->turn_min : 3;
    return s->t < cap ? s->t : cap;
}

static int make_key(const K *k, uint64_t *out) {
    int marked[MAXPILES];
    if (k->extreme) {
        for (int i = 0; i < k->n_piles; i++)
            marked[i] = k->s.tops[i] * 2 + ((k->s.pending >> i) & 1);
        return key_words(&k->ks, k->n_asc, k->n_piles, k->players, marked, k->s.hands,
                         k->s.pos, k->s.cur, x_key_turns(k), k->s.pending >> 20, out);
    }
    for (int i = 0; i < k->n_piles; i++)
        marked[i] = k->s.tops[i] | (((k->s.pending >> i) & 1) << 7);
    return key_words(&k->ks, k->n_asc, k->n_piles, k->players, marked, k->s.hands, k->s.pos,
                     k->s.cur, key_turns(k), 0, out);
}

/* ---- hash tables ------------------------------------------------------ */

static inline uint64_t hash_words(const uint64_t *w, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
    }
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 32;
    return h;
}

/* A bounded open-addressing map from keys to ints. Past ``maxcap`` slots it
 * stops taking new keys (the searches stay sound: a memo entry only saves
 * work), so memory stays bounded. */
typedef struct {
    uint64_t *keys;
    int32_t *vals;
    uint8_t *used;
    size_t cap, count, maxcap;
    int kw;
    long long replaced; /* keys put out of a full table (tab_keep) */
} Table;

static int tab_init(Table *t, int kw, size_t maxcap) {
    t->kw = kw;
    t->cap = 1 << 12;
    if (t->cap > maxcap) t->cap = maxcap;
    t->maxcap = maxcap;
    t->count = 0;
    t->replaced = 0;
    t->keys = malloc(t->cap * kw * sizeof(uint64_t));
    t->vals = malloc(t->cap * sizeof(int32_t));
    t->used = calloc(t->cap, 1);
    return t->keys && t->vals && t->used;
}

static void tab_free(Table *t) {
    free(t->keys);
    free(t->vals);
    free(t->used);
    t->keys = NULL;
    t->vals = NULL;
    t->used = NULL;
}

static void tab_clear(Table *t) {
    memset(t->used, 0, t->cap);
    t->count = 0;
}

/* A used slot's byte holds its key's tag: the hash's top 7 bits, and 1 so
 * that it is never 0 (empty). A probe compares a key only where the tags
 * agree: near a full table a missing key's long probe path reads a few
 * bytes instead of a key a slot. */
static inline uint8_t tag_of(uint64_t h) { return (uint8_t)((h >> 56) | 1); }

/* Keys are a few words: compared inline, not through a memcmp call */
static inline int words_eq(const uint64_t *a, const uint64_t *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static inline size_t tab_slot(const Table *t, const uint64_t *key) {
    uint64_t h = hash_words(key, t->kw);
    uint8_t tag = tag_of(h);
    size_t mask = t->cap - 1, i = h & mask;
    while (t->used[i] &&
           (t->used[i] != tag || !words_eq(t->keys + i * t->kw, key, t->kw)))
        i = (i + 1) & mask;
    return i;
}

static inline int32_t *tab_get(const Table *t, const uint64_t *key) {
    size_t i = tab_slot(t, key);
    return t->used[i] ? &t->vals[i] : NULL;
}

static int tab_grow(Table *t) {
    size_t ncap = t->cap * 2;
    uint64_t *nk = malloc(ncap * t->kw * sizeof(uint64_t));
    int32_t *nv = malloc(ncap * sizeof(int32_t));
    uint8_t *nu = calloc(ncap, 1);
    if (!nk || !nv || !nu) {
        free(nk);
        free(nv);
        free(nu);
        return 0;
    }
    Table n = {nk, nv, nu, ncap, 0, t->maxcap, t->kw, t->replaced};
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = tab_slot(&n, t->keys + i * t->kw);
        memcpy(n.keys + j * t->kw, t->keys + i * t->kw, t->kw * sizeof(uint64_t));
        n.vals[j] = t->vals[i];
        n.used[j] = t->used[i];
        n.count++;
    }
    tab_free(t);
    *t = n;
    return 1;
}

/* A new key into its free slot ``i`` (from ``tab_slot``), growing the
 * table first where it is due; 0 when the table is full and takes none. */
static int tab_add(Table *t, size_t i, const uint64_t *key, int32_t val) {
    if ((t->count + 1) * 10 > t->cap * 7) {
        if (t->cap * 2 <= t->maxcap && tab_grow(t)) {
            i = tab_slot(t, key);
        } else if ((t->count + 1) * 10 > t->cap * 9) {
            return 0; /* full: the memo stops growing */
        }
    }
    memcpy(t->keys + i * t->kw, key, t->kw * sizeof(uint64_t));
    t->vals[i] = val;
    t->used[i] = tag_of(hash_words(key, t->kw));
    t->count++;
    return 1;
}

static void tab_put(Table *t, const uint64_t *key, int32_t val) {
    size_t i = tab_slot(t, key);
    if (t->used[i])
        t->vals[i] = val;
    else
        tab_add(t, i, key, val);
}

/* ---- turn enumeration (Kernel.solo_turns, Kernel.fire_turns) ---------- */

#define TKW 4
typedef struct {
    uint64_t key[TKW];
    int cost, found, gen;
} XEntry;

typedef struct {
    XEntry *tab;
    size_t cap, count;
    int gen;
    /* found turns, in first-insertion order (Python's dict) */
    int *fcost, *foff, *flen;
    int nfound, fcap;
    Act *arena;
    int alen, acap;
    Act plays[MAXSIZE];
    int nplays;
    int lo, hi, branch, extra_cost, fire;
    int failed;
} Scratch;

typedef struct {
    int n;
    int *cost, *off, *len;
    Act *plays;
} TurnList;

static int x_reset(Scratch *x) {
    x->gen++;
    x->count = 0;
    x->nfound = 0;
    x->alen = 0;
    x->nplays = 0;
    x->failed = 0;
    if (!x->tab) {
        x->cap = 1 << 10;
        x->tab = calloc(x->cap, sizeof(XEntry));
        if (!x->tab) return 0;
    }
    return 1;
}

static XEntry *x_slot(Scratch *x, const uint64_t *key) {
    size_t mask = x->cap - 1, i = hash_words(key, TKW) & mask;
    while (x->tab[i].gen == x->gen && !words_eq(x->tab[i].key, key, TKW))
        i = (i + 1) & mask;
    return &x->tab[i];
}

static int x_grow(Scratch *x) {
    size_t ocap = x->cap;
    XEntry *old = x->tab;
    x->cap = ocap * 2;
    x->tab = calloc(x->cap, sizeof(XEntry));
    if (!x->tab) {
        x->tab = old;
        x->cap = ocap;
        return 0;
    }
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].gen != x->gen) continue;
        XEntry *e = x_slot(x, old[i].key);
        *e = old[i];
    }
    free(old);
    return 1;
}

static int x_found(Scratch *x, XEntry *e, int cost) {
    if (x->alen + x->nplays > x->acap) {
        int ncap = (x->acap ? x->acap * 2 : 4096);
        while (ncap < x->alen + x->nplays) ncap *= 2;
        Act *na = realloc(x->arena, sizeof(Act) * ncap);
        if (!na) return 0;
        x->arena = na;
        x->acap = ncap;
    }
    int idx = e->found;
    if (idx < 0) {
        if (x->nfound >= x->fcap) {
            int ncap = x->fcap ? x->fcap * 2 : 256;
            int *a = realloc(x->fcost, sizeof(int) * ncap);
            if (!a) return 0;
            x->fcost = a;
            a = realloc(x->foff, sizeof(int) * ncap);
            if (!a) return 0;
            x->foff = a;
            a = realloc(x->flen, sizeof(int) * ncap);
            if (!a) return 0;
            x->flen = a;
            x->fcap = ncap;
        }
        idx = e->found = x->nfound++;
    }
    x->fcost[idx] = cost;
    x->foff[idx] = x->alen;
    x->flen[idx] = x->nplays;
    memcpy(x->arena + x->alen, x->plays, sizeof(Act) * x->nplays);
    x->alen += x->nplays;
    return 1;
}

/* look the key up in ``expanded``; 1: expand it (the cost is recorded) */
static XEntry *x_expand(Scratch *x, const uint64_t *key, int cost) {
    if ((x->count + 1) * 2 > x->cap && !x_grow(x)) {
        x->failed = 1;
        return NULL;
    }
    XEntry *e = x_slot(x, key);
    if (e->gen == x->gen) {
        if (e->cost <= cost) return NULL;
    } else {
        memcpy(e->key, key, sizeof(uint64_t) * TKW);
        e->gen = x->gen;
        e->found = -1;
        x->count++;
    }
    e->cost = cost;
    return e;
}

static void solo_rec(K *k, Scratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TKW];
    int marked[MAXPILES];
    for (int i = 0; i < k->n_piles; i++) marked[i] = s->tops[i];
    /* (sorted tops, hand mask) */
    key[0] = tops_word(k->n_asc, k->n_piles, marked);
    key[1] = (uint64_t)s->hands[0];
    key[2] = (uint64_t)(s->hands[0] >> 64);
    key[3] = 0;
    XEntry *e = x_expand(x, key, cost);
    if (!e) return;
    if (depth >= x->lo && !x_found(x, e, cost)) {
        x->failed = 1;
        return;
    }
    if (depth >= x->hi) return;
    Mv ms[MAXMOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        int c = ms[i].c, pile = ms[i].pile;
        if (depth >= x->lo && ms[i].cost > x->extra_cost) break;
        int top = s->tops[pile];
        M un = s->unplayed;
        int delta;
        if (top != k->trick_top[pile < k->n_asc ? 0 : 1][c])
            delta = popc(un & (c > top ? btw(top, c) : btw(c, top)));
        else
            delta = -popc(un & (c < top ? btw(c, top) : btw(top, c))) - 1;
        M bit = bitm(c);
        s->hands[0] ^= bit;
        s->unplayed = un ^ bit;
        s->tops[pile] = c;
        x->plays[x->nplays++] = (Act){(int16_t)c, (int16_t)pile};
        solo_rec(k, x, depth + 1, cost + delta);
        x->nplays--;
        s->tops[pile] = top;
        s->unplayed = un;
        s->hands[0] ^= bit;
        if (x->failed) return;
    }
}

static void fire_rec(K *k, Scratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TKW];
    uint64_t w = 0;
    for (int i = 0; i < k->n_piles; i++) w |= (uint64_t)(s->tops[i] & 0xff) << (8 * i);
    key[0] = w;
    key[1] = (uint64_t)s->pending;
    key[2] = (uint64_t)s->hands[s->cur];
    key[3] = (uint64_t)(s->hands[s->cur] >> 64);
    XEntry *e = x_expand(x, key, cost);
    if (!e) return;
    if (s->unplayed == 0 || (depth >= x->lo && s->t > 0 && !s->pending)) {
        if (!x_found(x, e, cost)) {
            x->failed = 1;
            return;
        }
    }
    if (depth >= x->hi || s->unplayed == 0) return;
    Mv ms[MAXMOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        if (depth >= x->lo && ms[i].cost > x->extra_cost && !s->pending) break;
        int c = ms[i].c, pile = ms[i].pile;
        PlayUndo u = play(k, c, pile);
        x->plays[x->nplays++] = (Act){(int16_t)c, (int16_t)pile};
        fire_rec(k, x, depth + 1, cost + ms[i].cost);
        x->nplays--;
        unplay(k, c, pile, u);
        if (x->failed) return;
    }
}

/* ExtremeKernel.extreme_turns: ``x->hi`` is ``longest``; a turn that
 * cannot end yet may run up to 3 plays past it */
static void extreme_rec(K *k, Scratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TKW];
    uint64_t w = 0;
    for (int i = 0; i < k->n_piles; i++) w |= (uint64_t)(s->tops[i] & 0xff) << (8 * i);
    key[0] = w;
    key[1] = (uint64_t)(uint32_t)s->pending | ((uint64_t)(uint32_t)s->t << 32);
    key[2] = (uint64_t)s->hands[s->cur];
    key[3] = (uint64_t)(s->hands[s->cur] >> 64);
    XEntry *e = x_expand(x, key, cost);
    if (!e) return;
    int ends = s->t > 0 && x_can_end(k);
    if (ends || won(k)) {
        if (!x_found(x, e, cost)) {
            x->failed = 1;
            return;
        }
    }
    if (s->unplayed == 0 || depth >= x->hi + 3 || (depth >= x->hi && ends)) return;
    Mv ms[MAXMOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        if (ends && ms[i].cost > x->extra_cost) break;
        int c = ms[i].c, pile = ms[i].pile;
        PlayUndo u = play(k, c, pile);
        x->plays[x->nplays++] = (Act){(int16_t)c, (int16_t)pile};
        extreme_rec(k, x, depth + 1, cost + ms[i].cost);
        x->nplays--;
        unplay(k, c, pile, u);
        if (x->failed) return;
    }
}

static Scratch *sort_scratch; /* the comparator's context (single-threaded: GIL held) */
static int cmp_found(const void *a, const void *b) {
    int i = *(const int *)a, j = *(const int *)b;
    int ci = sort_scratch->fcost[i], cj = sort_scratch->fcost[j];
    if (ci != cj) return ci < cj ? -1 : 1;
    return (i > j) - (i < j); /* stable, as Python's sorted */
}

static void turns_free(TurnList *tl) {
    free(tl->cost);
    tl->cost = NULL;
}

/* which turn lister: Kernel.solo_turns, Kernel.fire_turns,
 * ExtremeKernel.extreme_turns */
#define TURNS_SOLO 0
#define TURNS_FIRE 1
#define TURNS_EXTREME 2

/* the distinct turns, cheapest first; 0 on memory failure */
static int list_turns(K *k, Scratch *x, int kind, int branch, int longest, int extra_cost,
                      TurnList *out) {
    State *s = &k->s;
    if (!x_reset(x)) return 0;
    int lo = s->t ? (s->turn_min - s->t > 0 ? s->turn_min - s->t : 0) : s->turn_min;
    int hi = s->max_turn - s->t;
    if (longest < hi) hi = longest;
    x->lo = lo;
    x->hi = hi;
    x->branch = branch;
    x->extra_cost = extra_cost;
    if (kind == TURNS_EXTREME) {
        x->hi = longest;
        extreme_rec(k, x, 0, 0);
    } else if (kind == TURNS_FIRE) {
        fire_rec(k, x, 0, 0);
    } else {
        solo_rec(k, x, 0, 0);
    }
    if (x->failed) return 0;
    int n = x->nfound;
    int *idx = malloc(sizeof(int) * (n ? n : 1));
    /* one block: cost, off, len (3n ints), then the plays */
    char *block = malloc(sizeof(int) * 3 * (n ? n : 1) + sizeof(Act) * (x->alen ? x->alen : 1));
    if (!idx || !block) {
        free(idx);
        free(block);
        return 0;
    }
    /* by cost, ties in first-insertion order (Python's stable sort): a
     * counting sort, stable by construction, when the costs span little */
    int lo_c = 0, hi_c = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || x->fcost[i] < lo_c) lo_c = x->fcost[i];
        if (i == 0 || x->fcost[i] > hi_c) hi_c = x->fcost[i];
    }
    int span = hi_c - lo_c + 1;
    if (n > 1 && span <= 1024) {
        int count[1025];
        memset(count, 0, sizeof(int) * (span + 1));
        for (int i = 0; i < n; i++) count[x->fcost[i] - lo_c + 1]++;
        for (int v = 0; v < span; v++) count[v + 1] += count[v];
        for (int i = 0; i < n; i++) idx[count[x->fcost[i] - lo_c]++] = i;
    } else {
        for (int i = 0; i < n; i++) idx[i] = i;
        sort_scratch = x;
        qsort(idx, n, sizeof(int), cmp_found);
    }
    out->n = n;
    out->cost = (int *)block;
    out->off = out->cost + (n ? n : 1);
    out->len = out->off + (n ? n : 1);
    out->plays = (Act *)(out->len + (n ? n : 1));
    int a = 0;
    for (int r = 0; r < n; r++) {
        int i = idx[r];
        out->cost[r] = x->fcost[i];
        out->off[r] = a;
        out->len[r] = x->flen[i];
        memcpy(out->plays + a, x->arena + x->foff[i], sizeof(Act) * x->flen[i]);
        a += x->flen[i];
    }
    free(idx);
    return 1;
}

/* ---- the searches (dfs.Searcher, beam.TurnSearcher, FireBeamSearcher) - */

/* Every mode's complete search is ``dfs`` (play by play); they differ in
 * the beams that run before it and how those list a turn. */
#define MODE_PLAY 0 /* no beams */
#define MODE_TURN 1 /* TurnSearcher: solo turns listed inline (no fire) */
#define MODE_FIRE 2 /* FireBeamSearcher, MultiBeamSearcher: turns through play() */
#define MODE_EXTREME 3 /* extreme_beam.ExtremeBeamSearcher, 1-5 players */

typedef struct {
    Act *a;
    int n, cap;
} Line;

static int line_push(Line *l, Act x) {
    if (l->n >= l->cap) {
        int ncap = l->cap ? l->cap * 2 : 256;
        Act *na = realloc(l->a, sizeof(Act) * ncap);
        if (!na) return 0;
        l->a = na;
        l->cap = ncap;
    }
    l->a[l->n++] = x;
    return 1;
}

static int line_copy(Line *dst, const Act *src, int n) {
    dst->n = 0;
    for (int i = 0; i < n; i++)
        if (!line_push(dst, src[i])) return 0;
    return 1;
}

static const Act END_ACT = {-1, -1};

typedef struct {
    K *k;
    int mode, kw;
    Table *dead;
    Table *shared; /* turn-start dead positions shared between searches, or NULL */
    Table tried;
    /* The last, unlimited iteration: it leaves no position open, so it asks
     * the tried table nothing, and the table's share of the memory budget
     * goes to the chains of dominance (``gmax``) */
    int unlimited;
    /* Searcher.buried: the tops of the positions proven dead, chained by
     * the rest of their key (``groups`` maps it to the head of a chain in
     * ``gtops``/``gnext``); only where tops dominate (not Extreme) */
    Table groups;
    uint64_t *gtops;
    int32_t *gnext;
    size_t gn, gcap, gmax;
    long long nodes, node_limit, iterations, dead_card_cuts, stuck_cuts, dominated;
    double deadline;
    int has_deadline;
    PyObject *progress;
    int error; /* a Python exception is set (progress callback, Ctrl-C, memory) */
    Line path, best_path;
    int best_left;
    int branch, per_parent, extra_cost;
    int endgame; /* the beam's endgame search allowance (INF: complete) */
    Scratch x;
} S;

static double now_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail_memory(S *s) {
    if (!s->error) PyErr_NoMemory();
    s->error = 1;
    return BUDGET;
}

/* Budgeted._tick: 1 when the budget ran out */
static int tick(S *s) {
    s->nodes++;
    if (s->nodes >= s->node_limit) return 1;
    if ((s->nodes & 63) == 0) {
        if (s->has_deadline && now_monotonic() > s->deadline) return 1;
        if (s->progress) {
            PyObject *r = PyObject_CallFunction(s->progress, "L", s->nodes);
            if (!r) {
                s->error = 1;
                return 1;
            }
            /* True: stop as if the budget ran out (Ctrl-C asked for the
             * best so far, models/interrupt.py). */
            int stop = r == Py_True;
            Py_DECREF(r);
            if (stop) return 1;
        }
        if ((s->nodes & 0xffff) == 0 && PyErr_CheckSignals() < 0) {
            s->error = 1;
            return 1;
        }
    }
    return 0;
}

/* The dead memo. With a shared table, positions at a turn start (capped
 * turn count 0) go there: a fact about the position that every search of
 * the deal may reuse; positions inside a turn depend on where the search
 * started (the solo turn cap) and stay in the search's own table. Extreme
 * has no turn cap (ExtremeKernel.max_turn is INF), so there every dead
 * position is such a fact and goes to the shared table, as the puzzle
 * rating's Python search of Extreme shares them all. */
/* placement.takes_all_of */
static inline int takes_all_of(int asc, int top, int other, int step, M un) {
    if (top == other) return 1;
    int back = asc ? other - step : other + step;
    int waiting = back >= 0 && testbit(un, back);
    int beyond_other = asc ? other > top : other < top;
    int beyond_back = asc ? back > top : back < top;
    return beyond_other && (!waiting || beyond_back);
}

/* Searcher._is_dead's dominance: a position this search proved dead with
 * the same rest of the key whose tops each take all the current ones take
 * (a top marked with a fire card due pairs only with itself) */
static int dominated(S *s, const uint64_t *key) {
    const K *k = s->k;
    if (k->extreme || !s->gtops) return 0;
    int32_t *head = tab_get(&s->groups, key + 1);
    if (!head) return 0;
    M un = k->s.unplayed;
    for (int32_t j = *head; j >= 0; j = s->gnext[j]) {
        uint64_t dw = s->gtops[j];
        int ok = 1;
        for (int i = 0; ok && i < k->n_piles; i++) {
            int a = (int)((dw >> (8 * i)) & 0xff), b = (int)((key[0] >> (8 * i)) & 0xff);
            if (a != b && ((a | b) & 0x80 || !takes_all_of(i < k->n_asc, a, b, k->step, un)))
                ok = 0;
        }
        if (ok) {
            s->dominated++;
            return 1;
        }
    }
    return 0;
}

static inline int dead_has(S *s, const uint64_t *key) {
    return tab_get(s->dead, key) || (s->shared && tab_get(s->shared, key)) || dominated(s, key);
}

/* Searcher._bury's chain of tops (past ``gmax`` entries the chains stop
 * growing: sound, a memo entry only saves work) */
static void bury(S *s, const uint64_t *key) {
    if (s->k->extreme || s->gn >= s->gmax) return;
    if (s->gn == s->gcap) {
        size_t ncap = s->gcap ? s->gcap * 2 : 4096;
        if (ncap > s->gmax) ncap = s->gmax;
        uint64_t *nt = realloc(s->gtops, ncap * sizeof(uint64_t));
        if (!nt) return;
        s->gtops = nt;
        int32_t *nn = realloc(s->gnext, ncap * sizeof(int32_t));
        if (!nn) return;
        s->gnext = nn;
        s->gcap = ncap;
    }
    int32_t *head = tab_get(&s->groups, key + 1);
    size_t before = s->groups.count;
    int32_t next = head ? *head : -1;
    tab_put(&s->groups, key + 1, (int32_t)s->gn);
    if (!head && s->groups.count == before) return; /* the group table is full */
    s->gtops[s->gn] = key[0];
    s->gnext[s->gn] = next;
    s->gn++;
}

/* A dead position's value in the memo: the bits of the nodes its proof
 * took (at least 1) */
static inline int32_t work_bits(long long nodes) {
    int32_t b = 1;
    while (b < 63 && nodes >> b) b++;
    return b;
}

/* tab_put for the dead memo, whose values are ``work_bits``. Where the
 * table is full, a new key takes the slot of the cheapest proof among the
 * first KEEP_PROBE slots of its probe path, if that proof cost less: a full
 * memo then keeps the costly proofs (the positions nearer the root, whose
 * loss costs most to find again) instead of refusing every new one. The
 * slot is taken in place, so every other key's probe path stays whole; the
 * key put out is only not found again (sound: a memo entry saves work). */
#define KEEP_PROBE 8
static void tab_keep(Table *t, const uint64_t *key, int32_t val) {
    size_t i = tab_slot(t, key);
    if (t->used[i]) {
        if (t->vals[i] < val) t->vals[i] = val;
        return;
    }
    if (tab_add(t, i, key, val)) return;
    uint64_t h = hash_words(key, t->kw);
    size_t mask = t->cap - 1, j = h & mask, low = 0;
    int found = 0;
    for (int n = 0; n < KEEP_PROBE && t->used[j]; n++, j = (j + 1) & mask)
        if (!found || t->vals[j] < t->vals[low]) {
            low = j;
            found = 1;
        }
    if (found && t->vals[low] < val) {
        memcpy(t->keys + low * t->kw, key, t->kw * sizeof(uint64_t));
        t->vals[low] = val;
        t->used[low] = tag_of(h);
        t->replaced++;
    }
}

static inline void dead_add(S *s, const uint64_t *key, long long start) {
    int32_t val = work_bits(s->nodes - start);
    if (s->shared && (s->k->extreme || key_at_turn_start(&s->k->ks, key)))
        tab_keep(s->shared, key, val);
    else
        tab_keep(s->dead, key, val);
    bury(s, key);
}

static int note_turn_end(S *s) {
    int left = popc(s->k->s.unplayed);
    if (left < s->best_left) {
        s->best_left = left;
        if (!line_copy(&s->best_path, s->path.a, s->path.n)) return 0;
    }
    return 1;
}

static int dfs(S *s, int allowance);

static int child_end(S *s, int allowance) {
    K *k = s->k;
    TurnUndo u = end_turn(k);
    if (!line_push(&s->path, END_ACT) || !note_turn_end(s)) return fail_memory(s);
    int r = dfs(s, allowance);
    if (r == CLEAR || r == BUDGET) return r;
    s->path.n--;
    unend_turn(k, u);
    return r;
}

/* Searcher._dfs: the complete search of every mode (the beams come first) */
static int dfs(S *s, int allowance) {
    K *k = s->k;
    State *st = &k->s;
    if (tick(s)) return BUDGET;
    long long start = s->nodes - 1;
    uint64_t key[MAXKW];
    make_key(k, key);
    if (dead_has(s, key)) return DEAD;
    int32_t *tv = s->unlimited ? NULL : tab_get(&s->tried, key);
    if ((tv ? *tv : -1) >= allowance) return OPEN;
    if (dead_mask(k)) {
        s->dead_card_cuts++;
        dead_add(s, key, start);
        return DEAD;
    }
    if (stuck_ahead(k)) {
        s->stuck_cuts++;
        dead_add(s, key, start);
        return DEAD;
    }
    Mv ms[MAXMOVES + 1];
    int n = 0;
    if (st->t < st->max_turn || st->pos >= k->total) n = moves(k, ms + 1);
    int end_ok = st->t > 0 && can_end(k);
    int end_first = end_ok && (n == 0 || ms[1].cost > 0);
    /* the order: END first, or the plays then END */
    Mv *order = ms + 1;
    int total = n;
    if (end_first) {
        ms[0] = (Mv){0, -1, -1};
        order = ms;
        total = n + 1;
    } else if (end_ok) {
        ms[n + 1] = (Mv){0, -1, -1};
        total = n + 1;
    }
    int complete = 1, autoend = auto_end(k);
    for (int rank = 0; rank < total; rank++) {
        int c = order[rank].c, pile = order[rank].pile;
        int cost = rank == 0 ? 0 : 1, r;
        if (cost > allowance) {
            complete = 0;
            break;
        }
        if (c < 0) {
            r = child_end(s, allowance - cost);
            if (r == CLEAR || r == BUDGET) return r;
        } else {
            PlayUndo u = play(k, c, pile);
            if (!line_push(&s->path, (Act){(int16_t)c, (int16_t)pile})) return fail_memory(s);
            if (won(k)) {
                if (!line_push(&s->path, END_ACT)) return fail_memory(s);
                return CLEAR;
            }
            r = autoend ? child_end(s, allowance - cost) : dfs(s, allowance - cost);
            if (r == CLEAR || r == BUDGET) return r;
            s->path.n--;
            unplay(k, c, pile, u);
        }
        if (r == OPEN) complete = 0;
    }
    if (complete) {
        dead_add(s, key, start);
        return DEAD;
    }
    if (!s->unlimited) tab_put(&s->tried, key, allowance);
    return OPEN;
}

typedef struct {
    int score;
    Line line;
    State snap;
} BeamEntry;

typedef struct {
    int score, n, idx, order;
    int off, len; /* plays in the candidates' arena */
} Cand;

static int cmp_cand(const void *a, const void *b) {
    const Cand *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    if (x->n != y->n) return x->n < y->n ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static void beam_free(BeamEntry *b, int n) {
    for (int i = 0; i < n; i++) free(b[i].line.a);
    free(b);
}

/* TurnSearcher.beam: CLEAR (the line in path), DEAD (nothing found) or BUDGET */
static int beam(S *s, int width) {
    K *k = s->k;
    State root = k->s;
    int nb = 1, result = DEAD;
    BeamEntry *b = calloc(1, sizeof(BeamEntry));
    Table seen;
    Cand *cands = NULL;
    int ncand = 0, candcap = 0;
    Act *carena = NULL;
    int calen = 0, cacap = 0;
    if (!b || !tab_init(&seen, s->kw, (size_t)1 << 30)) {
        free(b);
        return fail_memory(s);
    }
    b[0].snap = root;
    int per = width < s->per_parent ? width : s->per_parent;
    while (nb) {
        ncand = 0;
        calen = 0;
        tab_clear(&seen);
        for (int idx = 0; idx < nb; idx++) {
            k->s = b[idx].snap;
            if (k->s.pos >= k->total) {
                if (!line_copy(&s->path, b[idx].line.a, b[idx].line.n)) {
                    result = fail_memory(s);
                    goto done;
                }
                int r = dfs(s, s->endgame);
                if (r == CLEAR || r == BUDGET) {
                    result = r;
                    goto done;
                }
                continue;
            }
            TurnList tl;
            int kind = s->mode == MODE_EXTREME ? TURNS_EXTREME
                       : s->mode == MODE_FIRE  ? TURNS_FIRE
                                               : TURNS_SOLO;
            if (!list_turns(k, &s->x, kind, s->branch, k->s.turn_min + 1, s->extra_cost, &tl)) {
                result = fail_memory(s);
                goto done;
            }
            int taken = 0;
            for (int n = 0; n < tl.n; n++) {
                if (taken >= per) break;
                if (tick(s)) {
                    turns_free(&tl);
                    result = BUDGET;
                    goto done;
                }
                Act *plays = tl.plays + tl.off[n];
                int np = tl.len[n];
                PlayUndo us[MAXSIZE];
                for (int i = 0; i < np; i++) us[i] = play(k, plays[i].c, plays[i].p);
                if (won(k)) {
                    int ok = line_copy(&s->path, b[idx].line.a, b[idx].line.n);
                    for (int i = 0; ok && i < np; i++) ok = line_push(&s->path, plays[i]);
                    ok = ok && line_push(&s->path, END_ACT);
                    turns_free(&tl);
                    result = ok ? CLEAR : fail_memory(s);
                    goto done;
                }
                TurnUndo tu = end_turn(k);
                uint64_t key[MAXKW];
                make_key(k, key);
                if (!tab_get(&seen, key) && !dead_has(s, key) && !dead_mask(k) &&
                    !stuck_ahead(k)) {
                    tab_put(&seen, key, 1);
                    taken++;
                    if (ncand >= candcap) {
                        candcap = candcap ? candcap * 2 : 1024;
                        Cand *nc = realloc(cands, sizeof(Cand) * candcap);
                        if (!nc) {
                            turns_free(&tl);
                            result = fail_memory(s);
                            goto done;
                        }
                        cands = nc;
                    }
                    if (calen + np > cacap) {
                        cacap = cacap ? cacap * 2 : 8192;
                        while (cacap < calen + np) cacap *= 2;
                        Act *na = realloc(carena, sizeof(Act) * cacap);
                        if (!na) {
                            turns_free(&tl);
                            result = fail_memory(s);
                            goto done;
                        }
                        carena = na;
                    }
                    memcpy(carena + calen, plays, sizeof(Act) * np);
                    cands[ncand] = (Cand){evaluate(k), n, idx, ncand, calen, np};
                    calen += np;
                    ncand++;
                }
                unend_turn(k, tu);
                for (int i = np - 1; i >= 0; i--) unplay(k, plays[i].c, plays[i].p, us[i]);
            }
            turns_free(&tl);
        }
        qsort(cands, ncand, sizeof(Cand), cmp_cand);
        int nn = ncand < width ? ncand : width;
        BeamEntry *nxt = calloc(nn ? nn : 1, sizeof(BeamEntry));
        if (!nxt) {
            result = fail_memory(s);
            goto done;
        }
        for (int r = 0; r < nn; r++) {
            Cand *c = &cands[r];
            BeamEntry *par = &b[c->idx];
            k->s = par->snap;
            Act *plays = carena + c->off;
            for (int i = 0; i < c->len; i++) play(k, plays[i].c, plays[i].p);
            end_turn(k);
            int ok = line_copy(&nxt[r].line, par->line.a, par->line.n);
            for (int i = 0; ok && i < c->len; i++) ok = line_push(&nxt[r].line, plays[i]);
            ok = ok && line_push(&nxt[r].line, END_ACT);
            if (!ok) {
                beam_free(nxt, nn);
                result = fail_memory(s);
                goto done;
            }
            int left = popc(k->s.unplayed);
            if (left < s->best_left) {
                s->best_left = left;
                if (!line_copy(&s->best_path, nxt[r].line.a, nxt[r].line.n)) {
                    beam_free(nxt, nn);
                    result = fail_memory(s);
                    goto done;
                }
            }
            nxt[r].score = c->score;
            nxt[r].snap = k->s;
        }
        beam_free(b, nb);
        b = nxt;
        nb = nn;
    }
    k->s = root;
    s->path.n = 0;
    result = DEAD;
done:
    beam_free(b, nb);
    tab_free(&seen);
    free(cands);
    free(carena);
    return result;
}

/* ---- the Python types ------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    K k;
    int configured;
} CoreObject;

typedef struct {
    PyObject_HEAD
    Table t;
    long long chained; /* positions the search put in its chains of dominance */
    int n_asc, n_piles, players, extreme; /* the game shape its keys are of */
    KeyShape ks;
} DeadSetObject;

static PyTypeObject CoreType;
static PyTypeObject DeadSetType;

static PyObject *from_mask(M x) {
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    if (!hi) return PyLong_FromUnsignedLongLong(lo);
    PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo);
    PyObject *sh = PyLong_FromLong(64), *r = NULL;
    if (h && l && sh) {
        PyObject *hs = PyNumber_Lshift(h, sh);
        if (hs) {
            r = PyNumber_Or(hs, l);
            Py_DECREF(hs);
        }
    }
    Py_XDECREF(h);
    Py_XDECREF(l);
    Py_XDECREF(sh);
    return r;
}

/* a Python int as a 128-bit mask; -1 with an exception if it does not fit */
static int to_mask(PyObject *o, M *out) {
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a card mask must be an int");
        return -1;
    }
    if (_PyLong_Sign(o) < 0 || _PyLong_NumBits(o) > 128) {
        PyErr_SetString(PyExc_ValueError, "a card mask must fit in 128 bits");
        return -1;
    }
    uint64_t lo = PyLong_AsUnsignedLongLongMask(o);
    PyObject *sh = PyLong_FromLong(64);
    if (!sh) return -1;
    PyObject *h = PyNumber_Rshift(o, sh);
    Py_DECREF(sh);
    if (!h) return -1;
    uint64_t hi = PyLong_AsUnsignedLongLongMask(h);
    Py_DECREF(h);
    if (PyErr_Occurred()) return -1;
    *out = ((M)hi << 64) | lo;
    return 0;
}

static int int_list(PyObject *seq, int *out, int n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    return 0;
}

static int mask_list(PyObject *seq, M *out, int n, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (to_mask(PySequence_Fast_GET_ITEM(f, i), &out[i]) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}

static int check_configured(CoreObject *o) {
    if (!o->configured) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled kernel is not configured");
        return 0;
    }
    return 1;
}

static int check_state(const K *k) {
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
        if (popc(k->s.hands[p]) > k->hand_size) {
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
    K *k = &self->k;
    PyObject *fire, *deck, *tu, *td, *fb, *lb, *au, *ad;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiiiiOOOOOOOO", &k->players, &k->hand_size, &k->n_asc,
                          &k->n_piles, &k->step, &k->min_play, &k->min_empty, &k->low, &k->size,
                          &k->base_max_turn, &k->w2, &k->w3, &fire, &deck, &tu, &td, &fb, &lb,
                          &au, &ad))
        return NULL;
    self->configured = 0;
    if (k->players < 1 || k->players > MAXPL || k->n_piles < 1 || k->n_piles > MAXPILES ||
        k->n_asc < 0 || k->n_asc > k->n_piles || k->size < 2 || k->size > MAXSIZE ||
        k->step < 1) {
        PyErr_SetString(PyExc_ValueError, "the compiled kernel does not cover these rules");
        return NULL;
    }
    Py_ssize_t nd = PySequence_Size(deck);
    if (nd < 0) return NULL;
    if (nd > MAXSIZE) {
        PyErr_SetString(PyExc_ValueError, "deck too long");
        return NULL;
    }
    k->total = (int)nd;
    if (to_mask(fire, &k->fire) < 0 || int_list(deck, k->deck, k->total, "deck") < 0 ||
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
    K *k = &self->k;
    PyObject *o[6];
    M m[6];
    if (!PyArg_ParseTuple(args, "OOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5])) return NULL;
    for (int i = 0; i < 6; i++)
        if (to_mask(o[i], &m[i]) < 0) return NULL;
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
    K *k = &self->k;
    PyObject *tops, *hands, *un;
    State s;
    if (!PyArg_ParseTuple(args, "OOiOiiiii", &tops, &hands, &s.pos, &un, &s.cur, &s.t,
                          &s.pending, &s.turn_min, &s.max_turn))
        return NULL;
    memset(s.tops, 0, sizeof s.tops);
    memset(s.hands, 0, sizeof s.hands);
    if (int_list(tops, s.tops, k->n_piles, "tops") < 0 ||
        mask_list(hands, s.hands, k->players, "hands") < 0 || to_mask(un, &s.unplayed) < 0)
        return NULL;
    State old = k->s;
    k->s = s;
    if (!check_state(k)) {
        k->s = old;
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *moves_list(const Mv *ms, int n) {
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
    if (!check_configured(self)) return NULL;
    Mv ms[MAXMOVES];
    return moves_list(ms, moves(&self->k, ms));
}

static PyObject *core_all_moves(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    Mv ms[MAXMOVES];
    return moves_list(ms, all_moves(&self->k, ms));
}

static PyObject *core_legal_plays(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    K *k = &self->k;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    M h = k->s.hands[k->s.cur], shown = k->extreme ? x_shown(k) : 0;
    int no_trick = (shown & k->no_trick) != 0, one_pile = (shown & k->one_pile) != 0;
    while (h) {
        int c = ctz128(h);
        h &= h - 1;
        for (int i = 0; i < k->n_piles; i++) {
            if (!testbit(k->accepted[i < k->n_asc ? 0 : 1][k->s.tops[i]], c)) continue;
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

static int check_play(const K *k, int c, int pile) {
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
    if (!check_configured(self)) return NULL;
    TurnUndo u = end_turn(&self->k);
    PyObject *hand = from_mask(u.hand);
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
    if (to_mask(hand, &u.hand) < 0) return NULL;
    if (u.player < 0 || u.player >= self->k.players) {
        PyErr_SetString(PyExc_ValueError, "no such player");
        return NULL;
    }
    unend_turn(&self->k, u);
    Py_RETURN_NONE;
}

static PyObject *core_key(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    K *k = &self->k;
    int na = k->n_asc, np = k->n_piles, x = k->extreme;
    int marked[MAXPILES];
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
    for (int p = 0; p < k->players; p++) PyTuple_SET_ITEM(out, n++, from_mask(k->s.hands[p]));
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
    if (!check_configured(self)) return NULL;
    uint64_t w[MAXKW];
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
        if (!check_configured(self)) return NULL;                         \
        K *k = &self->k;                                                  \
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

static PyObject *core_dead_mask(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    return from_mask(dead_mask(&self->k));
}

static PyObject *core_reach(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    int lo, hi;
    reach(&self->k, &lo, &hi);
    return Py_BuildValue("(ii)", lo, hi);
}

static PyObject *core_stuck_ahead(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    return PyBool_FromLong(stuck_ahead(&self->k));
}

static PyObject *core_evaluate(CoreObject *self, PyObject *unused) {
    if (!check_configured(self)) return NULL;
    return PyLong_FromLong(evaluate(&self->k));
}

static Scratch py_scratch; /* for turn lists asked from Python */

static PyObject *turns_py(CoreObject *self, PyObject *args, int kind) {
    long long branch = INF, longest = INF, extra = INF;
    if (!check_configured(self) || !PyArg_ParseTuple(args, "|LLL", &branch, &longest, &extra))
        return NULL;
    if (branch > INF) branch = INF;
    if (longest > INF) longest = INF;
    if (extra > INF) extra = INF;
    K *k = &self->k;
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
            Act a = tl.plays[tl.off[r] + i];
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

static PyObject *line_to_list(const Line *l) {
    PyObject *out = PyList_New(l->n);
    if (!out) return NULL;
    for (int i = 0; i < l->n; i++) {
        PyObject *t = Py_BuildValue("(ii)", l->a[i].c, l->a[i].p);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* table slots for ``memo_bytes`` of memory: the largest power of two */
static size_t slots_for(size_t bytes, int kw, size_t per_extra) {
    size_t per = kw * sizeof(uint64_t) + per_extra, cap = 1 << 12;
    while (cap * 2 * per <= bytes) cap *= 2;
    return cap;
}

/* _search(mode, node_limit, deadline, progress, beam_widths, branch, per_parent,
 *         extra_cost, memo_bytes) -> (win, proven, actions, best_left, nodes,
 *         iterations, dead_positions, dead_card_cuts, stuck_cuts, dominated, dead_set)
 * Searches from a copy of the position: the kernel itself does not move. */
static PyObject *core_search(CoreObject *self, PyObject *args) {
    int mode, branch, per_parent, extra, endgame = INF;
    long long node_limit;
    Py_ssize_t memo_bytes;
    PyObject *deadline_o, *progress, *widths_o, *shared_o = Py_None;
    if (!check_configured(self) ||
        !PyArg_ParseTuple(args, "iLOOOiiin|Oi", &mode, &node_limit, &deadline_o, &progress,
                          &widths_o, &branch, &per_parent, &extra, &memo_bytes, &shared_o,
                          &endgame))
        return NULL;
    DeadSetObject *shared = NULL;
    if (shared_o != Py_None) {
        if (!PyObject_TypeCheck(shared_o, &DeadSetType)) {
            PyErr_SetString(PyExc_TypeError, "shared must be a DeadSet");
            return NULL;
        }
        shared = (DeadSetObject *)shared_o;
        if (shared->n_asc != self->k.n_asc || shared->n_piles != self->k.n_piles ||
            shared->players != self->k.players || shared->extreme != self->k.extreme ||
            memcmp(&shared->ks, &self->k.ks, sizeof(KeyShape)) != 0) {
            PyErr_SetString(PyExc_ValueError, "the shared DeadSet is of another game shape");
            return NULL;
        }
    }
    if (mode < MODE_PLAY || mode > MODE_EXTREME) {
        PyErr_SetString(PyExc_ValueError, "no such search mode");
        return NULL;
    }
    if (mode == MODE_TURN && self->k.players != 1) {
        PyErr_SetString(PyExc_ValueError, "the solo turn search is for solo games");
        return NULL;
    }
    /* the classic turn listers know no commands, the Extreme one no fire */
    if (mode != MODE_PLAY && (mode == MODE_EXTREME) != self->k.extreme) {
        PyErr_SetString(PyExc_ValueError, "this search mode is not for these rules");
        return NULL;
    }
    int widths[64];
    Py_ssize_t nw = PySequence_Size(widths_o);
    if (nw < 0) return NULL;
    if (nw > 64) {
        PyErr_SetString(PyExc_ValueError, "too many beam widths");
        return NULL;
    }
    if (int_list(widths_o, widths, (int)nw, "beam_widths") < 0) return NULL;
    K k = self->k; /* the search moves a copy */
    S s;
    memset(&s, 0, sizeof s);
    s.k = &k;
    s.mode = mode;
    s.kw = k.ks.kw;
    s.node_limit = node_limit;
    s.has_deadline = deadline_o != Py_None;
    if (s.has_deadline) {
        s.deadline = PyFloat_AsDouble(deadline_o);
        if (s.deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    s.progress = progress == Py_None ? NULL : progress;
    s.branch = branch;
    s.per_parent = per_parent;
    s.extra_cost = extra;
    s.endgame = endgame;
    s.best_left = INF;
    DeadSetObject *ds = PyObject_New(DeadSetObject, &DeadSetType);
    if (!ds) return NULL;
    ds->n_asc = k.n_asc;
    ds->n_piles = k.n_piles;
    ds->players = k.players;
    ds->extreme = k.extreme;
    ds->ks = k.ks;
    memset(&ds->t, 0, sizeof(Table));
    ds->chained = 0;
    /* half the memo budget for the dead table, a quarter for the tried one
     * and a quarter for the dominance chains (their table and entries); in
     * the unlimited iteration the tried table's quarter goes to the chains */
    size_t half = (size_t)memo_bytes / 2, quarter = half / 2;
    s.gmax = slots_for(quarter / 2, 1, 4);
    if (!tab_init(&ds->t, s.kw, slots_for(half, s.kw, 4 + 1)) ||
        !tab_init(&s.tried, s.kw, slots_for(quarter, s.kw, 4 + 1)) ||
        !tab_init(&s.groups, s.kw - 1, slots_for(quarter / 2, s.kw - 1, 4 + 1))) {
        tab_free(&s.tried);
        tab_free(&s.groups);
        Py_DECREF(ds);
        return PyErr_NoMemory();
    }
    s.dead = &ds->t;
    s.shared = shared ? &shared->t : NULL;
    int win = 0, proven = 0, stopped = 0, allowance = 0;
    if (!note_turn_end(&s)) {
        fail_memory(&s);
        stopped = 1;
    }
    for (int i = 0; !stopped && i < nw; i++) {
        s.iterations++;
        int r = beam(&s, widths[i]);
        if (r == BUDGET) stopped = 1;
        if (r == CLEAR) {
            win = proven = 1;
            break;
        }
    }
    while (!win && !stopped) {
        s.iterations++;
        int r = dfs(&s, allowance);
        if (r == CLEAR) {
            win = proven = 1;
            break;
        }
        if (r == DEAD) {
            proven = 1;
            break;
        }
        if (r == BUDGET) break;
        allowance = allowance < LAST_ALLOWANCE ? allowance * 2 + 1 : INF;
        if (allowance < INF) {
            tab_clear(&s.tried);
        } else if (!s.unlimited) {
            /* The unlimited iteration: the tried table's quarter of the
             * budget goes to the chains of dominance, a tops word and a link
             * an entry. In a deep loss proof dominance answers a fifth to a
             * third of the nodes, and its chains are full before the dead
             * table: profi-hard 108 from turn 8 of its best line takes 197 M
             * nodes instead of 435 M. */
            s.unlimited = 1;
            tab_free(&s.tried);
            s.gmax += quarter / (sizeof(uint64_t) + sizeof(int32_t));
        }
    }
    ds->chained = (long long)s.gn;
    tab_free(&s.tried);
    tab_free(&s.groups);
    free(s.gtops);
    free(s.gnext);
    free(s.x.tab);
    free(s.x.fcost);
    free(s.x.foff);
    free(s.x.flen);
    free(s.x.arena);
    PyObject *result = NULL;
    if (!s.error) {
        PyObject *actions = line_to_list(win ? &s.path : &s.best_path);
        if (actions)
            result = Py_BuildValue("(OONiLLnLLLO)", win ? Py_True : Py_False,
                                   proven ? Py_True : Py_False, actions, win ? 0 : s.best_left,
                                   s.nodes, s.iterations, (Py_ssize_t)ds->t.count,
                                   s.dead_card_cuts, s.stuck_cuts, s.dominated, (PyObject *)ds);
    }
    Py_DECREF(ds);
    free(s.path.a);
    free(s.best_path.a);
    return result;
}

/* getters and setters of the position */
static PyObject *get_tops(CoreObject *self, void *c) {
    PyObject *out = PyList_New(self->k.n_piles);
    if (!out) return NULL;
    for (int i = 0; i < self->k.n_piles; i++)
        PyList_SET_ITEM(out, i, PyLong_FromLong(self->k.s.tops[i]));
    return out;
}

static PyObject *get_hands(CoreObject *self, void *c) {
    PyObject *out = PyList_New(self->k.players);
    if (!out) return NULL;
    for (int p = 0; p < self->k.players; p++) {
        PyObject *h = from_mask(self->k.s.hands[p]);
        if (!h) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, p, h);
    }
    return out;
}

static PyObject *get_unplayed(CoreObject *self, void *c) { return from_mask(self->k.s.unplayed); }

#define INT_FIELD(name)                                                            \
    static PyObject *get_##name(CoreObject *self, void *c) {                       \
        return PyLong_FromLong(self->k.s.name);                                    \
    }                                                                              \
    static int set_##name(CoreObject *self, PyObject *v, void *c) {                \
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

static PyObject *get_pos(CoreObject *self, void *c) { return PyLong_FromLong(self->k.s.pos); }
static PyObject *get_cur(CoreObject *self, void *c) { return PyLong_FromLong(self->k.s.cur); }

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
    {"_search", (PyCFunction)core_search, METH_VARARGS, NULL},
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
    {"evaluate", (PyCFunction)core_evaluate, METH_NOARGS, NULL},
    {"solo_turns", (PyCFunction)core_solo_turns, METH_VARARGS, NULL},
    {"fire_turns", (PyCFunction)core_fire_turns, METH_VARARGS, NULL},
    {"extreme_turns", (PyCFunction)core_extreme_turns, METH_VARARGS, NULL},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game._ckernel.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The compiled kernel's position and moves (see ckernel.CKernel).",
    .tp_new = PyType_GenericNew,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};

/* DeadSet: the positions a compiled search proved to have no perfect clear,
 * asked with Python memo keys (``key in dead``), as the branch and bound does. */
static void deadset_dealloc(DeadSetObject *self) {
    tab_free(&self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t deadset_len(DeadSetObject *self) { return (Py_ssize_t)self->t.count; }

static int deadset_contains(DeadSetObject *self, PyObject *key) {
    int np = self->n_piles, pl = self->players, x = self->extreme;
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != np + pl + 3 + x) return 0;
    int marked[MAXPILES], tail[4];
    M hands[MAXPL];
    for (int i = 0; i < np; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(key, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || (x && v > 255)) return 0; /* not a key of this game */
        /* Extreme marks are 2 * top + bit already (make_key) */
        marked[i] = x ? (int)v : v >= 1000 ? (int)(v - 1000) | 128 : (int)v;
    }
    for (int p = 0; p < pl; p++)
        if (to_mask(PyTuple_GET_ITEM(key, np + p), &hands[p]) < 0) return -1;
    for (int i = 0; i < 3 + x; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(key, np + pl + i));
        if (v == -1 && PyErr_Occurred()) return -1;
        tail[i] = (int)v;
    }
    uint64_t w[MAXKW];
    if (key_words(&self->ks, self->n_asc, np, pl, marked, hands, tail[0], tail[1], tail[2],
                  x ? tail[3] : 0, w) < 0)
        return 0; /* not a key of this game */
    return tab_get(&self->t, w) != NULL;
}

static PySequenceMethods deadset_seq = {
    .sq_length = (lenfunc)deadset_len,
    .sq_contains = (objobjproc)deadset_contains,
};

static PyObject *deadset_replaced(DeadSetObject *self, void *c) {
    return PyLong_FromLongLong(self->t.replaced);
}

static PyObject *deadset_chained(DeadSetObject *self, void *c) {
    return PyLong_FromLongLong(self->chained);
}

static PyGetSetDef deadset_getset[] = {
    {"replaced", (getter)deadset_replaced, NULL, "keys put out of the full memo", NULL},
    {"chained", (getter)deadset_chained, NULL, "positions in the search's chains of dominance",
     NULL},
    {NULL},
};

static PyTypeObject DeadSetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "thegame.solver.the_game._ckernel.DeadSet",
    .tp_basicsize = sizeof(DeadSetObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Positions a compiled search proved dead, asked by Python memo key.",
    .tp_dealloc = (destructor)deadset_dealloc,
    .tp_as_sequence = &deadset_seq,
    .tp_getset = deadset_getset,
};

/* new_dead_set(n_asc, n_piles, players, hand_size, size, total, min_play, memo_bytes[,
 * extreme]): an empty DeadSet to share between searches of one deal (``_search``'s
 * ``shared``); the kernel's shape, so its keys have the same layout */
static PyObject *new_dead_set(PyObject *mod, PyObject *args) {
    int n_asc, n_piles, players, hand_size, size, total, min_play, extreme = 0;
    Py_ssize_t memo_bytes;
    if (!PyArg_ParseTuple(args, "iiiiiiin|p", &n_asc, &n_piles, &players, &hand_size, &size,
                          &total, &min_play, &memo_bytes, &extreme))
        return NULL;
    if (players < 1 || players > MAXPL || n_piles < 1 || n_piles > MAXPILES || n_asc < 0 ||
        n_asc > n_piles || memo_bytes < 0 || hand_size < 0 || size < 2 || size > MAXSIZE ||
        total < 0 || total > MAXSIZE) {
        PyErr_SetString(PyExc_ValueError, "no such game shape");
        return NULL;
    }
    DeadSetObject *ds = PyObject_New(DeadSetObject, &DeadSetType);
    if (!ds) return NULL;
    ds->n_asc = n_asc;
    ds->n_piles = n_piles;
    ds->players = players;
    ds->extreme = extreme;
    ds->ks = key_shape(players, hand_size, size, total, min_play, extreme);
    ds->chained = 0;
    int kw = ds->ks.kw;
    if (!tab_init(&ds->t, kw, slots_for((size_t)memo_bytes, kw, 4 + 1))) {
        tab_free(&ds->t);
        ds->t.cap = 0;
        Py_DECREF(ds);
        return PyErr_NoMemory();
    }
    return (PyObject *)ds;
}

static PyMethodDef module_methods[] = {
    {"new_dead_set", (PyCFunction)new_dead_set, METH_VARARGS, NULL},
    {NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ckernel", "The compiled search kernel (issue 16).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__ckernel(void) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    /* Built with -mpopcnt (setup.py, x86-64): refuse to load on a CPU
     * without it, so ckernel.py falls back to the Python kernel instead of
     * the process dying on an illegal instruction. */
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "_ckernel needs a CPU with POPCNT");
        return NULL;
    }
#endif
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&DeadSetType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&DeadSetType);
    if (PyModule_AddObject(m, "DeadSet", (PyObject *)&DeadSetType) < 0) {
        Py_DECREF(&DeadSetType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "INF", INF);
    PyModule_AddIntConstant(m, "MAX_SIZE", MAXSIZE);
    PyModule_AddIntConstant(m, "MAX_PILES", MAXPILES);
    PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXPL);
    return m;
}
