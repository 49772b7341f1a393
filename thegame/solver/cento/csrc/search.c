/* TableSolver's df-pn: the transposition table, lookup, mid and prove. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "ctable.h"
#include "hashtable.h"

/* ---- the transposition table: unbounded, like the Python dict ---------- */

int pt_init(PnTable *t, int kw) {
    t->kw = kw;
    t->cap = 1 << 14;
    t->count = 0;
    t->keys = malloc(t->cap * kw * sizeof(uint64_t));
    t->vals = malloc(t->cap * 2 * sizeof(int64_t));
    t->used = calloc(t->cap, 1);
    return t->keys && t->vals && t->used;
}

void pt_free(PnTable *t) {
    free(t->keys);
    free(t->vals);
    free(t->used);
    t->keys = NULL;
    t->vals = NULL;
    t->used = NULL;
    t->cap = t->count = 0;
}

static size_t pt_slot(const PnTable *t, const uint64_t *key) {
    size_t mask = t->cap - 1, i = hash_words(key, t->kw) & mask;
    while (t->used[i] && !words_eq(t->keys + i * t->kw, key, t->kw)) i = (i + 1) & mask;
    return i;
}

const int64_t *pt_get(const PnTable *t, const uint64_t *key) {
    size_t i = pt_slot(t, key);
    return t->used[i] ? t->vals + 2 * i : NULL;
}

static int pt_grow(PnTable *t) {
    PnTable n;
    n.kw = t->kw;
    n.cap = t->cap * 2;
    n.count = 0;
    n.keys = malloc(n.cap * n.kw * sizeof(uint64_t));
    n.vals = malloc(n.cap * 2 * sizeof(int64_t));
    n.used = calloc(n.cap, 1);
    if (!n.keys || !n.vals || !n.used) {
        pt_free(&n);
        return 0;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = pt_slot(&n, t->keys + i * t->kw);
        memcpy(n.keys + j * n.kw, t->keys + i * t->kw, n.kw * sizeof(uint64_t));
        n.vals[2 * j] = t->vals[2 * i];
        n.vals[2 * j + 1] = t->vals[2 * i + 1];
        n.used[j] = 1;
        n.count++;
    }
    pt_free(t);
    *t = n;
    return 1;
}

/* 0 when out of memory */
int pt_put(PnTable *t, const uint64_t *key, int64_t pn, int64_t dn) {
    size_t i = pt_slot(t, key);
    if (!t->used[i]) {
        if ((t->count + 1) * 2 > t->cap) {
            if (!pt_grow(t)) return 0;
            i = pt_slot(t, key);
        }
        memcpy(t->keys + i * t->kw, key, t->kw * sizeof(uint64_t));
        t->used[i] = 1;
        t->count++;
    }
    t->vals[2 * i] = pn;
    t->vals[2 * i + 1] = dn;
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

static int tick(Search *s) {
    s->nodes++;
    if ((s->max_nodes >= 0 && s->nodes > s->max_nodes) || (s->nodes & 255) == 0)
        return s->reach(s->ctx, s->nodes);
    return 0;
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
        int64_t phi = INF, delta = 0, phi2 = INF, best_delta = 0;
        const Child *best = NULL;
        int best_steps = 1;
        for (size_t i = 0; i < kids.n; i++) {
            const Child *c = &kids.v[i];
            int64_t cpn = c->pn, cdn = c->dn;
            if (!c->end) {
                const int64_t *e = pt_get(&s->tt, c->key);
                if (e != NULL) {
                    cpn = e[0];
                    cdn = e[1];
                }
            }
            int64_t a = is_or ? cpn : cdn, b = is_or ? cdn : cpn;
            delta += b;
            if (a < phi) {
                phi2 = phi;
                phi = a;
                best = c->end ? NULL : c;
                best_delta = b;
                best_steps = c->steps;
            } else if (a < phi2) {
                phi2 = a;
            }
        }
        if (delta > INF) delta = INF;
        if (phi == 0) delta = INF;
        int64_t pn = is_or ? phi : delta, dn = is_or ? delta : phi;
        if (!pt_put(&s->tt, key, pn, dn)) {
            r = no_memory();
            break;
        }
        if (pn == 0 || dn == 0) {
            decided(s, pn == 0, depth);
            break;
        }
        if (phi >= th_phi || delta >= th_delta || best == NULL) break;
        /* the 1+epsilon threshold of table.py */
        int64_t ca = phi2 + (phi2 >> 2) + 1;
        if (ca > th_phi) ca = th_phi;
        int64_t cb = th_delta - delta + best_delta;
        if (cb > INF) cb = INF;
        r = is_or ? mid(s, best->key, ca, cb, depth + best_steps)
                  : mid(s, best->key, cb, ca, depth + best_steps);
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
