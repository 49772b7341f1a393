/* The distinct turns from a position, cheapest first (Kernel.solo_turns,
 * Kernel.fire_turns, ExtremeKernel.extreme_turns): the beams' children.
 * A depth-first walk over the plays of one turn, merging the positions it
 * reaches again (``expanded`` there: a table of the scratch) and keeping
 * each turn's cheapest way, in first-insertion order as Python's dict. */
#include "turns.h"

#include <stdlib.h>
#include <string.h>

#include "memo.h"

static int scratch_reset(TurnScratch *x) {
    x->gen++;
    x->count = 0;
    x->nfound = 0;
    x->alen = 0;
    x->nplays = 0;
    x->failed = 0;
    if (!x->tab) {
        x->cap = 1 << 10;
        x->tab = calloc(x->cap, sizeof(TurnEntry));
        if (!x->tab) return 0;
    }
    return 1;
}

static TurnEntry *scratch_slot(TurnScratch *x, const uint64_t *key) {
    size_t mask = x->cap - 1, i = hash_words(key, TURN_KEY_WORDS) & mask;
    while (x->tab[i].gen == x->gen && !words_eq(x->tab[i].key, key, TURN_KEY_WORDS))
        i = (i + 1) & mask;
    return &x->tab[i];
}

static int scratch_grow(TurnScratch *x) {
    size_t ocap = x->cap;
    TurnEntry *old = x->tab;
    x->cap = ocap * 2;
    x->tab = calloc(x->cap, sizeof(TurnEntry));
    if (!x->tab) {
        x->tab = old;
        x->cap = ocap;
        return 0;
    }
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].gen != x->gen) continue;
        TurnEntry *e = scratch_slot(x, old[i].key);
        *e = old[i];
    }
    free(old);
    return 1;
}

static int scratch_found(TurnScratch *x, TurnEntry *e, int cost) {
    if (x->alen + x->nplays > x->acap) {
        int ncap = (x->acap ? x->acap * 2 : 4096);
        while (ncap < x->alen + x->nplays) ncap *= 2;
        Action *na = realloc(x->arena, sizeof(Action) * ncap);
        if (!na) return 0;
        x->arena = na;
        x->acap = ncap;
    }
    int idx = e->found;
    if (idx < 0) {
        if (x->nfound >= x->fcap) {
            int ncap = x->fcap ? x->fcap * 2 : 256;
            int *a = realloc(x->fcost, sizeof(int) * ncap);
            if (!a) return 0;
            x->fcost = a;
            a = realloc(x->foff, sizeof(int) * ncap);
            if (!a) return 0;
            x->foff = a;
            a = realloc(x->flen, sizeof(int) * ncap);
            if (!a) return 0;
            x->flen = a;
            x->fcap = ncap;
        }
        idx = e->found = x->nfound++;
    }
    x->fcost[idx] = cost;
    x->foff[idx] = x->alen;
    x->flen[idx] = x->nplays;
    memcpy(x->arena + x->alen, x->plays, sizeof(Action) * x->nplays);
    x->alen += x->nplays;
    return 1;
}

/* look the key up in ``expanded``; 1: expand it (the cost is recorded) */
static TurnEntry *scratch_expand(TurnScratch *x, const uint64_t *key, int cost) {
    if ((x->count + 1) * 2 > x->cap && !scratch_grow(x)) {
        x->failed = 1;
        return NULL;
    }
    TurnEntry *e = scratch_slot(x, key);
    if (e->gen == x->gen) {
        if (e->cost <= cost) return NULL;
    } else {
        memcpy(e->key, key, sizeof(uint64_t) * TURN_KEY_WORDS);
        e->gen = x->gen;
        e->found = -1;
        x->count++;
    }
    e->cost = cost;
    return e;
}

