/* The duel's whole proof search, compiled: what duel/nodes.py's DuelNodes
 * does at a node (the table of proven positions and the groups of
 * dominance between positions, the first look by dominance, the race
 * bounds and the survival bounds, the children in order), the depth-first
 * AND-OR search of duel/search.py and the df-pn of duel/pns.py (dfpn.c),
 * with no Python in it: the binding (solverpy.c) fills a Budget (budget.h)
 * and reads the answers. The Python searches stay the reference: the same
 * positions opened and the same values stored, in the same order
 * (tests/the_game/duel/test_csolver.py, through the trace below). */
#ifndef THEGAME_DUEL_SOLVER_H
#define THEGAME_DUEL_SOLVER_H

#include "bounds.h"
#include "budget.h"
#include "race.h"

/* nodes.DuelStats */
typedef struct {
    long long nodes, bound_cuts, survival_cuts, stuck_cuts, tt_hits, dominated;
} SearchStats;

/* nodes.DuelNodes's switches (all on by default; off: for measuring) and
 * its bounds' sizes (nodes.BoundSizes) */
typedef struct {
    int dominance, alone, relaxed_race, survival, survival_turns;
    int robust_cards, robust_nodes, relaxed_cards, relaxed_nodes, survival_nodes;
} SearchOptions;

/* One proven position of a dominance group: its tops and value */
typedef struct {
    int8_t a0, d0, a1, d1;
    int32_t won, next; /* next: the entry stored before it in the group, -1 */
} GroupEntry;

/* A child of an expansion: the position after the turn, its ordering
 * score (DuelNodes.score) and whether its mover has a turn (D6); its
 * table key (pos_key) with that key's hash, and the hash of its dominance
 * group's key, made once, for the many visits of a node */
typedef struct {
    DuelPos after;
    int score, moves;
    uint64_t key[3], hash, group_hash;
} Child;

/* A child to search: its position, table key and that key's hash */
typedef struct {
    DuelPos pos;
    SetKey key;
    uint64_t hash;
} Kid;

/* The table's slot for a key with its hash (tab_slot, the hash given) */
static inline size_t slot_hashed(const Table *t, const uint64_t *key, uint64_t h) {
    const uint8_t tag = tag_of(h);
    const size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->used[i] && (t->used[i] != tag || !words_eq(t->keys + i * t->kw, key, t->kw)))
        i = (i + 1) & mask;
    return i;
}

/* The numbers' slot for a key with its hash (pairmap_slot, the hash given:
 * both tables hash a position's key with hash_words) */
static inline size_t numbers_slot(const PairMap *t, const SetKey *k, uint64_t h) {
    const size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->used[i] && !words_eq(t->keys[i].w, k->w, KEYSET_WORDS)) i = (i + 1) & mask;
    return i;
}

/* A node's expansion (``_cduel.Game.expand``): 0 no turn, 1 a turn lays
 * every card, 2 the undominated children in DuelGame.turns order, with
 * ``rank`` the order of the search (score, then that order) */
typedef struct {
    uint64_t key[3];
    int status, used;
    uint32_t n;
    Child *kids;
    uint32_t *rank;
} Expansion;

/* The last expansions, direct-mapped by the position's hash: df-pn comes
 * back to a node many times, and its turns do not change */
#define EXPANSIONS 4096

/* What the trace records (for the tests): a position opened, a value stored */
typedef struct {
    DuelPos pos;
    int kind; /* 0 open, 1 store */
    int value;
} TraceEvent;

typedef struct {
    DuelRules g;
    SearchOptions opt;
    SearchStats stats;
    Table tt; /* the packed position -> 1: its mover wins, 0: loses */
    size_t tt_limit;
    Table groups; /* the cards in play (dominance_key) -> the newest entry */
    GroupEntry *entries;
    size_t n_entries, cap_entries;
    /* df-pn (dfpn.c): the unsettled numbers and the options */
    PairMap nums;
    size_t nums_limit;
    int64_t inf, weight, eval_weight;
    double widen;
    Expansion *cache; /* EXPANSIONS of them */
    RaceCore robust[2];
    RelaxedRace fewest_relaxed[2];
    Endurance relaxed[2], sure[2];
    const Budget *budget;
    int halted; /* 1: out of budget, 2: failed (out of memory, or the progress failed) */
    int tracing;
    TraceEvent *trace;
    size_t n_trace, cap_trace;
} Solver;

/* 0 when out of memory (then solver_free) */
int solver_init(Solver *S, const DuelRules *g, size_t tt_limit, size_t nums_limit);
void solver_free(Solver *S);

/* The packed position: the table's key */
void pos_key(const DuelPos *pos, uint64_t *w);
void key_pos(const uint64_t *w, DuelPos *pos);

/* The table's value of pos: 1 won, 0 lost, -1 not there */
int solver_get(const Solver *S, const DuelPos *pos);
/* DuelNodes._store */
void solver_store(Solver *S, const DuelPos *pos, int won);
/* DuelNodes._first_look: 1 won, 0 lost, -1 open it */
int solver_first_look(Solver *S, const DuelPos *pos);
/* DuelNodes._open: 1 won, 0 lost, 2 the children to search in ``*kids``
 * (``*n``, the caller frees them), -1 failed */
int solver_open(Solver *S, const DuelPos *pos, DuelPos **kids, size_t *n);
/* The same, the children with their keys */
int solver_open_kids(Solver *S, const DuelPos *pos, Kid **kids, size_t *n);
/* The table's value of a position given its key and the key's hash */
static inline int solver_get_hashed(const Solver *S, const uint64_t *key, uint64_t h) {
    const size_t i = slot_hashed(&S->tt, key, h);
    return S->tt.used[i] ? S->tt.vals[i] : -1;
}
/* The expansion of pos (children.c), from the cache or made; NULL when
 * out of memory */
const Expansion *expansion_of(Solver *S, const DuelPos *pos);
void expansions_free(Solver *S);

/* DuelNodes._tick: 0 go on, else S->halted is set */
int solver_tick(Solver *S);
/* search.and_or_wins: 1 the mover wins, 0 loses, -1 halted */
int solver_dfs(Solver *S, const DuelPos *pos);
/* ProofNumberSearch.wins by df-pn (dfpn.c): 1, 0, -1 halted */
int solver_dfpn(Solver *S, const DuelPos *pos);

#endif
