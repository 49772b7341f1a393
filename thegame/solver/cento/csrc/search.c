/* TableSolver's df-pn: the transposition table, lookup, mid and prove. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "ctable.h"
#include "hashtable.h"

/* ---- the transposition table: unbounded, like the Python dict ----------
 * A slot holds its key's words, then pn and dn, side by side (one cache
 * line for a table of two or three players); ``used`` holds each used
 * slot's tag (hashtable.h's tag_of), so a probe reads a key only where the
 * tags agree. */

#define SLOT(t, i) ((t)->slots + (i) * (size_t)((t)->kw + 2))

static int pt_alloc(PnTable *t, int kw, size_t cap) {
    t->kw = kw;
    t->cap = cap;
    t->count = 0;
    t->max_bytes = 0;
    t->slots = malloc(cap * (size_t)(kw + 2) * sizeof(uint64_t));
    t->used = calloc(cap, 1);
    return t->slots && t->used;
}

int pt_init(PnTable *t, int kw) { return pt_alloc(t, kw, 1 << 14); }

void pt_free(PnTable *t) {
    free(t->slots);
    free(t->used);
    t->slots = NULL;
    t->used = NULL;
    t->cap = t->count = 0;
}

/* The key's slot, or the free slot where it would go */
static size_t pt_slot(const PnTable *t, const uint64_t *key, uint64_t h) {
    uint8_t tag = tag_of(h);
    size_t mask = t->cap - 1, i = h & mask;
    while (t->used[i] && (t->used[i] != tag || !words_eq(SLOT(t, i), key, t->kw)))
        i = (i + 1) & mask;
    return i;
}

const int64_t *pt_get(const PnTable *t, const uint64_t *key) {
    size_t i = pt_slot(t, key, hash_words(key, t->kw));
    return t->used[i] ? (const int64_t *)(SLOT(t, i) + t->kw) : NULL;
}

static int pt_grow(PnTable *t) {
    PnTable n;
    if (!pt_alloc(&n, t->kw, t->cap * 2)) {
        pt_free(&n);
        return 0;
    }
    n.max_bytes = t->max_bytes;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        const uint64_t *old = SLOT(t, i);
        size_t j = pt_slot(&n, old, hash_words(old, t->kw));
        memcpy(SLOT(&n, j), old, (size_t)(t->kw + 2) * sizeof(uint64_t));
        n.used[j] = t->used[i];
        n.count++;
    }
    pt_free(t);
    *t = n;
    return 1;
}

int pt_put(PnTable *t, const uint64_t *key, int64_t pn, int64_t dn) {
    uint64_t h = hash_words(key, t->kw);
    size_t i = pt_slot(t, key, h);
    if (!t->used[i]) {
        if ((t->count + 1) * 2 > t->cap) {
            if (t->max_bytes && 2 * t->cap * ((size_t)(t->kw + 2) * 8 + 1) > t->max_bytes)
                return -1;
            if (!pt_grow(t)) return 0;
            i = pt_slot(t, key, h);
        }
        memcpy(SLOT(t, i), key, (size_t)t->kw * sizeof(uint64_t));
        t->used[i] = tag_of(h);
        t->count++;
    }
    int64_t *v = (int64_t *)(SLOT(t, i) + t->kw);
    v[0] = pn;
    v[1] = dn;
    return 1;
}

/* ---- the search ----------------------------------------------------------- */

void lookup(const Search *s, const uint64_t *key, int64_t *pn, int64_t *dn) {
    const int64_t *e = pt_get(&s->tt, key);
    if (e == NULL && s->losses != NULL) {
        e = pt_get(s->losses, key);
        if (e != NULL && e[0] < INF) e = NULL;
    }
    if (e != NULL) {
        *pn = e[0];
        *dn = e[1];
    } else {
        init_numbers(s, key, pn, dn);
    }
}

/* 0 to go on, -1 with an exception set: past the node limit the progress
 * function is called at once, and it raises (the NodeCounter's
 * OutOfBudget), as it does when the clock or Ctrl-C ends the search */
