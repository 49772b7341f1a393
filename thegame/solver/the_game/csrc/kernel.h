/* The compiled search kernel of the classic family and Extreme: the position
 * and its moves (kernel.c, a port of kernel.py's Kernel; extreme.c, of
 * extreme/kernel.py's ExtremeKernel).
 *
 * A line-by-line port: the same positions, the same move order and the same
 * sound cuts, so that a search here visits exactly the nodes the Python
 * searchers visit (the tests compare node counts). The Python kernel stays
 * the reference; every rule and every shortcut is argued there, next to its
 * Python code, and only the names are repeated here. Rule C5 itself is not
 * restated: the placement tables are computed in Python from
 * ``models.the_game.placement`` and handed over (``Core._configure``).
 *
 * Extreme (rules X, without fire cards): ``Core._commands`` hands over one
 * card mask per command kind (stop, skull, three, no-trick, one-pile,
 * draw-one) and sets ``extreme``; the kernel's functions then answer as
 * ExtremeKernel's (the x_ functions). As there, the turn state is packed
 * into ``pending``: bits 0..n_piles-1 the piles this turn's cards went onto
 * (X4b), X_STOP and X_THREE a stop or a three played this turn (X3a, X3c);
 * what shows on the tops (X3b, X4a-c) is read from the tops.
 */
#ifndef THEGAME_KERNEL_H
#define THEGAME_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "cards.h"

#define INF (1 << 30)
/* The rules the kernel holds (ckernel.covers checks a deal against them) */
#define KERNEL_MAX_PILES 8 /* a pile top is a byte of one 64-bit key word */
#define KERNEL_MAX_PLAYERS 8
#define KERNEL_MAX_SIZE CARD_LIMIT /* card values and start tops below it */
#define MAX_KEY_WORDS (2 + 2 * KERNEL_MAX_PLAYERS)
#define MAX_MOVES 256
/* arguments.CUT_HORIZON: the turn-start loss arguments cut the complete search
 * where the draw pile holds at most this many cards */
#define CUT_HORIZON 40

/* The position: Kernel's mutable fields (Kernel.snapshot) */
typedef struct {
    int tops[KERNEL_MAX_PILES];
    CardMask hands[KERNEL_MAX_PLAYERS];
    int pos; /* cards dealt so far */
    CardMask unplayed;
    int cur, t, pending, turn_min, max_turn;
} State;

/* The memo key's layout (memo.c: key_shape) */
typedef struct {
    int compact, tbits, fbits, cbits, pbits, hand, kw;
} KeyShape;

/* The rules, the deal, the placement tables and the position */
typedef struct {
    int players, hand_size, n_asc, n_piles, step, min_play, min_empty, total, low, size;
    int base_max_turn, w2, w3;
    CardMask fire;
    /* Extreme (ExtremeKernel): the cards of each command kind; 0 for the
     * classic family. The turn state is packed into ``pending`` as there. */
    int extreme;
    CardMask stop, skull, three, no_trick, one_pile, draw_one;
    KeyShape ks;
    int deck[KERNEL_MAX_SIZE];
    int trick_top[2][KERNEL_MAX_SIZE + 1];
    int first_beyond[KERNEL_MAX_SIZE + 1];
    int last_beyond[KERNEL_MAX_SIZE + 1];
    CardMask accepted[2][KERNEL_MAX_SIZE + 1];
    State s;
} Kernel;

/* A move as Kernel.moves lists it: (cost, card, pile) */
typedef struct {
    int cost, c, pile;
} Move;

/* One entry of a line: a play, or END_TURN */
typedef struct {
    int16_t c, p;
} Action;

#define END_TURN ((Action){-1, -1})

/* What play and end_turn return, for unplay and unend_turn */
typedef struct {
    int top, pending;
} PlayUndo;

typedef struct {
    int player, plays, pos;
    CardMask hand;
    int pending, turn_min, max_turn;
} TurnUndo;

/* ---- Extreme's turn state (extreme.kernel.ExtremeKernel) ----------------- */
#define X_STOP (1 << 20)
#define X_THREE (1 << 21)
#define X_FLAGS (X_STOP | X_THREE)

/* ExtremeKernel._showing: the cards on top, as a mask */
static inline CardMask x_shown(const Kernel *k) {
    CardMask shown = 0;
    for (int i = 0; i < k->n_piles; i++) shown |= card_bit(k->s.tops[i]);
    return shown;
}

/* ExtremeKernel._turn_bits */
static inline int x_turn_bits(const Kernel *k, int c, int pile) {
    int bits = 1 << pile;
    if (card_in(k->stop, c)) bits |= X_STOP;
    if (card_in(k->three, c)) bits |= X_THREE;
    return bits;
}

/* ExtremeKernel.can_end: X3c, C4 (waived by a stop, X3a), X3b */
static inline int x_can_end(const Kernel *k) {
    const State *s = &k->s;
    int st = s->pending;
    if (st & X_THREE) {
        if (s->t != 3) return 0;
    } else if (!(st & X_STOP) && s->t < s->turn_min) {
        return 0;
    }
    return !(x_shown(k) & k->skull);
}

/* ---- the moves of a turn (inline: every node makes them) ------------------ */

static inline int minimum(const Kernel *k) {
    return k->s.pos < k->total ? k->min_play : k->min_empty;
}

static inline PlayUndo play(Kernel *k, int c, int pile) {
    State *s = &k->s;
    CardMask bit = card_bit(c);
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

static inline void unplay(Kernel *k, int c, int pile, PlayUndo u) {
    State *s = &k->s;
    CardMask bit = card_bit(c);
    s->hands[s->cur] ^= bit;
    s->unplayed ^= bit;
    s->tops[pile] = u.top;
    s->pending = u.pending;
    s->t--;
}

static inline int can_end(const Kernel *k) {
    if (k->extreme) return x_can_end(k);
    return k->s.t >= k->s.turn_min && !k->s.pending;
}

/* ExtremeKernel.won: C7 with X3b/X3c, the last turn must end keeping them */
static inline int won(const Kernel *k) {
    return k->s.unplayed == 0 && (!k->extreme || x_can_end(k));
}

static inline int auto_end(const Kernel *k) {
    return k->players == 1 && k->s.pos >= k->total && !k->fire && !k->extreme;
}

static inline void unend_turn(Kernel *k, TurnUndo u) {
    State *s = &k->s;
    s->cur = u.player;
    s->t = u.plays;
    s->pos = u.pos;
    s->pending = u.pending;
    s->turn_min = u.turn_min;
    s->max_turn = u.max_turn;
    s->hands[u.player] = u.hand;
}

/* kernel.c (Kernel) */
void sort_moves(Move *out, int n);
int moves(const Kernel *k, Move *out);
int all_moves(const Kernel *k, Move *out);
TurnUndo end_turn(Kernel *k);
void reach(const Kernel *k, int *lo_out, int *hi_out);
int stuck_ahead(const Kernel *k);
int turn_cut(const Kernel *k);
CardMask dead_mask(const Kernel *k);
int evaluate(const Kernel *k);

/* extreme.c (ExtremeKernel) */
int x_moves(const Kernel *k, Move *out);
int x_keeps(const Kernel *k, int c, int pile, int no_trick, int one_pile);
int x_permanent_no_trick(const Kernel *k);
CardMask x_dead_mask(const Kernel *k);

#endif
