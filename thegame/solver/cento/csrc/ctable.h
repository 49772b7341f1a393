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
} Search;

/* gen.c */
int gen_outcomes(const Deal *d, OutVec *out, u128 mask, int free, int open_c, int pos, int bound,
                 int immune, int others);
int expand(Search *s, const uint64_t *key, ChildVec *out); /* -1: out of memory */
int has_choice(const Deal *d, const uint64_t *key);
int children(Search *s, const uint64_t *key, ChildVec *out);
void init_numbers(const Search *s, const uint64_t *key, int64_t *pn, int64_t *dn);

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
