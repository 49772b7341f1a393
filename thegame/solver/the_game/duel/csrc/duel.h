/* The duel search's node expansion (Face to Face, rules D1-D7), compiled.
 *
 * A second implementation of what duel/search.py's DuelSearch._expand asks
 * of duel/position.py at every node, and it must answer exactly as they do
 * (tests/the_game/duel/test_cduel.py compares the two position by position
 * and whole searches node for node):
 *
 *   - DuelGame.turns (turns.c): every distinct result of a whole turn, in
 *     the same order (cards lowest first; own ascending, own descending,
 *     then the opponent's ascending and descending pile; the same `seen`
 *     merging), DuelGame._after (the D5 draw after the turn) and
 *     DuelGame.has_turn (the opponent's D6 check); position.solo_turns;
 *   - search.undominated, the turns no other turn dominates
 *     (placement.takes_all_of on the four tops), DuelSearch.score, the
 *     ordering score, and race.dead_cards (expand.c).
 *
 * The CPython type Game (game.c, sift.c, module.c) reads positions from
 * Python and calls these; pns.c is the df-pn loop added to the same module.
 *
 * Glossary: a card set is a 64-bit mask (cards.h's CardMask64, bit c =
 * card c, so cards are at most 63; duel/ccore.py sends larger generalised
 * duels to Python). A position is DuelPos: both hands h[2], both draw-pile
 * positions at[2], the tops a[q] (ascending) and d[q] (descending) of
 * player q, and cur, the player to move; Python's Pos tuple is
 * (h0, h1, at0, at1, a0, d0, a1, d1, cur).
 */
#ifndef THEGAME_DUEL_H
#define THEGAME_DUEL_H

#include <stddef.h>
#include <stdint.h>

#include "cards.h"
#include "hashtable.h"

#define MAX_CARD 63 /* a card set is a CardMask64 */
#define MAX_DECK 64

/* A position: Python's Pos */
typedef struct {
    CardMask64 h[2];
    int at[2], a[2], d[2], cur;
} DuelPos;

/* The rules and both draw piles (DuelGame) */
typedef struct {
    uint8_t deck[2][MAX_DECK];
    int deck_len[2];
    int hand_size, min_play, min_play_empty, step, draw_own;
    CardMask64 rest[2][MAX_DECK + 1]; /* rest[q][k]: the cards of deck q from k on */
} DuelRules;

/* One player's side alone, as position.solo_turns and race.py see it:
 * Python's (hand, at, a, d) */
typedef struct {
    CardMask64 hand;
    int at, a, d;
} SoloState;

/* A `seen` key (hashtable.h's KeySet): the hand, then two words of two
 * pile values each */
static inline SetKey seen_key(CardMask64 hand, int a, int d, int oa, int od) {
    SetKey k = {{hand, (uint64_t)(uint32_t)a << 32 | (uint32_t)d,
                 (uint64_t)(uint32_t)oa << 32 | (uint32_t)od}};
    return k;
}

/* Sort n distinct-or-equal u128 keys ascending in O(n log n): insertion
 * sort of runs of 16, then merges between ``k`` and ``tmp`` (n keys). The
 * lists sorted (a node's children, a state's turns) run to hundreds, where
 * an insertion sort alone was a fifth of the search's time. */
static inline void sort_u128(u128 *k, u128 *tmp, size_t n) {
    const size_t run = 16;
    for (size_t lo = 0; lo < n; lo += run) {
        const size_t hi = lo + run < n ? lo + run : n;
        for (size_t i = lo + 1; i < hi; i++) {
            const u128 x = k[i];
            size_t j = i;
            for (; j > lo && k[j - 1] > x; j--) k[j] = k[j - 1];
            k[j] = x;
        }
    }
    u128 *src = k, *dst = tmp;
    for (size_t width = run; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            const size_t mid = lo + width < n ? lo + width : n;
            const size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        u128 *t = src;
        src = dst;
        dst = t;
    }
    if (src != k)
        for (size_t i = 0; i < n; i++) k[i] = src[i];
}

