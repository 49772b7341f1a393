/* The depth-first proof-number search (df-pn) of a duel, compiled: the
 * loop of ProofNumberSearch._mid (duel/pns.py, the reference) over the
 * compiled node (solver.c) and a table of unsettled numbers keyed by the
 * packed position. Phi and delta are int64: they reach INF (at most 2^50)
 * times the children of a node at most, far below 2^63. */
#include <stdlib.h>

#include "solver.h"

typedef struct {
    int64_t phi, delta;
} PD;

static inline SetKey key_of(const DuelPos *pos) {
    SetKey k;
    pos_key(pos, k.w);
    return k;
}

/* ProofNumberSearch._settle */
static int settle(Solver *S, const DuelPos *pos, const SetKey *k, int won, PD *out) {
    solver_store(S, pos, won);
    pairmap_del(&S->nums, k);
    out->phi = won ? 0 : S->inf;
    out->delta = won ? S->inf : 0;
    return S->halted ? -1 : 0;
}

/* ProofNumberSearch._fresh with Init.EVAL: a new child's numbers weighed
 * by the cards left (hand and draw pile) of its mover q against the other */
static inline void by_eval(const Solver *S, const DuelPos *kid, int64_t *phi, int64_t *delta) {
    const int q = kid->cur, p = 1 - q;
    const int64_t left_q = card_count64(kid->h[q]) + S->g.deck_len[q] - kid->at[q];
    const int64_t left_p = card_count64(kid->h[p]) + S->g.deck_len[p] - kid->at[p];
    if (left_q > left_p) *phi += S->eval_weight * (left_q - left_p);
    if (left_p > left_q) *delta += S->eval_weight * (left_p - left_q);
}

/* ProofNumberSearch._read: the children's numbers (their mover's view).
 * None is in the table: solver_open passes only the children that the
 * table (and dominance) does not know, and stores nothing when it passes
 * any, so the reference's table look finds nothing here. */
static void read_children(Solver *S, const Kid *kids, size_t n, int64_t *kphi, int64_t *kdelta) {
    for (size_t i = 0; i < n; i++) {
        const size_t j = numbers_slot(&S->nums, &kids[i].key, kids[i].hash);
        if (S->nums.used[j]) {
            kphi[i] = S->nums.vals[j].first;
            kdelta[i] = S->nums.vals[j].second;
        } else {
            kphi[i] = 1;
            kdelta[i] = 1 + S->weight * (int64_t)i;
            if (S->eval_weight) by_eval(S, &kids[i].pos, &kphi[i], &kdelta[i]);
        }
    }
}

/* The node's phi, the least delta of its children (``*best``: the first
 * child with it), and the second least in ``*second`` */
static inline int64_t least_delta(const Solver *S, const int64_t *kdelta, size_t n, size_t *best,
                                  int64_t *second) {
    int64_t phi = kdelta[0];
    *best = 0;
    *second = S->inf;
    for (size_t i = 1; i < n; i++) {
        if (kdelta[i] < phi) {
            *second = phi;
            phi = kdelta[i];
            *best = i;
        } else if (kdelta[i] < *second) {
            *second = kdelta[i];
        }
    }
    return phi;
}

static int mid(Solver *S, const DuelPos *pos, const SetKey *k, uint64_t h, int64_t th_phi,
               int64_t th_delta, PD *out);

/* Keep pos's numbers (the table cleared when full) and return them */
static int keep(Solver *S, const SetKey *k, int64_t phi, int64_t delta, PD *out) {
    if (S->nums.count >= S->nums_limit) pairmap_clear(&S->nums);
    if (!pairmap_put(&S->nums, k, phi, delta)) {
        S->halted = 2;
        return -1;
    }
    *out = (PD){phi, delta};
    return 0;
}

/* The loop of _mid over pos's children until its numbers reach a
 * threshold or settle it; -1 halted. */
static int mid_loop(Solver *S, const DuelPos *pos, const SetKey *k, int64_t th_phi,
                    int64_t th_delta, const Kid *kids, size_t n, PD *out) {
    int64_t *kphi = malloc(2 * n * sizeof(int64_t));
    int rc = -1;
    if (!kphi) {
        S->halted = 2;
        return -1;
    }
    int64_t *kdelta = kphi + n;
    read_children(S, kids, n, kphi, kdelta);
    for (;;) {
        size_t best;
        int64_t second, delta = 0;
        const int64_t phi = least_delta(S, kdelta, n, &best, &second);
        if (phi == 0) { /* a child proven lost for the opponent */
            rc = settle(S, pos, k, 1, out);
            break;
        }
        for (size_t i = 0; i < n; i++) delta += kphi[i];
        if (delta == 0) { /* every child proven won for them */
            rc = settle(S, pos, k, 0, out);
            break;
        }
        if (delta > S->inf - 1) delta = S->inf - 1;
        if (phi >= th_phi || delta >= th_delta) {
            rc = keep(S, k, phi, delta, out);
            break;
        }
        /* As in Python: int(second * (1 + EPSILON)) + 1, in doubles */
        int64_t kid_th_delta = (int64_t)((double)second * S->widen) + 1;
        if (kid_th_delta > th_phi) kid_th_delta = th_phi;
        const int64_t kid_th_phi = th_delta - (delta - kphi[best]);
        PD got;
        const Kid *kid = &kids[best];
        if (mid(S, &kid->pos, &kid->key, kid->hash, kid_th_phi, kid_th_delta, &got) < 0) break;
        kphi[best] = got.phi;
        kdelta[best] = got.delta;
    }
    free(kphi);
    return rc;
}

/* ProofNumberSearch._mid: pos's numbers into ``out``, searched until they
 * reach the thresholds; -1 halted. */
static int mid(Solver *S, const DuelPos *pos, const SetKey *k, uint64_t h, int64_t th_phi,
               int64_t th_delta, PD *out) {
    const int won = solver_get_hashed(S, k->w, h);
    if (won >= 0) {
        out->phi = won ? 0 : S->inf;
        out->delta = won ? S->inf : 0;
        return 0;
    }
    if (solver_tick(S)) return -1;
    if (!S->nums.used[numbers_slot(&S->nums, k, h)]) {
        const int first = solver_first_look(S, pos);
        if (S->halted) return -1;
        if (first >= 0) return settle(S, pos, k, first, out);
    }
    Kid *kids;
    size_t n;
    const int status = solver_open_kids(S, pos, &kids, &n);
    if (status < 0) return -1;
    if (status < 2) return settle(S, pos, k, status, out);
    const int rc = mid_loop(S, pos, k, th_phi, th_delta, kids, n, out);
    free(kids);
    return rc;
}

int solver_dfpn(Solver *S, const DuelPos *pos) {
    const int got = solver_get(S, pos);
    if (got >= 0) {
        S->stats.tt_hits++;
        return got;
    }
    const SetKey k = key_of(pos);
    PD out;
    if (mid(S, pos, &k, hash_words(k.w, 3), S->inf, S->inf, &out) < 0) return -1;
    return out.phi == 0; /* from infinite thresholds df-pn settles the position */
}
