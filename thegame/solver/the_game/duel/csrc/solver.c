/* The duel's proof search at a node, compiled (solver.h): the table and
 * dominance groups, the first look (dominance, the race bounds, the
 * survival bounds), the children in order, the budget and the depth-first
 * AND-OR search. Each function names the Python it follows. */
#include "solver.h"

#include <stdlib.h>
#include <string.h>

/* ---- the table of proven positions ------------------------------------------ */

void pos_key(const DuelPos *pos, uint64_t *w) {
    w[0] = pos->h[0];
    w[1] = pos->h[1];
    w[2] = (uint64_t)pos->at[0] | (uint64_t)pos->at[1] << 8 | (uint64_t)(pos->a[0] + 1) << 16 |
           (uint64_t)(pos->d[0] + 1) << 24 | (uint64_t)(pos->a[1] + 1) << 32 |
           (uint64_t)(pos->d[1] + 1) << 40 | (uint64_t)pos->cur << 48;
}

void key_pos(const uint64_t *w, DuelPos *pos) {
    pos->h[0] = w[0];
    pos->h[1] = w[1];
    pos->at[0] = (int)(w[2] & 0xff);
    pos->at[1] = (int)(w[2] >> 8 & 0xff);
    pos->a[0] = (int)(w[2] >> 16 & 0xff) - 1;
    pos->d[0] = (int)(w[2] >> 24 & 0xff) - 1;
    pos->a[1] = (int)(w[2] >> 32 & 0xff) - 1;
    pos->d[1] = (int)(w[2] >> 40 & 0xff) - 1;
    pos->cur = (int)(w[2] >> 48 & 0xff);
}

/* search._cards: both hands, both draw piles, the mover */
static void group_key(const DuelPos *pos, uint64_t *w) {
    w[0] = pos->h[0];
    w[1] = pos->h[1];
    w[2] = (uint64_t)pos->at[0] | (uint64_t)pos->at[1] << 8 | (uint64_t)pos->cur << 16;
}

static size_t slots_for(size_t count) {
    size_t cap = 1 << 12;
    while (cap * 7 < count * 10 + 10) cap <<= 1;
    return cap;
}

int solver_init(Solver *S, const DuelRules *g, size_t tt_limit, size_t nums_limit) {
    memset(S, 0, sizeof *S);
    S->g = *g;
    S->opt = (SearchOptions){1, 1, 1, 1, 6, 16, 400, 16, 100, 400}; /* BoundSizes() */
    S->tt_limit = tt_limit;
    S->nums_limit = nums_limit;
    int ok = tab_init(&S->tt, 3, slots_for(tt_limit)) && tab_init(&S->groups, 3, slots_for(tt_limit)) &&
             pairmap_init(&S->nums, 1 << 10);
    for (int q = 0; q < 2; q++) {
        ok = ok && race_core_init(&S->robust[q], &S->g, q, 1) &&
             relaxed_init(&S->fewest_relaxed[q], &S->g, q) &&
             endurance_init(&S->relaxed[q], &S->g, q, 1) && endurance_init(&S->sure[q], &S->g, q, 0);
    }
    return ok;
}

void solver_free(Solver *S) {
    tab_free(&S->tt);
    tab_free(&S->groups);
    pairmap_free(&S->nums);
    free(S->entries);
    free(S->trace);
    expansions_free(S);
    for (int q = 0; q < 2; q++) {
        race_core_free(&S->robust[q]);
        memo_free(&S->fewest_relaxed[q].memo);
        memo_free(&S->relaxed[q].memo);
        memo_free(&S->sure[q].memo);
    }
    S->entries = NULL;
    S->trace = NULL;
}

static void trace(Solver *S, int kind, const DuelPos *pos, int value) {
    if (!S->tracing) return;
    if (S->n_trace == S->cap_trace) {
        const size_t cap = S->cap_trace ? 2 * S->cap_trace : 256;
        TraceEvent *t = realloc(S->trace, cap * sizeof(TraceEvent));
        if (!t) {
            S->halted = 2;
            return;
        }
        S->trace = t;
        S->cap_trace = cap;
    }
    S->trace[S->n_trace++] = (TraceEvent){*pos, kind, value};
}

