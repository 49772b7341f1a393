/* The Cento table search (solver/cento/table.py) compiled: the turn
 * generator of moves.py, TableSolver's expand, resolve and children, and its
 * df-pn (mid, prove) with the transposition table, ported line by line so
 * that a compiled search visits the nodes the Python one does, in the same
 * order, with the same numbers (tests/cento/test_ctable.py).
 *
 * A position's key is the Python key in words: key[0] the packed small
 * fields (table._pack), then each hand's int (the mask of number cards,
 * the free cards above bit FREE_SHIFT) as its low and high 64 bits. */
#ifndef THEGAME_CENTO_CTABLE_H
#define THEGAME_CENTO_CTABLE_H

#include <stdint.h>
#include <stdlib.h>

#include "budget.h"
#include "cards.h" /* u128, card_count, lowest_card */


#define MAX_SEATS 6
#define KW_MAX (1 + 2 * MAX_SEATS)
#define FREE_SHIFT 101
#define INF ((int64_t)1 << 40)
#define NO_DIGIT 255
#define MAX_CHECKS 256

/* The deal's tables (tables.Tables) and rules */
typedef struct {
    int n, k, share; /* seats, the seat asked about, Goal.SHARE */
    int special, chain_all, trick_draw, penalty;
    int ndraw;
    uint8_t draw[128];
    uint8_t canon[101], repdigit[101], single[101];
    u128 fit[101]; /* by canonical open value */
    u128 chain_cards[10], singles;
    uint8_t names[101][100];
    uint8_t nnames[101];
    uint8_t chain_names[10][100];
    uint8_t nchain_names[10];
} Deal;

/* moves.Outcome without the record turn */
typedef struct {
    u128 mask;
    int free, open, pos, immune, trick_pos, trick, obliged, won, passed;
} Outcome;

/* One option of expand, then one child of children: the key after the turn
 * (unless ``end``: the game ended, ``won`` for the seat asked about), and
 * the numbers an unseen child starts from and the turns it is past. */
typedef struct {
    uint64_t key[KW_MAX];
    int64_t pn, dn;
    int steps;
    int end, won;
} Child;

typedef struct {
    Child *v;
    size_t n, cap;
} ChildVec;

typedef struct {
    Outcome *v;
    size_t n, cap;
} OutVec;

/* The transposition table: keys of kw words to (pn, dn), unbounded */
typedef struct {
    uint64_t *slots; /* each: kw key words, pn, dn */
    uint8_t *used;
    size_t cap, count;
    size_t max_bytes; /* the slots may not grow past this (Limit.memory) */
    int kw;
} PnTable;

typedef struct Search {
    Deal d;
    int kw;
    PnTable tt;
    const PnTable *losses; /* the SHARE search's table, for ALONE, or NULL */
    OutVec outs;
    ChildVec scratch;
    /* expand's set of the children made so far (indices, by the stamp) */
    uint32_t *seen_at, *seen_stamp;
    size_t seen_cap;
    uint32_t seen_now;
    long long nodes;
    long long proven, disproven;
    int nearest; /* -1: none */
    /* the node limit, the memory (the table's bound) and the progress
     * function, which the binding makes call the Python NodeCounter (its
     * deadline, Ctrl-C and progress): budget.h's, asked at every node */
    Budget budget;
    /* called when the table reaches its bound: -1 with an exception set */
    int (*full)(void *ctx);
    /* playouts: the seat's next ``nest_turns`` turns each by a look ahead
     * of ``nest_rollouts`` greedy playouts a turn (playout.c) */
    int nest_turns, nest_rollouts;
    /* worlds sampled, deals tried for them, and worlds that passed every
     * greedy check */
    long long worlds, dealt, consistent;
} Search;

/* A candidate turn of the seat to move: ``drew`` 1: a draw (after a Trick
 * if ``trick``), the drawn card's use left to the seat as greedy play would
 * use it; 0 (no draw) or 2 (the drawn card seen): the turn's outcome in full */
