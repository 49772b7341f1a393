/* The budget of a compiled search: what ``models.outcome.Limit`` says, in C,
 * with no Python in it. A search core takes one ``Budget``; its front end
 * (the CPython binding, the WebAssembly binding) fills it in, and supplies
 * the progress function through which the caller hears of the search and
 * may stop it (the Python binding calls the Python callable and lets
 * Ctrl-C through; a page checks nothing).
 *
 * The core counts its nodes and asks ``budget_spent`` at each one: at the
 * node limit at once, and every ``BUDGET_EVERY`` nodes the clock, the
 * interrupt flag and the progress function. The cadence is part of the
 * search's behaviour (where a deadline cuts it), so it is fixed here.
 */
#ifndef THEGAME_BUDGET_H
#define THEGAME_BUDGET_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

#define BUDGET_EVERY 64

/* What a progress function answers */
#define BUDGET_GO_ON 0
#define BUDGET_STOP 1  /* stop as if the budget ran out (the best so far stands) */
#define BUDGET_FAIL -1 /* stop, failed: the front end holds the error */

typedef int (*BudgetProgress)(void *ctx, long long nodes);

typedef struct {
    long long node_limit; /* stop at this many nodes (LLONG_MAX: none) */
    int has_deadline;
    double deadline;       /* budget_now() seconds */
    size_t memory;         /* bytes for the search's tables together */
    BudgetProgress progress; /* every BUDGET_EVERY nodes, or NULL */
    void *progress_ctx;
    volatile int interrupt; /* set from outside (a signal handler): stop at the next check */
} Budget;

/* No limit, no deadline, no progress, ``memory`` bytes */
static inline Budget budget_make(size_t memory) {
    Budget b = {LLONG_MAX, 0, 0.0, memory, NULL, NULL, 0};
    return b;
}

/* A monotonic clock in seconds (Python's time.monotonic on Linux) */
static inline double budget_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* After ``nodes`` nodes: BUDGET_GO_ON, BUDGET_STOP (spent, interrupted, or
 * the progress function asked) or BUDGET_FAIL (the progress function failed) */
static inline int budget_spent(const Budget *b, long long nodes) {
    if (nodes >= b->node_limit) return BUDGET_STOP;
    if (nodes % BUDGET_EVERY != 0) return BUDGET_GO_ON;
    if (b->has_deadline && budget_now() > b->deadline) return BUDGET_STOP;
    if (b->interrupt) return BUDGET_STOP;
    if (b->progress) return b->progress(b->progress_ctx, nodes);
    return BUDGET_GO_ON;
}

#endif