static void solo_rec(Kernel *k, TurnScratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TURN_KEY_WORDS];
    int marked[KERNEL_MAX_PILES];
    for (int i = 0; i < k->n_piles; i++) marked[i] = s->tops[i];
    /* (sorted tops, hand mask) */
    key[0] = tops_word(k->n_asc, k->n_piles, marked);
    key[1] = (uint64_t)s->hands[0];
    key[2] = (uint64_t)(s->hands[0] >> 64);
    key[3] = 0;
    TurnEntry *e = scratch_expand(x, key, cost);
    if (!e) return;
    if (depth >= x->lo && !scratch_found(x, e, cost)) {
        x->failed = 1;
        return;
    }
    if (depth >= x->hi) return;
    Move ms[MAX_MOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        int c = ms[i].c, pile = ms[i].pile;
        if (depth >= x->lo && ms[i].cost > x->extra_cost) break;
        int top = s->tops[pile];
        CardMask un = s->unplayed;
        int delta;
        if (top != k->trick_top[pile < k->n_asc ? 0 : 1][c])
            delta = card_count(un & (c > top ? cards_between(top, c) : cards_between(c, top)));
        else
            delta = -card_count(un & (c < top ? cards_between(c, top) : cards_between(top, c))) - 1;
        CardMask bit = card_bit(c);
        s->hands[0] ^= bit;
        s->unplayed = un ^ bit;
        s->tops[pile] = c;
        x->plays[x->nplays++] = (Action){(int16_t)c, (int16_t)pile};
        solo_rec(k, x, depth + 1, cost + delta);
        x->nplays--;
        s->tops[pile] = top;
        s->unplayed = un;
        s->hands[0] ^= bit;
        if (x->failed) return;
    }
}

static void fire_rec(Kernel *k, TurnScratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TURN_KEY_WORDS];
    uint64_t w = 0;
    for (int i = 0; i < k->n_piles; i++) w |= (uint64_t)(s->tops[i] & 0xff) << (8 * i);
    key[0] = w;
    key[1] = (uint64_t)s->pending;
    key[2] = (uint64_t)s->hands[s->cur];
    key[3] = (uint64_t)(s->hands[s->cur] >> 64);
    TurnEntry *e = scratch_expand(x, key, cost);
    if (!e) return;
    if (s->unplayed == 0 || (depth >= x->lo && s->t > 0 && !s->pending)) {
        if (!scratch_found(x, e, cost)) {
            x->failed = 1;
            return;
        }
    }
    if (depth >= x->hi || s->unplayed == 0) return;
    Move ms[MAX_MOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        if (depth >= x->lo && ms[i].cost > x->extra_cost && !s->pending) break;
        int c = ms[i].c, pile = ms[i].pile;
        PlayUndo u = play(k, c, pile);
        x->plays[x->nplays++] = (Action){(int16_t)c, (int16_t)pile};
        fire_rec(k, x, depth + 1, cost + ms[i].cost);
        x->nplays--;
        unplay(k, c, pile, u);
        if (x->failed) return;
    }
}

/* ExtremeKernel.extreme_turns: ``x->hi`` is ``longest``; a turn that
 * cannot end yet may run up to 3 plays past it */
static void extreme_rec(Kernel *k, TurnScratch *x, int depth, int cost) {
    State *s = &k->s;
    uint64_t key[TURN_KEY_WORDS];
    uint64_t w = 0;
    for (int i = 0; i < k->n_piles; i++) w |= (uint64_t)(s->tops[i] & 0xff) << (8 * i);
    key[0] = w;
    key[1] = (uint64_t)(uint32_t)s->pending | ((uint64_t)(uint32_t)s->t << 32);
    key[2] = (uint64_t)s->hands[s->cur];
    key[3] = (uint64_t)(s->hands[s->cur] >> 64);
    TurnEntry *e = scratch_expand(x, key, cost);
    if (!e) return;
    int ends = s->t > 0 && x_can_end(k);
    if (ends || won(k)) {
        if (!scratch_found(x, e, cost)) {
            x->failed = 1;
            return;
        }
    }
    if (s->unplayed == 0 || depth >= x->hi + 3 || (depth >= x->hi && ends)) return;
    Move ms[MAX_MOVES];
    int n = moves(k, ms);
    if (x->branch < n) n = x->branch;
    for (int i = 0; i < n; i++) {
        if (ends && ms[i].cost > x->extra_cost) break;
        int c = ms[i].c, pile = ms[i].pile;
        PlayUndo u = play(k, c, pile);
        x->plays[x->nplays++] = (Action){(int16_t)c, (int16_t)pile};
        extreme_rec(k, x, depth + 1, cost + ms[i].cost);
        x->nplays--;
        unplay(k, c, pile, u);
        if (x->failed) return;
    }
}

