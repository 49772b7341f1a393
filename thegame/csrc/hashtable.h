/* The hash tables of the three compiled extensions, keyed by a few 64-bit
 * words:
 *
 * - Table: a bounded map from keys of ``kw`` words to int32 values (the
 *   search kernel's memos). Past ``maxcap`` slots it takes no new key, or
 *   (tab_keep) puts one out in two levels, deep and recent, so memory stays
 *   bounded and the search goes on;
 *   the searches stay sound because a memo entry only saves work. Which
 *   keys a full table keeps depends on hash_words, so the node counts of a
 *   search that fills its memo do too: the mix below is fixed.
 * - KeySet: an unbounded set of KEYSET_WORDS-word keys, emptied at once by
 *   a new stamp (the turn enumerations' ``seen`` sets of the playouts and
 *   the duel, which only ask whether a key is in; KEYSET_HASH may choose
 *   its hash).
 * - PairMap: an unbounded map from KeySet keys to two int64 values, with
 *   deletion (the duel's df-pn numbers).
 *
 * Open addressing with linear probing, a power-of-two number of slots.
 */
#ifndef THEGAME_HASHTABLE_H
#define THEGAME_HASHTABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t hash_words(const uint64_t *w, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h ^= w[i];
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 29;
    }
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 32;
    return h;
}

/* Keys are a few words: compared inline, not through a memcmp call. (GCC
 * cannot see that a probe reads only the slots a key was written to, the
 * used or stamped ones, and would warn of uninitialized reads.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static inline int words_eq(const uint64_t *a, const uint64_t *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* ---- Table: the bounded map ---------------------------------------------- */

typedef struct {
    uint64_t *keys;
    int32_t *vals;
    uint8_t *used; /* 0: empty; else the key's tag (tag_of) */
    size_t cap, count, maxcap;
    int kw;
    long long replaced; /* keys put out of a full table (tab_keep) */
} Table;

static inline int tab_init(Table *t, int kw, size_t maxcap) {
    t->kw = kw;
    t->cap = 1 << 12;
    if (t->cap > maxcap) t->cap = maxcap;
    t->maxcap = maxcap;
    t->count = 0;
    t->replaced = 0;
    t->keys = malloc(t->cap * kw * sizeof(uint64_t));
    t->vals = malloc(t->cap * sizeof(int32_t));
    t->used = calloc(t->cap, 1);
    return t->keys && t->vals && t->used;
}

static inline void tab_free(Table *t) {
    free(t->keys);
    free(t->vals);
    free(t->used);
    t->keys = NULL;
    t->vals = NULL;
    t->used = NULL;
}

static inline void tab_clear(Table *t) {
    memset(t->used, 0, t->cap);
    t->count = 0;
}

/* A used slot's byte holds its key's tag: the hash's top 7 bits, and 1 so
 * that it is never 0 (empty). A probe compares a key only where the tags
 * agree: near a full table a missing key's long probe path reads a few
 * bytes instead of a key a slot. */
static inline uint8_t tag_of(uint64_t h) { return (uint8_t)((h >> 56) | 1); }

/* The key's slot, or the free slot where it would go */
static inline size_t tab_slot(const Table *t, const uint64_t *key) {
    uint64_t h = hash_words(key, t->kw);
    uint8_t tag = tag_of(h);
    size_t mask = t->cap - 1, i = h & mask;
    while (t->used[i] && (t->used[i] != tag || !words_eq(t->keys + i * t->kw, key, t->kw)))
        i = (i + 1) & mask;
    return i;
}

static inline int32_t *tab_get(const Table *t, const uint64_t *key) {
    size_t i = tab_slot(t, key);
    return t->used[i] ? &t->vals[i] : NULL;
}