int solver_get(const Solver *S, const DuelPos *pos) {
    uint64_t w[3];
    pos_key(pos, w);
    const int32_t *got = tab_get(&S->tt, w);
    return got ? *got : -1;
}

/* The newest entry of pos's dominance group, -1 none */
static int32_t group_head(const Solver *S, const DuelPos *pos) {
    uint64_t w[3];
    group_key(pos, w);
    const int32_t *got = tab_get(&S->groups, w);
    return got ? *got : -1;
}

static void group_add(Solver *S, const DuelPos *pos, int won) {
    if (S->n_entries == S->cap_entries) {
        const size_t cap = S->cap_entries ? 2 * S->cap_entries : 1024;
        GroupEntry *e = cap <= INT32_MAX ? realloc(S->entries, cap * sizeof(GroupEntry)) : NULL;
        if (!e) return; /* not kept: dominance only saves work */
        S->entries = e;
        S->cap_entries = cap;
    }
    uint64_t w[3];
    group_key(pos, w);
    const size_t slot = tab_slot(&S->groups, w);
    const int32_t i = (int32_t)S->n_entries;
    GroupEntry *e = &S->entries[i];
    *e = (GroupEntry){(int8_t)pos->a[0], (int8_t)pos->d[0], (int8_t)pos->a[1], (int8_t)pos->d[1],
                      won, -1};
    if (S->groups.used[slot]) {
        e->next = S->groups.vals[slot];
        S->groups.vals[slot] = i;
    } else if (!tab_add(&S->groups, slot, w, i)) {
        return;
    }
    S->n_entries++;
}

void solver_store(Solver *S, const DuelPos *pos, int won) {
    trace(S, 1, pos, won);
    if (S->tt.count >= S->tt_limit) return; /* full: a value not kept is searched again */
    uint64_t w[3];
    pos_key(pos, w);
    const size_t slot = tab_slot(&S->tt, w);
    if (S->tt.used[slot]) {
        S->tt.vals[slot] = won;
    } else if (!tab_add(&S->tt, slot, w, won)) {
        return;
    }
    group_add(S, pos, won);
}

/* nodes.by_dominance over pos's group (the newest entry ``i``): 1 won, 0
 * lost, -1 neither */
static int dominance_from(const Solver *S, const DuelPos *pos, int32_t i) {
    if (i < 0) return -1;
    const int p = pos->cur;
    const CardMask64 un_p = unplayed(&S->g, pos, p), un_o = unplayed(&S->g, pos, 1 - p);
    DuelPos other = *pos;
    for (; i >= 0; i = S->entries[i].next) {
        const GroupEntry *e = &S->entries[i];
        other.a[0] = e->a0;
        other.d[0] = e->d0;
        other.a[1] = e->a1;
        other.d[1] = e->d1;
        if (e->won ? dominates(&S->g, p, pos, &other, un_p, un_o)
                   : dominates(&S->g, p, &other, pos, un_p, un_o))
            return e->won;
    }
    return -1;
}

static int by_dominance(const Solver *S, const DuelPos *pos) {
    return dominance_from(S, pos, group_head(S, pos));
}

/* by_dominance for a child, its group's hash known */
static int child_by_dominance(const Solver *S, const Child *c) {
    uint64_t w[3];
    group_key(&c->after, w);
    const size_t i = slot_hashed(&S->groups, w, c->group_hash);
    return dominance_from(S, &c->after, S->groups.used[i] ? S->groups.vals[i] : -1);
}

/* ---- the bounds (DuelNodes._decide, _robust, _relaxed_floor, _survival) ---- */

static inline SoloState solo_of(const DuelPos *pos, int q) {
    return (SoloState){pos->h[q], pos->at[q], pos->a[q], pos->d[q]};
}

static inline int stock_left(const Solver *S, const DuelPos *pos, int q) {
    return S->g.deck_len[q] - pos->at[q];
}

static inline int cards_left(const Solver *S, const DuelPos *pos, int q) {
    return card_count64(pos->h[q]) + stock_left(S, pos, q);
}

