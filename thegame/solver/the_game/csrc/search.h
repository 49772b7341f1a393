/* The searches (search.c): dfs.Searcher's iterated depth-first search, and
 * the beams over whole turns that run before it (beam.TurnSearcher,
 * beam.FireBeamSearcher, beam.MultiBeamSearcher,
 * extreme.beam.ExtremeBeamSearcher). */
#ifndef THEGAME_SEARCH_H
#define THEGAME_SEARCH_H

#include "budget.h"
#include "memo.h"
#include "turns.h"

/* Results of a node, as dfs.Node; BUDGET: the node or time budget ran out */
#define CLEAR 1
#define DEAD 0
#define OPEN (-1)
#define BUDGET (-2)
/* dfs.LAST_ALLOWANCE: the iterations' allowances are 0, 1, 3, then unlimited */
#define LAST_ALLOWANCE 3

/* Every mode's complete search is ``dfs`` (play by play); they differ in
 * the beams that run before it and how those list a turn. The values are
 * ckernel.py's PLAY, TURN, FIRE, EXTREME. */
typedef enum {
    MODE_PLAY,   /* no beams */
    MODE_TURN,   /* TurnSearcher: solo turns listed inline (no fire) */
    MODE_FIRE,   /* FireBeamSearcher, MultiBeamSearcher: turns through play() */
    MODE_EXTREME /* extreme.beam.ExtremeBeamSearcher, 1-5 players */
} SearchMode;

#define MAX_BEAM_WIDTHS 64

/* What a search is asked to do besides its budget (``Core._search``'s
 * arguments) */
typedef struct {
    SearchMode mode;
    int widths[MAX_BEAM_WIDTHS], n_widths; /* the beams, in order */
    int branch, per_parent, extra_cost;    /* how the beams list turns */
    int endgame;         /* the beam's endgame search allowance (INF: complete) */
    int beams_only;      /* stop after the beams (the split search's beam units) */
    int share_all;       /* every dead position to the shared table (DeadMemo.share_all) */
} SearchSettings;

/* A line of actions that grows */
typedef struct {
    Action *a;
    int n, cap;
} Line;

/* Why a search failed (``Search.error``); its answer is then void */
#define SEARCH_OUT_OF_MEMORY 1
#define SEARCH_PROGRESS_FAILED 2 /* the budget's progress function failed */

typedef struct {
    Kernel *k; /* the position searched: a copy the search moves */
    const SearchSettings *set;
    const Budget *budget; /* its memory: the search's tables together */
    DeadMemo memo;
    Table tried; /* the allowance each open position was searched with */
    /* The last, unlimited iteration: it leaves no position open, so it asks
     * the tried table nothing, and the table's share of the memory budget
     * goes to the chains of dominance (``memo.gmax``) */
    int unlimited;
    long long nodes, iterations, dead_card_cuts, stuck_cuts;
    int error; /* 0, or SEARCH_OUT_OF_MEMORY, SEARCH_PROGRESS_FAILED */
    Line path, best_path;
    int best_left;
    TurnScratch scratch;
} Search;

/* Append to a line: 0 when out of memory */
int line_push(Line *l, Action x);

/* optimum.finish_greedily (finish.c): play on from the kernel's position to
 * the end of the game, each turn the first complete one in the search's
 * move order, appended to ``line`` (each turn closed by END_TURN); the
 * kernel is left at the end. 0 when out of memory. */
int finish_greedily(Kernel *k, Line *line);

/* The slots of a table of ``kw``-word keys that fit ``bytes`` (a power of
 * two, at least 4096) */
size_t slots_for(size_t bytes, int kw, size_t per_extra);

/* A search of ``k`` with these settings and this budget; its dead positions
 * go to ``dead`` (and turn-start ones to ``shared``, when given). 0 when out
 * of memory. */
int search_init(Search *s, Kernel *k, const SearchSettings *set, const Budget *budget,
                Table *dead, Table *shared);

/* Searcher.run: the beams, then the allowances 0, 1, 3 and unlimited until
 * one decides or the budget runs out. The line: ``path`` for a win, else
 * ``best_path`` (``best_left`` cards left). */
void search_run(Search *s, int *win, int *proven);

void search_free(Search *s);

#endif
