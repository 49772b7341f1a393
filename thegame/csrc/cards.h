/* Card sets as bit masks, and the placement tests (rule C5, and D3/D4 of the
 * duel), shared by the three compiled extensions: the search kernel
 * (solver/the_game/csrc), the blind playouts (analysis/the_game/csrc) and
 * the duel (solver/the_game/duel/csrc).
 *
 * A card set is a mask with bit c for card c: CardMask holds cards 0..127
 * (the kernel and the playouts), CardMask64 cards 0..63 (the duel, whose
 * printed game has 60 cards: half the width is faster there). Each
 * extension's Python side sends any deal with larger cards to the Python
 * reference instead.
 *
 * Every function here is static inline: each extension is compiled on its
 * own, and these sit on the searches' hottest paths.
 */
#ifndef THEGAME_CARDS_H
#define THEGAME_CARDS_H

#include <stdint.h>

/* The one 128-bit type of the kernels (Cento packs its hands in it too) */
typedef unsigned __int128 u128;
typedef u128 CardMask;
typedef uint64_t CardMask64;

/* The cards a CardMask can hold: 0..CARD_LIMIT-1 */
#define CARD_LIMIT 128

/* {c}; the empty set for a value no mask holds */
static inline CardMask card_bit(int c) {
    return (c >= 0 && c < CARD_LIMIT) ? ((CardMask)1) << c : 0;
}

static inline int card_in(CardMask x, int c) {
    return c >= 0 && c < CARD_LIMIT && (int)((x >> c) & 1);
}

static inline int card_in64(CardMask64 x, int c) { return c >= 0 && c < 64 && (int)((x >> c) & 1); }

/* The cards below n: 0..n-1 */
static inline CardMask cards_below(int n) {
    if (n <= 0) return 0;
    if (n >= CARD_LIMIT) return ~(CardMask)0;
    return (((CardMask)1) << n) - 1;
}

/* The cards strictly between a and b (a < b) */
static inline CardMask cards_between(int a, int b) {
    return b > a + 1 ? cards_below(b) & ~cards_below(a + 1) : 0;
}

/* How many cards: two hardware popcounts where the build allows them
 * (setup.py asks for them on x86-64) */
static inline int card_count(CardMask x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int card_count64(CardMask64 x) { return __builtin_popcountll(x); }

static inline CardMask64 card_bit64(int c) { return c >= 0 && c < 64 ? (CardMask64)1 << c : 0; }

/* The cards above c, and below c, of a CardMask64 */
static inline CardMask64 cards64_above(int c) {
    if (c < 0) return ~(CardMask64)0;
    if (c >= 63) return 0;
    return ~(((CardMask64)2 << c) - 1);
}

static inline CardMask64 cards64_below(int c) {
    if (c <= 0) return 0;
    if (c > 63) return ~(CardMask64)0;
    return ((CardMask64)1 << c) - 1;
}

/* The lowest and the highest card of a non-empty set */
static inline int lowest_card(CardMask x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int highest_card(CardMask x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* The cards of a set in ascending order into ``out``; how many */
static inline int card_list(CardMask x, int *out) {
    int n = 0;
    for (uint64_t lo = (uint64_t)x; lo; lo &= lo - 1) out[n++] = __builtin_ctzll(lo);
    for (uint64_t hi = (uint64_t)(x >> 64); hi; hi &= hi - 1) out[n++] = 64 + __builtin_ctzll(hi);
    return n;
}

/* ---- placement (models/the_game/placement.py) ---------------------------
 * ``asc``: an ascending pile (its cards go up); ``top``: the card on it. */

/* C5: a card beyond the top, in the pile's direction */
static inline int pile_beyond(int asc, int top, int c) { return asc ? c > top : c < top; }

/* C5: the card that goes back against the direction (the backward trick) */
static inline int trick_card(int asc, int top, int step) { return asc ? top - step : top + step; }

/* C5: the pile takes the card */
static inline int pile_accepts(int asc, int top, int c, int step) {
    return pile_beyond(asc, top, c) || c == trick_card(asc, top, step);
}

/* D4: a card onto the opponent's pile must set it back */
static inline int pile_improves(int asc, int top, int c) { return asc ? c < top : c > top; }

/* placement.takes_all_of: a pile showing ``top`` takes every card a pile
 * showing ``other`` takes, from now on, with ``unplayed`` the cards still to
 * come (the other pile's trick card counts only while it is unplayed). */
static inline int takes_all_of(int asc, int top, int other, int step, CardMask unplayed) {
    if (top == other) return 1;
    int back = trick_card(asc, other, step);
    int waiting = back >= 0 && card_in(unplayed, back);
    return pile_beyond(asc, top, other) && (!waiting || pile_beyond(asc, top, back));
}

#endif