/* A set emptied for each use and kept between uses: a listing's `seen`,
 * with no allocation a node (one set for each kind of listing, ``which``:
 * 0 the turns, 1 the turns alone, 2 the relaxed turns; no listing is ever
 * nested in another of its kind). NULL when out of memory. */
KeySet *scratch_set(int which);

/* A listing's `seen` in one word a key, where the cards a listing's hands
 * draw from are few (at most SEEN_CARDS): the hand as bits over those
 * cards (``compact``), then the tops, a byte each. One multiply a hash and
 * one slot a probe, against the KeySet's three words: the listings' sets
 * take most of their time. Emptied by a new stamp, as the KeySet. */
#define SEEN_CARDS 24
typedef struct {
    uint64_t key;
    uint32_t stamp;
} SeenSlot;

typedef struct {
    SeenSlot *slots;
    size_t cap, count;
    uint32_t now;
    uint8_t bit[MAX_DECK]; /* card -> its bit in a compact hand */
} Seen64;

/* A buffer of at least ``bytes`` kept between uses (grown, never shrunk),
 * for the big temporary arrays of an expansion that no use nests (which: 0
 * undominated's, 1 the children's order); freeing and asking again for
 * tens of kilobytes at every node gave pages back to the system and took
 * them fresh, zeroed, a tenth of the search's time. NULL when out of
 * memory. */
void *scratch_buffer(int which, size_t bytes);

/* The same scratch sets as scratch_set's, ``which`` alike */
Seen64 *scratch_seen(int which);
int seen64_grow(Seen64 *s);

/* 1 new, 0 there already, -1 out of memory */
static inline int seen64_add(Seen64 *s, uint64_t key) {
    if (2 * (s->count + 1) > s->cap && !seen64_grow(s)) return -1;
    const size_t mask = s->cap - 1;
    size_t j = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (s->slots[j].stamp == s->now) {
        if (s->slots[j].key == key) return 0;
        j = (j + 1) & mask;
    }
    s->slots[j].key = key;
    s->slots[j].stamp = s->now;
    s->count++;
    return 1;
}

/* Number the cards of ``cards`` (at most SEEN_CARDS) for compact hands */
static inline void seen64_cards(Seen64 *s, CardMask64 cards) {
    int k = 0;
    for (CardMask64 left = cards; left; left &= left - 1) s->bit[__builtin_ctzll(left)] = (uint8_t)k++;
}

/* A hand of those cards as bits */
static inline uint32_t compact(const Seen64 *s, CardMask64 hand) {
    uint32_t bits = 0;
    for (CardMask64 left = hand; left; left &= left - 1) bits |= 1u << s->bit[__builtin_ctzll(left)];
    return bits;
}

/* The key of a hand (compact) and four small values (tops, at least -1,
 * at most 254) */
static inline uint64_t seen64_key(uint32_t bits, int a, int d, int x, int y) {
    return (uint64_t)bits | (uint64_t)(uint8_t)(a + 1) << 24 | (uint64_t)(uint8_t)(d + 1) << 32 |
           (uint64_t)(uint8_t)(x + 1) << 40 | (uint64_t)(uint8_t)(y + 1) << 48;
}

/* ---- turns.c: DuelGame.turns, has_turn, position.solo_turns ------------- */

/* A result of a whole turn; its plays (when listed) are the n_plays from
 * ``plays`` on in the listing's plays_c and plays_pile */
typedef struct {
    DuelPos after;
    int won; /* D6: all cards played, won at once (no position after) */
    int n_plays;
    uint32_t plays;
} TurnResult;