/* DuelNodes._robust: q's robust race when cheap, else -1 */
static int robust(Solver *S, const DuelPos *pos, int q, int useful) {
    if (cards_left(S, pos, q) > S->opt.robust_cards) return -1;
    if (fewest_turns(&S->g, card_count64(pos->h[q]), stock_left(S, pos, q)) > useful) return -1;
    const SoloState st = solo_of(pos, q);
    const int v = race_core_fewest(&S->robust[q], &st, S->opt.robust_nodes);
    if (S->robust[q].halted) return -1;
    return v >= RACE_INF ? -1 : v;
}

/* DuelNodes._relaxed_floor: q's relaxed race when cheap, else 0 */
static int relaxed_floor(Solver *S, const DuelPos *pos, int q) {
    if (!(S->opt.alone && S->opt.relaxed_race) || cards_left(S, pos, q) > S->opt.relaxed_cards) return 0;
    const SoloState st = solo_of(pos, q);
    const int v = relaxed_fewest(&S->fewest_relaxed[q], &st, S->opt.relaxed_nodes);
    return v < 0 ? 0 : v;
}

/* DuelNodes._decide: 1 the mover wins, 0 loses, -1 undecided (argued there) */
static int decide(Solver *S, const DuelPos *pos) {
    const int p = pos->cur, o = 1 - p;
    int low[2];
    for (int q = 0; q < 2; q++) {
        low[q] = fewest_turns(&S->g, card_count64(pos->h[q]), stock_left(S, pos, q));
        if (S->opt.alone) {
            const SoloState st = solo_of(pos, q);
            const int dead = dead_count(&S->g, q, &st);
            if (dead > low[q]) low[q] = dead;
        }
    }
    const int up_p = robust(S, pos, p, low[o]);
    if (up_p >= 0 && up_p <= low[o]) return 1;
    if (up_p >= 0 && relaxed_floor(S, pos, o) >= up_p) return 1;
    int up_o = robust(S, pos, o, low[p] - 1);
    if (up_o >= 0 && low[p] > up_o) return 0;
    if (up_o < 0 && S->opt.alone && S->opt.relaxed_race)
        up_o = robust(S, pos, o, relaxed_floor(S, pos, p) - 1);
    if (up_o >= 0 && relaxed_floor(S, pos, p) > up_o) return 0;
    return -1;
}

/* DuelNodes._survival: 1, 0, -1 undecided (argued there) */
static int survival(Solver *S, const DuelPos *pos) {
    const int p = pos->cur, o = 1 - p, k = S->opt.survival_turns;
    const SoloState mine = solo_of(pos, p), theirs = solo_of(pos, o);
    int s = endurance_lasts(&S->relaxed[o], &theirs, k, S->opt.survival_nodes);
    if (s < 0) return -1;
    if (s < k) {
        const int t = endurance_lasts(&S->sure[p], &mine, s + 1, S->opt.survival_nodes);
        if (t < 0) return -1;
        if (t > s) return 1;
    }
    s = endurance_lasts(&S->relaxed[p], &mine, k, S->opt.survival_nodes);
    if (s < 0) return -1;
    if (s < k) {
        const int t = endurance_lasts(&S->sure[o], &theirs, s, S->opt.survival_nodes);
        if (t < 0) return -1;
        if (t >= s) return 0;
    }
    return -1;
}

int solver_first_look(Solver *S, const DuelPos *pos) {
    const int got = S->opt.dominance ? by_dominance(S, pos) : -1;
    if (got >= 0) {
        S->stats.dominated++;
        return got;
    }
    int decided = decide(S, pos);
    if (decided >= 0) {
        S->stats.bound_cuts++;
        return decided;
    }
    if (S->opt.survival) {
        decided = survival(S, pos);
        S->stats.survival_cuts += decided >= 0;
    }
    return decided;
}

/* ---- the children (DuelNodes._open, _sift) ---------------------------------------- */

/* DuelNodes._sift over the expansion's children: 1 won (a child lost for
 * the opponent, or one where they have no turn), 2 the rest in *kids
 * (none: 0, lost), -1 failed */