static inline int tab_grow(Table *t) {
    size_t ncap = t->cap * 2;
    uint64_t *nk = malloc(ncap * t->kw * sizeof(uint64_t));
    int32_t *nv = malloc(ncap * sizeof(int32_t));
    uint8_t *nu = calloc(ncap, 1);
    if (!nk || !nv || !nu) {
        free(nk);
        free(nv);
        free(nu);
        return 0;
    }
    Table n = {nk, nv, nu, ncap, 0, t->maxcap, t->kw, t->replaced};
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = tab_slot(&n, t->keys + i * t->kw);
        memcpy(n.keys + j * t->kw, t->keys + i * t->kw, t->kw * sizeof(uint64_t));
        n.vals[j] = t->vals[i];
        n.used[j] = t->used[i];
        n.count++;
    }
    tab_free(t);
    *t = n;
    return 1;
}

/* A new key into its free slot ``i`` (from ``tab_slot``), growing the
 * table first where it is due; 0 when the table is full and takes none. */
static inline int tab_add(Table *t, size_t i, const uint64_t *key, int32_t val) {
    if ((t->count + 1) * 10 > t->cap * 7) {
        if (t->cap * 2 <= t->maxcap && tab_grow(t)) {
            i = tab_slot(t, key);
        } else if ((t->count + 1) * 10 > t->cap * 9) {
            return 0; /* full: the memo stops growing */
        }
    }
    memcpy(t->keys + i * t->kw, key, t->kw * sizeof(uint64_t));
    t->vals[i] = val;
    t->used[i] = tag_of(hash_words(key, t->kw));
    t->count++;
    return 1;
}

static inline void tab_put(Table *t, const uint64_t *key, int32_t val) {
    size_t i = tab_slot(t, key);
    if (t->used[i])
        t->vals[i] = val;
    else
        tab_add(t, i, key, val);
}

/* tab_put for a memo whose values say what an entry is worth (the larger,
 * the more: the classic search's dead memo values a proof by the bits of
 * the nodes it took). Where the table is full, a new key takes a slot among
 * the first KEEP_PROBE of its probe path, in two levels (as the
 * transposition tables of the Domineering solvers, "TwoBig1"):
 * - deep: it takes the slot of the window's cheapest entry if it is worth
 *   at least as much; the entry put out moves to the window's recent slot
 *   (where it stays on its own probe path), putting that one out;
 * - recent: else it takes the window's recent slot, whatever that holds
 *   (always replace), or, where the window has none yet, the cheapest
 *   entry's, which becomes it.
 * So a full memo keeps the costly proofs and still takes the fresh cheap
 * ones the search is about to ask again. Slots are taken in place, so
 * every other key's probe path stays whole; a key put out is only not
 * found again. A recent entry's value carries KEEP_RECENT (keep_worth
 * reads it without). Only this function sets it; the duel's tables, which
 * never call it, see plain values. */
#define KEEP_PROBE 8
#define KEEP_RECENT ((int32_t)1 << 30)
#define KEEP_NONE ((size_t)-1)

static inline int32_t keep_worth(int32_t val) { return val & ~KEEP_RECENT; }

static inline void keep_put(Table *t, size_t i, const uint64_t *key, uint8_t tag, int32_t val) {
    memcpy(t->keys + i * t->kw, key, t->kw * sizeof(uint64_t));
    t->vals[i] = val;
    t->used[i] = tag;
}

/* The deep entry at ``low`` moves to the recent slot ``rec`` when that lies
 * on its probe path (from its home to ``low``, or past ``low``: the window
 * has no free slot between); else it is put out, and the recent one stays. */
static inline void keep_demote(Table *t, size_t low, size_t rec) {
    size_t mask = t->cap - 1, home = hash_words(t->keys + low * t->kw, t->kw) & mask;
    if (((rec - home) & mask) > ((low - home) & mask) && ((rec - low) & mask) >= KEEP_PROBE)
        return;
    keep_put(t, rec, t->keys + low * t->kw, t->used[low], t->vals[low] | KEEP_RECENT);
}

