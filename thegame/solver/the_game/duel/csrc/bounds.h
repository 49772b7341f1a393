/* The bounds of the duel search on one player's side alone, plain C
 * (bounds.c): survival.relaxed_turns, survival.Endurance and
 * race.RelaxedRace, answering as the Python references do, node for node
 * (the same memos, cleared at the same sizes, the same orders). */
#ifndef THEGAME_DUEL_BOUNDS_H
#define THEGAME_DUEL_BOUNDS_H

#include "duel.h"
#include "memo.h"

#define FOREVER (1 << 20)       /* survival.FOREVER: a turn that lays the last card */
#define BOUNDS_MEMO 200000      /* survival.MEMO_LIMIT and race.RELAXED_MEMO */

/* survival.relaxed_turns: player p's distinct states after a relaxed turn
 * into a new array ``*out`` of ``*n`` (the caller frees it), ``*won`` when
 * a turn lays every card; 0 when out of memory. */
int relaxed_list(const DuelRules *g, int p, const SoloState *st, SoloState **out, size_t *n,
                 int *won);

/* race.fewest_turns: a floor on the turns to lay every card, whatever happens */
static inline int fewest_turns(const DuelRules *g, int hand_cards, int stock) {
    if (hand_cards + stock == 0) return 0;
    const int per = g->hand_size > g->draw_own ? g->hand_size : g->draw_own;
    return 1 + (stock + per - 1) / per;
}

/* survival.Endurance: how many turns in a row player p can take alone,
 * capped (relaxed: the upper bound; else the robust lower bound) */
typedef struct {
    const DuelRules *g;
    int p, relaxed, failed;
    Memo memo; /* value * 2 + exact */
    long long nodes, limit;
} Endurance;

int endurance_init(Endurance *E, const DuelRules *g, int p, int relaxed);
/* Endurance.lasts: min(k, the most turns in a row), or -1 after ``nodes``
 * more turn listings (or out of memory) */
int endurance_lasts(Endurance *E, const SoloState *st, int k, long long nodes);

/* race.RelaxedRace: the fewest relaxed turns to lay every card */
typedef struct {
    const DuelRules *g;
    int p, failed;
    Memo memo;
    long long nodes, limit;
} RelaxedRace;

int relaxed_init(RelaxedRace *R, const DuelRules *g, int p);
/* RelaxedRace.fewest, or -1 after ``nodes`` more turn listings */
int relaxed_fewest(RelaxedRace *R, const SoloState *st, long long nodes);

#endif
