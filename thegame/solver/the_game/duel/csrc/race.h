/* The race alone (race.py's RaceSolver), compiled: one player's fewest
 * turns to lay all their cards on their own two piles while nobody else
 * touches them (D2, D3, D5, D6). Plain C: the type Race of _cduel (race.c)
 * and the duel's compiled search (solver.c) both run on a RaceCore. */
#ifndef THEGAME_DUEL_RACE_H
#define THEGAME_DUEL_RACE_H

#include "duel.h"
#include "memo.h"

#define RACE_INF (1 << 30) /* race.INF: no finish */

/* The tops of a state with no finish; `next`: the previous one with the
 * same hand and draw pile, -1 at the end */
typedef struct {
    int8_t a, d;
    int32_t next;
} LostTops;

/* What a race asks every 256 nodes: 0 go on, 1 stop (out of budget), -1
 * failed (the caller holds the error) */
typedef int (*RaceStop)(void *ctx);

typedef struct {
    const DuelRules *g;
    int p, robust;
    Memo memo;      /* the state -> its exact fewest turns */
    Table lost;     /* (hand, at) -> the first of its chain in `ends` */
    LostTops *ends; /* the tops of the states found with no finish, chained */
    size_t n_ends, cap_ends;
    long long nodes, limit;
    RaceStop stop; /* or NULL */
    void *stop_ctx;
    int halted; /* 1: out of budget, 2: failed (out of memory, or stop said so) */
} RaceCore;

/* 0 when out of memory */
int race_core_init(RaceCore *R, const DuelRules *g, int p, int robust);
void race_core_free(RaceCore *R);
/* The exact fewest turns from ``st`` (RACE_INF: never) within ``nodes``
 * more nodes (negative: no limit); R->halted says when it was cut. */
int race_core_fewest(RaceCore *R, const SoloState *st, long long nodes);
/* A finish alone, a step at a time: a card onto a pile, or a turn's end */
#define RACE_TURN_END 255
#define RACE_PATH (2 * MAX_DECK + 2)
typedef struct {
    uint8_t card[RACE_PATH], pile[RACE_PATH]; /* pile RACE_TURN_END: the turn ends */
    int n;
} RacePath;

/* race.finish_line: whether p can lay every card alone from ``st``,
 * searched a card at a time: 1 yes (``path``: the finish, in the fewest
 * turns), 0 no, -1 out of budget (``nodes``, negative: none; ``stop``
 * asked every 4096 nodes), -2 failed (out of memory, or stop failed);
 * ``*used``: the nodes searched */
int race_core_finishes(const DuelRules *g, int p, const SoloState *st, long long nodes,
                       RaceStop stop, void *stop_ctx, long long *used, RacePath *path);
/* The memo's exact value of ``st`` or -1 */
int race_core_known(const RaceCore *R, const SoloState *st);

#endif