static int sift(Solver *S, const Expansion *e, Kid **kids, size_t *n_kids) {
    unsigned char local[1024];
    unsigned char *skip = e->n <= sizeof local ? local : malloc(e->n);
    if (!skip) return -1;
    memset(skip, 0, e->n);
    size_t k = 0;
    int status = 2;
    for (uint32_t i = 0; i < e->n && status == 2; i++) {
        const Child *c = &e->kids[i];
        int known = solver_get_hashed(S, c->key, c->hash);
        const int hit = known >= 0;
        if (known < 0 && S->opt.dominance) {
            known = child_by_dominance(S, c);
            S->stats.dominated += known >= 0;
        }
        if (known == 0) {
            S->stats.tt_hits += hit;
            status = 1;
        } else if (known == 1) {
            skip[i] = 1; /* a win for the opponent: no use trying */
        } else if (!c->moves) { /* D6: the opponent cannot play 2 cards */
            S->stats.stuck_cuts++;
            solver_store(S, &c->after, 0);
            status = 1;
        } else {
            k++;
        }
    }
    if (status == 2 && k > 0) {
        *kids = malloc(k * sizeof(Kid));
        if (!*kids) status = -1;
        size_t j = 0;
        for (uint32_t i = 0; status == 2 && i < e->n; i++) {
            const Child *c = &e->kids[e->rank[i]];
            if (skip[e->rank[i]]) continue;
            Kid *kid = &(*kids)[j++];
            kid->pos = c->after;
            memcpy(kid->key.w, c->key, sizeof c->key);
            kid->hash = c->hash;
        }
        *n_kids = k;
    }
    if (skip != local) free(skip);
    return status == 2 && k == 0 ? 0 : status;
}

int solver_open(Solver *S, const DuelPos *pos, DuelPos **kids, size_t *n) {
    Kid *got;
    *kids = NULL;
    const int status = solver_open_kids(S, pos, &got, n);
    if (status == 2) {
        *kids = malloc(*n * sizeof(DuelPos));
        if (*kids) {
            for (size_t i = 0; i < *n; i++) (*kids)[i] = got[i].pos;
        } else {
            S->halted = 2;
            free(got);
            *n = 0;
            return -1;
        }
        free(got);
    }
    return status;
}

int solver_open_kids(Solver *S, const DuelPos *pos, Kid **kids, size_t *n) {
    trace(S, 0, pos, -1);
    *kids = NULL;
    *n = 0;
    const Expansion *e = expansion_of(S, pos);
    if (!e) {
        S->halted = 2;
        return -1;
    }
    if (e->status != 2) return e->status;
    /* Two turns at least: if the opponent finishes in one robust turn, the
     * mover loses (DuelNodes._open). */
    const int up_o = robust(S, pos, 1 - pos->cur, 1);
    if (up_o >= 0 && up_o <= 1) {
        S->stats.bound_cuts++;
        return 0;
    }
    const int status = sift(S, e, kids, n);
    if (status < 0) S->halted = 2;
    return status;
}

/* ---- the budget and the depth-first search ------------------------------------------ */

int solver_tick(Solver *S) {
    S->stats.nodes++;
    const int r = budget_spent(S->budget, S->stats.nodes);
    if (r == BUDGET_STOP) S->halted = 1;
    if (r == BUDGET_FAIL) S->halted = 2;
    return r != BUDGET_GO_ON;
}

int solver_dfs(Solver *S, const DuelPos *pos) {
    const int got = solver_get(S, pos);
    if (got >= 0) {
        S->stats.tt_hits++;
        return got;
    }
    if (solver_tick(S)) return -1;
    int value = solver_first_look(S, pos);
    if (S->halted) return -1;
    if (value < 0) {
        Kid *kids;
        size_t n;
        value = solver_open_kids(S, pos, &kids, &n);
        if (value == 2) {
            value = 0;
            for (size_t i = 0; i < n && !value; i++) {
                const int v = solver_dfs(S, &kids[i].pos);
                if (v < 0) {
                    free(kids);
                    return -1;
                }
                value = !v;
            }
            free(kids);
        }
        if (value < 0) return -1;
    }
    solver_store(S, pos, value);
    return S->halted ? -1 : value;
}
