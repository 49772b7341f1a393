/* Blind-policy playouts of the classic family (rules C, P, F), compiled.
 *
 * This is a second implementation of two Python pieces, and it must make
 * exactly the same decisions as they do (tests/the_game/test_rollout.py
 * compares the two game by game):
 *
 *   - the blind policy, thegame/analysis/the_game/blind.py (blind.c here):
 *     BlindPolicy.choose_turn, _TurnSearch (its enumeration order, its
 *     `seen` set, its pruning), BlindPolicy.score (the same double
 *     operations in the same order, so that equal scores stay equal and the
 *     first one found wins) and _clear_line;
 *   - the rules engine's turn cycle as play_out drives it,
 *     thegame/models/the_game/state.py (game.c here): plays, end_turn (C6
 *     drawing, the F2 fire deadline, F3, the C7 clear and skip of empty
 *     hands), the turn minimum (C4/P1) and has_legal_turn (C8).
 *
 * module.c reads the Python arguments into these structs and runs them.
 *
 * Card sets are 128-bit masks (cards.h's CardMask, bit c = card c), so
 * cards and pile tops must be at most 127; rollout.c_covers sends anything
 * larger to Python. Hands inside a turn search are also indexed by position
 * in the sorted hand (a 64-bit mask), which is what the `seen` keys hold.
 *
 * Must be compiled without floating-point contraction (-ffp-contract=off,
 * see setup.py): a fused multiply-add would round differently from Python.
 */
#ifndef THEGAME_ROLLOUT_H
#define THEGAME_ROLLOUT_H

#include <stdint.h>
#include <string.h>

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

#include "cards.h"
#include "hashtable.h"

/* The limits of rollout.c_covers */
#define MAX_CARD (CARD_LIMIT - 1)
#define MAX_TOP (MAX_CARD + 1) /* a descending pile starts at high + 1 */
#define ROLLOUT_MAX_PILES 16   /* the tops of a `seen` key are two words of bytes */
#define ROLLOUT_MAX_HAND 32
#define ROLLOUT_MAX_PLAYERS 8
#define MAX_DEPTH 8

/* A game's status, as GameState's */
typedef enum { IN_PROGRESS = 0, WON = 1, LOST = 2 } Status;

/* The rules and the policy's weights (blind._Tables, BlindParams), with the
 * card masks the policy reads at every node */
typedef struct {
    int low, high, step;
    int n_piles, n_asc; /* piles 0..n_asc-1 ascend, the rest descend */
    int hand_size;      /* H for this number of players (C2) */
    int min_play, min_play_empty;
    int fire_safe_at_clear; /* F3 */
    int has_fire;
    unsigned char fire[MAX_TOP + 1]; /* fire[t]: t is a fire card (F1) */
    CardMask above[MAX_TOP + 1];     /* cards > t */
    CardMask below[MAX_TOP + 1];     /* cards < t */
    CardMask bit[MAX_CARD + 1];      /* {c}: a load is cheaper than a 128-bit shift */
    /* The score's view of a pile with top t, [0][t] ascending, [1][t]
     * descending: the cards it takes (its partner, the trick card, among
     * them), the partner whose trick earns a credit (0: none) and the
     * window of cards that trick would reopen */
    CardMask cover[2][MAX_TOP + 1], partner[2][MAX_TOP + 1], window[2][MAX_TOP + 1];
    int free_gap, forced_slack;
    double trick_hand, trick_unseen, play_bonus, fire_cost;
    int depth;
    double out_steps[MAX_DEPTH], hand_steps[MAX_DEPTH];
} Tables;

/* A line of plays: (card[k], pile[k]) */
typedef struct {
    int n;
    uint8_t card[ROLLOUT_MAX_HAND], pile[ROLLOUT_MAX_HAND];
} Line;

/* The game (GameState, classic family) as one order of the hidden cards
 * deals it */
typedef struct {
    int tops[ROLLOUT_MAX_PILES], top_turn[ROLLOUT_MAX_PILES];
    CardMask hands[ROLLOUT_MAX_PLAYERS];
    CardMask unplayed; /* every hand and the draw pile */
    const uint8_t *stock;
    int stock_pos, stock_len;
    int players, current, turn, turn_min, placed;
    Status status;
} Game;

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

/* The positions 0..n-1 of a sorted hand of n cards */
static inline uint64_t all_positions(int n) {
    return n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* The best ways to finish a turn, best first (BlindPolicy.turn_options cut
 * to its first ``k``): costs and lines, equal costs in the order found */
#define MAX_OPTIONS 64
typedef struct {
    int k, n;
    double cost[MAX_OPTIONS];
    Line line[MAX_OPTIONS];
} Options;

/* blind.c: BlindPolicy.turn_options, its first out->k entries */
void turn_options(const Tables *tb, const Game *g, KeySet *set, Options *out);

/* blind.c: BlindPolicy.choose_turn, the plays that finish the current turn
 * (``set``: the searches' `seen` set, emptied and reused) */
void choose_turn(const Tables *tb, const Game *g, KeySet *set, Line *result);

/* game.c: GameState.end_turn after a turn of at least the minimum, and
 * blind.play_out, the game played to its end */
void end_turn(const Tables *tb, Game *g, KeySet *set);
void play_out(const Tables *tb, Game *g, KeySet *set);

#endif