struct Candidate {
    int drew, trick, immune, free, open, obliged;
    u128 mask;
};

/* gen.c */
int gen_outcomes(const Deal *d, OutVec *out, u128 mask, int free, int open_c, int pos, int bound,
                 int immune, int others);
int expand(Search *s, const uint64_t *key, ChildVec *out); /* -1: out of memory */
int has_choice(const Deal *d, const uint64_t *key);
int child_of(const Deal *d, int kw, const uint64_t *key, const Outcome *o, uint64_t *child,
             int *won);
int children(Search *s, const uint64_t *key, ChildVec *out);
void init_numbers(const Search *s, const uint64_t *key, int64_t *pn, int64_t *dn);

/* playout.c */
int playout(Search *s, const uint64_t *start, uint64_t *rng, ChildVec *vec, int *won, int nests);
/* One sampled world's value of each candidate turn of the mover of
 * ``key`` (see playout.c); -1 when out of memory */
int sample_world(Search *s, const uint64_t *key, const struct Candidate *cands, int ncands,
                 uint64_t *rng, ChildVec *vec, int *values);

/* What the seat sees, for dealing worlds: its small fields and hand, the
 * unseen cards (the head of the pile excluded: the cards the seat has
 * looked at, which start the pile) and per other seat, in seat order,
 * ``nslots[i]`` masks of the cards each of its cards cannot be */
struct World {
    uint64_t small;
    u128 own;
    int unseen[128], nunseen;
    int head[8], nhead;
    int nslots[MAX_SEATS];
    u128 slots[128];
    /* What the others' greedy turns tell: a world is redealt (up to
     * ``tries`` deals) until every check holds, each check a turn of
     * ``seat``: its hand then was its world hand without the cards of the
     * slots in ``skip`` (bits of the slot order above: drawn since) and
     * with ``back`` (the cards it has laid since, this turn's included);
     * the turn left it that hand with ``after`` on the open card ``open``,
     * which must be a greedy turn there (``small``: the key's small fields
     * before the turn) */
    struct Check {
        int seat, open;
        uint64_t small;
        u128 skip, back, after;
    } checks[MAX_CHECKS];
    int nchecks, tries;
    /* after the first world, each next one is the last changed by ``steps``
     * swaps of two unseen cards (each kept when it fails no more checks)
     * and the pile shuffled: 0, every world dealt afresh */
    int steps;
    int slot_card[128]; /* the card each slot holds in the world (0: a free card) */
    int slot_owner[128], nall;
};
/* ``count`` worlds dealt and sampled: per candidate the wins and the
 * worlds it was a turn in, added to ``wins`` and ``seen`` */
int sample_worlds(Search *s, struct World *w, const struct Candidate *cands, int ncands,
                  int count, uint64_t *rng, long long *wins, long long *seen);

/* search.c */
int pt_init(PnTable *t, int kw);
void pt_free(PnTable *t);
const int64_t *pt_get(const PnTable *t, const uint64_t *key);
/* 1; 0 when out of memory; -1 when the table is at its bound */
int pt_put(PnTable *t, const uint64_t *key, int64_t pn, int64_t dn);
void lookup(const Search *s, const uint64_t *key, int64_t *pn, int64_t *dn);
int prove(Search *s, const uint64_t *root, int64_t *pn, int64_t *dn); /* -1: error set */

static inline u128 hand_of(const uint64_t *key, int seat) {
    return (u128)key[1 + 2 * seat] | (u128)key[2 + 2 * seat] << 64;
}

static inline void set_hand(uint64_t *key, int seat, u128 h) {
    key[1 + 2 * seat] = (uint64_t)h;
    key[2 + 2 * seat] = (uint64_t)(h >> 64);
}

#define NUMBERS_MASK (((u128)1 << FREE_SHIFT) - 1)
#define BIT(c) ((u128)1 << (c))
#define BIT100 BIT(100)

static inline int hand_cards(u128 h) { return card_count(h & NUMBERS_MASK) + (int)(h >> FREE_SHIFT); }

#endif
