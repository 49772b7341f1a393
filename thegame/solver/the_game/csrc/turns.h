/* The turn lists of the beams (turns.c): Kernel.solo_turns,
 * Kernel.fire_turns, ExtremeKernel.extreme_turns. */
#ifndef THEGAME_TURNS_H
#define THEGAME_TURNS_H

#include "kernel.h"

/* The walk's table of positions reached (``expanded``): its key is the
 * tops word, the turn state and the mover's hand */
#define TURN_KEY_WORDS 4
typedef struct {
    uint64_t key[TURN_KEY_WORDS];
    int cost, found, gen; /* gen: the walk that wrote it (older ones are free) */
} TurnEntry;

/* What one walk needs, kept between walks so their memory is reused */
typedef struct {
    TurnEntry *tab;
    size_t cap, count;
    int gen;
    /* found turns, in first-insertion order (Python's dict) */
    int *fcost, *foff, *flen;
    int nfound, fcap;
    Action *arena;
    int alen, acap;
    Action plays[KERNEL_MAX_SIZE];
    int nplays;
    int lo, hi, branch, extra_cost, fire;
    int failed;
} TurnScratch;

/* The turns, cheapest first: turn r is plays[off[r] .. off[r] + len[r]) */
typedef struct {
    int n;
    int *cost, *off, *len;
    Action *plays;
} TurnList;

/* Which lister */
typedef enum { TURNS_SOLO, TURNS_FIRE, TURNS_EXTREME } TurnKind;

/* The distinct turns, cheapest first, into ``out`` (turns_free frees it);
 * 0 on memory failure. The kernel's position is where it was. */
int list_turns(Kernel *k, TurnScratch *x, TurnKind kind, int branch, int longest, int extra_cost,
               TurnList *out);
void turns_free(TurnList *tl);
void scratch_free(TurnScratch *x);

#endif