/* The turns' enumeration: the position, the turn so far, the results */
typedef struct {
    const DuelRules *g;
    const DuelPos *pos;
    int p, o, m, empty, dumped0, step;
    KeySet *seen; /* scratch_set's, or NULL: */
    Seen64 *seen64; /* scratch_seen's, where the hand is small */
    TurnResult *out;
    size_t n_out, cap_out;
    uint8_t *plays_c, *plays_pile; /* the results' plays, unless lean */
    size_t n_plays, cap_plays;
    uint8_t path_c[MAX_DECK], path_pile[MAX_DECK];
    int depth;
    int stop_at_first; /* has_turn: any result will do */
    int lean;          /* the results without their plays */
    int oom;
} TurnSearch;

/* DuelGame.turns(pos, done, dumped) into T->out (the caller frees it, and
 * unless lean, plays_c and plays_pile: turns_free; the lean results are a
 * buffer kept between listings, valid until the next lean listing);
 * with ``first`` 1, only whether one exists (T->n_out stays 0; 2: one
 * does, 1: none); ``first`` 2: the results without their plays. 0 on out
 * of memory. */
int list_turns(TurnSearch *T, const DuelRules *g, const DuelPos *pos, int done, int dumped,
               int first);

/* What list_turns left to free */
void turns_free(TurnSearch *T);

/* DuelGame.has_turn(pos): -1 on out of memory. */
int has_turn(const DuelRules *g, const DuelPos *pos);

/* A turn on one's own piles alone: the hand after it, before the draw;
 * its n plays (when listed) from ``plays`` on in plays_c and plays_pile */
typedef struct {
    CardMask64 hand;
    int a, d, n;
    uint32_t plays;
} SoloResult;

typedef struct {
    const DuelRules *g;
    int p, m, empty, robust, step;
    KeySet *seen; /* scratch_set's; keys: hand, a, d, the two "pile played" flags as oa, od */
    Seen64 *seen64; /* or scratch_seen's, where the hand is small (then seen is NULL) */
    SoloResult *out;
    size_t n_out, cap_out;
    uint8_t *plays_c, *plays_pile; /* with ``with_plays`` */
    size_t n_plays, cap_plays;
    uint8_t path_c[MAX_DECK], path_pile[MAX_DECK];
    int depth, oom, with_plays;
} SoloSearch;

/* The states player p's own plays reach from ``st`` with at least m plays
 * (m 0: the turn's minimum, D2), into S->out (the caller frees it, and
 * with ``plays`` the results' plays: plays_c, plays_pile); 0: out of
 * memory. */
int solo_list(const DuelRules *g, SoloSearch *S, int p, const SoloState *st, int robust, int m,
              int plays);

/* ---- expand.c: dominance, the ordering score, dead cards ------------------ */

/* The cards player q has still to play: hand and draw pile */
static inline CardMask64 unplayed(const DuelRules *g, const DuelPos *pos, int q) {
    return pos->h[q] | g->rest[q][pos->at[q]];
}

/* Whether y dominates x for the mover p (search.at_least_as_good), with
 * un_p and un_o the unplayed cards of the mover and the opponent */
int dominates(const DuelRules *g, int p, const DuelPos *y, const DuelPos *x, CardMask64 un_p,
              CardMask64 un_o);

/* search.undominated: mark in ``dropped`` the results another result of
 * the same group dominates for the mover p; 0 when out of memory. */
int undominated(const DuelRules *g, int p, const TurnResult *r, size_t n, unsigned char *dropped);
/* Whether undominated would drop r[x]: the same test for one result */
int dominated(const DuelRules *g, int p, const TurnResult *r, size_t n, size_t x);

/* race.dead_cards: player p's cards that can never go on their own piles */
int dead_count(const DuelRules *g, int p, const SoloState *st);

/* DuelSearch.score of the turn from pos to after (lower first) */
int score(const DuelRules *g, const DuelPos *pos, const DuelPos *after);
/* The same, given the opponent's dead cards after the turn (dead_count) */
int score_with(const DuelRules *g, const DuelPos *pos, const DuelPos *after, int odead);

#endif