static inline void tab_keep(Table *t, const uint64_t *key, int32_t val) {
    size_t i = tab_slot(t, key);
    if (t->used[i]) {
        if (keep_worth(t->vals[i]) < val) t->vals[i] = val | (t->vals[i] & KEEP_RECENT);
        return;
    }
    if (tab_add(t, i, key, val)) return;
    uint64_t h = hash_words(key, t->kw);
    size_t mask = t->cap - 1, j = h & mask, low = KEEP_NONE, rec = KEEP_NONE;
    for (int n = 0; n < KEEP_PROBE && t->used[j]; n++, j = (j + 1) & mask) {
        if (t->vals[j] & KEEP_RECENT) {
            if (rec == KEEP_NONE) rec = j;
        } else if (low == KEEP_NONE || t->vals[j] < t->vals[low]) {
            low = j;
        }
    }
    if (low == KEEP_NONE && rec == KEEP_NONE) return; /* its home is free: the table takes no more */
    t->replaced++;
    if (low != KEEP_NONE && t->vals[low] <= val) {
        if (rec != KEEP_NONE) keep_demote(t, low, rec);
        keep_put(t, low, key, tag_of(h), val);
    } else {
        keep_put(t, rec != KEEP_NONE ? rec : low, key, tag_of(h), val | KEEP_RECENT);
    }
}

/* ---- KeySet: the unbounded set emptied by a stamp ------------------------- */

#define KEYSET_WORDS 3

typedef struct {
    uint64_t w[KEYSET_WORDS];
} SetKey;

typedef struct {
    SetKey *keys;
    uint32_t *stamp; /* a slot is used when its stamp is the current one */
    size_t cap, count;
    uint32_t now;
    int oom; /* a growth failed: the set stopped taking keys */
} KeySet;

/* ``cap``: a power of two */
static inline int keyset_init(KeySet *s, size_t cap) {
    s->keys = malloc(cap * sizeof(SetKey));
    s->stamp = calloc(cap, sizeof(uint32_t));
    s->cap = cap;
    s->count = 0;
    s->now = 1;
    s->oom = 0;
    return s->keys != NULL && s->stamp != NULL;
}

static inline void keyset_free(KeySet *s) {
    free(s->keys);
    free(s->stamp);
    s->keys = NULL;
    s->stamp = NULL;
}

/* Empty the set in O(1): a new stamp makes every slot free. */
static inline void keyset_clear(KeySet *s) {
    s->count = 0;
    if (++s->now == 0) {
        memset(s->stamp, 0, s->cap * sizeof(uint32_t));
        s->now = 1;
    }
}

/* The KeySet's hash: hash_words, unless the includer defines
 * KEYSET_HASH(words) first (a KeySet decides no result by its hash, only
 * how long its probes are, and the playouts' keys probe shortest with the
 * lighter mix they were tuned with) */
#ifndef KEYSET_HASH
#define KEYSET_HASH(w) hash_words((w), KEYSET_WORDS)
#endif

static inline size_t keyset_home(const KeySet *s, const SetKey *k) {
    return KEYSET_HASH(k->w) & (s->cap - 1);
}

static inline int keyset_grow(KeySet *s) {
    size_t cap = s->cap * 2;
    SetKey *keys = malloc(cap * sizeof(SetKey));
    uint32_t *stamp = calloc(cap, sizeof(uint32_t));
    if (keys == NULL || stamp == NULL) {
        free(keys);
        free(stamp);
        s->oom = 1;
        return 0;
    }
    KeySet n = {keys, stamp, cap, s->count, 1, 0};
    for (size_t i = 0; i < s->cap; i++) {
        if (s->stamp[i] != s->now) continue;
        size_t j = keyset_home(&n, &s->keys[i]);
        while (stamp[j] == 1) j = (j + 1) & (cap - 1);
        keys[j] = s->keys[i];
        stamp[j] = 1;
    }
    keyset_free(s);
    *s = n;
    return 1;
}

/* 1 if the key is in the set */
static inline int keyset_has(const KeySet *s, const SetKey *k) {
    size_t j = keyset_home(s, k);
    while (s->stamp[j] == s->now) {
        if (words_eq(s->keys[j].w, k->w, KEYSET_WORDS)) return 1;
        j = (j + 1) & (s->cap - 1);
    }
    return 0;
}

