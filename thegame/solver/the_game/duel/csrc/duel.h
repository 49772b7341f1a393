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
    KeySet *seen; /* scratch_set's */
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
 * unless lean, plays_c and plays_pile);
 * with ``first`` 1, only whether one exists (T->n_out stays 0; 2: one
 * does, 1: none); ``first`` 2: the results without their plays. 0 on out
 * of memory. */
int list_turns(TurnSearch *T, const DuelRules *g, const DuelPos *pos, int done, int dumped,
               int first);

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

#endif