static TurnScratch *sort_scratch; /* the comparator's context (single-threaded: GIL held) */
static int cmp_found(const void *a, const void *b) {
    int i = *(const int *)a, j = *(const int *)b;
    int ci = sort_scratch->fcost[i], cj = sort_scratch->fcost[j];
    if (ci != cj) return ci < cj ? -1 : 1;
    return (i > j) - (i < j); /* stable, as Python's sorted */
}

void turns_free(TurnList *tl) {
    free(tl->cost);
    tl->cost = NULL;
}

/* The found turns' indices into ``idx`` by cost, ties in first-insertion
 * order (Python's stable sort): a counting sort, stable by construction,
 * when the costs span little */
static void order_by_cost(TurnScratch *x, int *idx, int n) {
    int lo_c = 0, hi_c = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || x->fcost[i] < lo_c) lo_c = x->fcost[i];
        if (i == 0 || x->fcost[i] > hi_c) hi_c = x->fcost[i];
    }
    int span = hi_c - lo_c + 1;
    if (n > 1 && span <= 1024) {
        int count[1025];
        memset(count, 0, sizeof(int) * (span + 1));
        for (int i = 0; i < n; i++) count[x->fcost[i] - lo_c + 1]++;
        for (int v = 0; v < span; v++) count[v + 1] += count[v];
        for (int i = 0; i < n; i++) idx[count[x->fcost[i] - lo_c]++] = i;
    } else {
        for (int i = 0; i < n; i++) idx[i] = i;
        sort_scratch = x;
        qsort(idx, n, sizeof(int), cmp_found);
    }
}

/* the distinct turns, cheapest first; 0 on memory failure */
int list_turns(Kernel *k, TurnScratch *x, TurnKind kind, int branch, int longest, int extra_cost,
                      TurnList *out) {
    State *s = &k->s;
    if (!scratch_reset(x)) return 0;
    int lo = s->t ? (s->turn_min - s->t > 0 ? s->turn_min - s->t : 0) : s->turn_min;
    int hi = s->max_turn - s->t;
    if (longest < hi) hi = longest;
    x->lo = lo;
    x->hi = hi;
    x->branch = branch;
    x->extra_cost = extra_cost;
    if (kind == TURNS_EXTREME) {
        x->hi = longest;
        extreme_rec(k, x, 0, 0);
    } else if (kind == TURNS_FIRE) {
        fire_rec(k, x, 0, 0);
    } else {
        solo_rec(k, x, 0, 0);
    }
    if (x->failed) return 0;
    int n = x->nfound;
    int *idx = malloc(sizeof(int) * (n ? n : 1));
    /* one block: cost, off, len (3n ints), then the plays */
    char *block = malloc(sizeof(int) * 3 * (n ? n : 1) + sizeof(Action) * (x->alen ? x->alen : 1));
    if (!idx || !block) {
        free(idx);
        free(block);
        return 0;
    }
    order_by_cost(x, idx, n);
    out->n = n;
    out->cost = (int *)block;
    out->off = out->cost + (n ? n : 1);
    out->len = out->off + (n ? n : 1);
    out->plays = (Action *)(out->len + (n ? n : 1));
    int a = 0;
    for (int r = 0; r < n; r++) {
        int i = idx[r];
        out->cost[r] = x->fcost[i];
        out->off[r] = a;
        out->len[r] = x->flen[i];
        memcpy(out->plays + a, x->arena + x->foff[i], sizeof(Action) * x->flen[i]);
        a += x->flen[i];
    }
    free(idx);
    return 1;
}

void scratch_free(TurnScratch *x) {
    free(x->tab);
    free(x->fcost);
    free(x->foff);
    free(x->flen);
    free(x->arena);
    memset(x, 0, sizeof *x);
}