/* Add the key: 1 if it was new, 0 if it was there already, -1 when the set
 * could not grow (``oom`` is set) */
static inline int keyset_add(KeySet *s, const SetKey *k) {
    if (2 * (s->count + 1) > s->cap && !keyset_grow(s)) return -1;
    size_t j = keyset_home(s, k);
    while (s->stamp[j] == s->now) {
        if (words_eq(s->keys[j].w, k->w, KEYSET_WORDS)) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->keys[j] = *k;
    s->stamp[j] = s->now;
    s->count++;
    return 1;
}

/* ---- PairMap: an unbounded map with deletion ------------------------------
 * Keys are SetKeys (KEYSET_WORDS words), each with a pair of int64 values
 * (the duel's df-pn: a position's proof and disproof numbers). An entry is
 * deleted by backward shift, so no probe path breaks and no tombstone is
 * left; the map grows at half full. */

typedef struct {
    int64_t first, second;
} Pair;

typedef struct {
    SetKey *keys;
    Pair *vals;
    uint8_t *used;
    size_t cap, count;
} PairMap;

/* ``cap``: a power of two; 0 when out of memory (pairmap_free still due) */
static inline int pairmap_init(PairMap *t, size_t cap) {
    t->cap = cap;
    t->count = 0;
    t->keys = malloc(cap * sizeof(SetKey));
    t->vals = malloc(cap * sizeof(Pair));
    t->used = calloc(cap, 1);
    return t->keys && t->vals && t->used;
}

static inline void pairmap_free(PairMap *t) {
    free(t->keys);
    free(t->vals);
    free(t->used);
    t->keys = NULL;
    t->vals = NULL;
    t->used = NULL;
    t->cap = t->count = 0;
}

static inline size_t pairmap_home(const PairMap *t, const SetKey *k) {
    return hash_words(k->w, KEYSET_WORDS) & (t->cap - 1);
}

/* The key's slot, or the free slot where it would go */
static inline size_t pairmap_slot(const PairMap *t, const SetKey *k) {
    size_t mask = t->cap - 1, i = pairmap_home(t, k);
    while (t->used[i] && !words_eq(t->keys[i].w, k->w, KEYSET_WORDS)) i = (i + 1) & mask;
    return i;
}

static inline int pairmap_grow(PairMap *t) {
    PairMap n;
    if (!pairmap_init(&n, t->cap * 2)) {
        pairmap_free(&n);
        return 0;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->used[i]) continue;
        size_t j = pairmap_slot(&n, &t->keys[i]);
        n.keys[j] = t->keys[i];
        n.vals[j] = t->vals[i];
        n.used[j] = 1;
        n.count++;
    }
    pairmap_free(t);
    *t = n;
    return 1;
}

/* Set the key's pair; 0 when out of memory */
static inline int pairmap_put(PairMap *t, const SetKey *k, int64_t first, int64_t second) {
    size_t i = pairmap_slot(t, k);
    if (!t->used[i]) {
        if ((t->count + 1) * 2 > t->cap) {
            if (!pairmap_grow(t)) return 0;
            i = pairmap_slot(t, k);
        }
        t->keys[i] = *k;
        t->used[i] = 1;
        t->count++;
    }
    t->vals[i] = (Pair){first, second};
    return 1;
}

static inline void pairmap_del(PairMap *t, const SetKey *k) {
    size_t mask = t->cap - 1, i = pairmap_slot(t, k);
    if (!t->used[i]) return;
    /* Backward shift: move up every later entry of the run whose home lies
     * cyclically at or before the hole, so no probe path breaks. */
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!t->used[j]) break;
        size_t home = pairmap_home(t, &t->keys[j]);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            t->keys[i] = t->keys[j];
            t->vals[i] = t->vals[j];
            i = j;
        }
    }
    t->used[i] = 0;
    t->count--;
}

static inline void pairmap_clear(PairMap *t) {
    memset(t->used, 0, t->cap);
    t->count = 0;
}

#endif
