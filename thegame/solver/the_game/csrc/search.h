/* The searches (search.c): dfs.Searcher's iterated depth-first search, and
 * the beams over whole turns that run before it (beam.TurnSearcher,
 * beam.FireBeamSearcher, beam.MultiBeamSearcher,
 * extreme.beam.ExtremeBeamSearcher). */
#ifndef THEGAME_SEARCH_H
#define THEGAME_SEARCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

/* What a search is asked to do (``Core._search``'s arguments) */
typedef struct {
    SearchMode mode;
    long long node_limit;
    int has_deadline;
    double deadline;     /* CLOCK_MONOTONIC seconds, as Python's time.monotonic */
    PyObject *progress;  /* called with the node count every 64 nodes, or NULL */
    int widths[MAX_BEAM_WIDTHS], n_widths; /* the beams, in order */
    int branch, per_parent, extra_cost;    /* how the beams list turns */
    int endgame;         /* the beam's endgame search allowance (INF: complete) */
    size_t memo_bytes;   /* the memory of the search's tables together */
    int beams_only;      /* stop after the beams (the split search's beam units) */
    int share_all;       /* every dead position to the shared table (DeadMemo.share_all) */
} SearchSettings;

/* A line of actions that grows */
typedef struct {
    Action *a;
    int n, cap;
} Line;

typedef struct {
    Kernel *k; /* the position searched: a copy the search moves */
    const SearchSettings *set;
    DeadMemo memo;
    Table tried; /* the allowance each open position was searched with */
    /* The last, unlimited iteration: it leaves no position open, so it asks
     * the tried table nothing, and the table's share of the memory budget
     * goes to the chains of dominance (``memo.gmax``) */
    int unlimited;
    long long nodes, iterations, dead_card_cuts, stuck_cuts;
    int error; /* a Python exception is set (progress callback, Ctrl-C, memory) */
    Line path, best_path;
    int best_left;
    TurnScratch scratch;
} Search;

/* The slots of a table of ``kw``-word keys that fit ``bytes`` (a power of
 * two, at least 4096) */
size_t slots_for(size_t bytes, int kw, size_t per_extra);

/* A search of ``k`` with these settings; its dead positions go to ``dead``
 * (and turn-start ones to ``shared``, when given). 0 when out of memory. */
int search_init(Search *s, Kernel *k, const SearchSettings *set, Table *dead, Table *shared);

/* Searcher.run: the beams, then the allowances 0, 1, 3 and unlimited until
 * one decides or the budget runs out. The line: ``path`` for a win, else
 * ``best_path`` (``best_left`` cards left). */
void search_run(Search *s, int *win, int *proven);

void search_free(Search *s);

#endif