static int tick(Search *s) {
    const Budget *b = &s->budget;
    int r = budget_spent(b, ++s->nodes);
    if (r == BUDGET_STOP && s->nodes >= b->node_limit && b->progress)
        r = b->progress(b->progress_ctx, s->nodes) == BUDGET_GO_ON ? BUDGET_STOP : BUDGET_FAIL;
    if (r == BUDGET_STOP) {
        PyErr_SetString(PyExc_RuntimeError, "the table search was stopped without its reason");
        return -1;
    }
    return r == BUDGET_FAIL ? -1 : 0;
}

static void decided(Search *s, int won, int depth) {
    if (won)
        s->proven++;
    else
        s->disproven++;
    if (depth > 0 && (s->nearest < 0 || depth < s->nearest)) s->nearest = depth;
}

static int no_memory(void) {
    PyErr_NoMemory();
    return -1;
}

/* One pass of mid's loop over the children: phi (the least of the side to
 * move's numbers), delta (the sum of the others), the second least phi2,
 * and the child of the least (NULL when it is an end) with its delta and
 * the turns it is past */
typedef struct {
    int64_t phi, delta, phi2, best_delta;
    const Child *best;
    int best_steps;
} Scan;

static inline void scan(const Search *s, const ChildVec *kids, int is_or, Scan *r) {
    r->phi = INF;
    r->delta = 0;
    r->phi2 = INF;
    r->best_delta = 0;
    r->best = NULL;
    r->best_steps = 1;
    for (size_t i = 0; i < kids->n; i++) {
        const Child *c = &kids->v[i];
        int64_t cpn = c->pn, cdn = c->dn;
        if (!c->end) {
            const int64_t *e = pt_get(&s->tt, c->key);
            if (e != NULL) {
                cpn = e[0];
                cdn = e[1];
            }
        }
        int64_t a = is_or ? cpn : cdn, b = is_or ? cdn : cpn;
        r->delta += b;
        if (a < r->phi) {
            r->phi2 = r->phi;
            r->phi = a;
            r->best = c->end ? NULL : c;
            r->best_delta = b;
            r->best_steps = c->steps;
        } else if (a < r->phi2) {
            r->phi2 = a;
        }
    }
    if (r->delta > INF) r->delta = INF;
    if (r->phi == 0) r->delta = INF;
}

/* mid: search ``key`` until its proof number reaches th_pn or its disproof
 * number th_dn; -1 with an exception set */
static int mid(Search *s, const uint64_t *key, int64_t th_pn, int64_t th_dn, int depth) {
    if (tick(s)) return -1;
    int is_or = (int)(key[0] & 7) == s->d.k;
    ChildVec kids = {NULL, 0, 0};
    if (children(s, key, &kids)) {
        free(kids.v);
        return no_memory();
    }
    int64_t th_phi = is_or ? th_pn : th_dn, th_delta = is_or ? th_dn : th_pn;
    int r = 0;
    for (;;) {
        Scan x;
        scan(s, &kids, is_or, &x);
        int64_t pn = is_or ? x.phi : x.delta, dn = is_or ? x.delta : x.phi;
        int put = pt_put(&s->tt, key, pn, dn);
        if (put < 1) {
            r = put ? s->full(s->budget.progress_ctx) : no_memory();
            break;
        }
        if (pn == 0 || dn == 0) {
            decided(s, pn == 0, depth);
            break;
        }
        if (x.phi >= th_phi || x.delta >= th_delta || x.best == NULL) break;
        /* the 1+epsilon threshold of tablesearch.py */
        int64_t ca = x.phi2 + (x.phi2 >> 2) + 1;
        if (ca > th_phi) ca = th_phi;
        int64_t cb = th_delta - x.delta + x.best_delta;
        if (cb > INF) cb = INF;
        r = is_or ? mid(s, x.best->key, ca, cb, depth + x.best_steps)
                  : mid(s, x.best->key, cb, ca, depth + x.best_steps);
        if (r) break;
    }
    free(kids.v);
    return r;
}

int prove(Search *s, const uint64_t *root, int64_t *pn, int64_t *dn) {
    lookup(s, root, pn, dn);
    while (*pn && *dn) {
        if (mid(s, root, INF, INF, 0)) return -1;
        const int64_t *e = pt_get(&s->tt, root);
        *pn = e[0];
        *dn = e[1];
    }
    return 0;
}
