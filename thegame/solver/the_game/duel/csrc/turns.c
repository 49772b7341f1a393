/* DuelGame.turns, DuelGame._after, DuelGame.has_turn (duel/position.py)
 * and position.solo_turns: the turns of the duel, D2-D6. */
#include <stdlib.h>
#include <string.h>

#include "duel.h"

/* The turn so far: the mover's hand, their own tops, the opponent's tops */
typedef struct {
    CardMask64 hand;
    int a, d, oa, od;
    uint32_t bits; /* the hand, compact (Seen64) */
} TurnNode;

/* DuelGame._after: the D5 draw, then the opponent moves. */
static void after_turn(const DuelRules *g, const DuelPos *pos, int p, const TurnNode *x,
                       int dumped, DuelPos *out) {
    CardMask64 hand = x->hand;
    int want = dumped ? g->hand_size - card_count64(hand) : g->draw_own;
    const int at = pos->at[p];
    int take = g->deck_len[p] - at;
    if (want < take) take = want;
    if (take < 0) take = 0;
    hand |= g->rest[p][at] & ~g->rest[p][at + take];
    *out = *pos;
    out->h[p] = hand;
    out->at[p] = at + take;
    out->a[p] = x->a;
    out->d[p] = x->d;
    out->a[1 - p] = x->oa;
    out->d[1 - p] = x->od;
    out->cur = 1 - p;
}

/* Room for n more plays in the buffers *c, *pile (capacity *cap, used
 * *used); 0 when out of memory */
static int room_for_plays(uint8_t **c, uint8_t **pile, size_t *cap, size_t used, size_t n) {
    if (used + n <= *cap) return 1;
    size_t want = *cap ? *cap : 1024;
    while (want < used + n) want *= 2;
    if (want > UINT32_MAX) return 0;
    uint8_t *nc = realloc(*c, want);
    if (nc) *c = nc;
    uint8_t *np = nc ? realloc(*pile, want) : NULL;
    if (np) *pile = np;
    if (!nc || !np) return 0;
    *cap = want;
    return 1;
}

static int push_result(TurnSearch *T, const TurnNode *x, int dumped, int won) {
    if (T->n_out == T->cap_out) {
        size_t cap = T->cap_out ? T->cap_out * 2 : 64;
        TurnResult *r = realloc(T->out, cap * sizeof(TurnResult));
        if (!r) return 0;
        T->out = r;
        T->cap_out = cap;
    }
    TurnResult *r = &T->out[T->n_out++];
    r->won = won;
    r->n_plays = T->depth;
    r->plays = (uint32_t)T->n_plays;
    if (!T->lean) {
        if (!room_for_plays(&T->plays_c, &T->plays_pile, &T->cap_plays, T->n_plays,
                            (size_t)T->depth))
            return 0;
        memcpy(T->plays_c + T->n_plays, T->path_c, (size_t)T->depth);
        memcpy(T->plays_pile + T->n_plays, T->path_pile, (size_t)T->depth);
        T->n_plays += (size_t)T->depth;
    }
    if (!won) after_turn(T->g, T->pos, T->p, x, dumped, &r->after);
    return 1;
}

static int visit(TurnSearch *T, const TurnNode *x, int n);

/* Whether x is new to the listing (then it is marked seen): 1 new, 0 seen,
 * -1 out of memory */
static inline int first_visit(TurnSearch *T, const TurnNode *x) {
    if (T->seen64) return seen64_add(T->seen64, seen64_key(x->bits, x->a, x->d, x->oa, x->od));
    const SetKey key = seen_key(x->hand, x->a, x->d, x->oa, x->od);
    return keyset_add(T->seen, &key);
}

/* The child of ``x`` with card c on ``pile`` (0..3: own ascending, own
 * descending, the opponent's ascending, descending), visited if new (most
 * children were reached before: they cost a look, not a call); 1: stop */
static inline int play_child(TurnSearch *T, const TurnNode *x, int c, int pile, int n) {
    TurnNode y = *x;
    y.hand &= ~((CardMask64)1 << c);
    if (T->seen64) y.bits &= ~(1u << T->seen64->bit[c]);
    switch (pile) {
    case 0: y.a = c; break;
    case 1: y.d = c; break;
    case 2: y.oa = c; break;
    default: y.od = c; break;
    }
    const int added = first_visit(T, &y);
    if (added <= 0) {
        if (added < 0) T->oom = 1;
        return added < 0;
    }
    const int owner = pile < 2 ? T->p : T->o;
    T->path_pile[T->depth - 1] = (uint8_t)(2 * owner + (pile & 1));
    return visit(T, &y, n + 1);
}

/* x, new to the listing: its result and its children; 1: stop (has_turn
 * found one, or out of memory) */
static int visit(TurnSearch *T, const TurnNode *x, int n) {
    const int o = T->o, step = T->step;
    const int dumped = T->dumped0 || x->oa != T->pos->a[o] || x->od != T->pos->d[o];
    if (n >= T->m) {
        const int won = x->hand == 0 && T->empty;
        if (T->stop_at_first) return 1;
        if (!push_result(T, x, dumped, won)) {
            T->oom = 1;
            return 1;
        }
        if (won) return 0;
    }
    for (CardMask64 left = x->hand; left; left &= left - 1) {
        const int c = __builtin_ctzll(left);
        T->path_c[T->depth] = (uint8_t)c;
        T->depth++;
        /* D3 (C5) on one's own piles */
        if (pile_accepts(1, x->a, c, step) && play_child(T, x, c, 0, n)) return 1;
        if (pile_accepts(0, x->d, c, step) && play_child(T, x, c, 1, n)) return 1;
        if (!dumped) { /* D2: at most one card onto the opponent's piles */
            if (pile_improves(1, x->oa, c) && play_child(T, x, c, 2, n)) return 1; /* D4 */
            if (pile_improves(0, x->od, c) && play_child(T, x, c, 3, n)) return 1;
        }
        T->depth--;
    }
    return 0;
}

int seen64_grow(Seen64 *s) {
    const size_t cap = s->cap ? 2 * s->cap : 512;
    SeenSlot *slots = calloc(cap, sizeof(SeenSlot));
    if (!slots) return 0;
    for (size_t i = 0; i < s->cap; i++) {
        if (s->slots[i].stamp != s->now) continue;
        size_t j = (size_t)((s->slots[i].key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
        while (slots[j].stamp == 1) j = (j + 1) & (cap - 1);
        slots[j].key = s->slots[i].key;
        slots[j].stamp = 1;
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    s->now = 1;
    return 1;
}

void *scratch_buffer(int which, size_t bytes) {
    static void *buf[2];
    static size_t cap[2];
    if (bytes > cap[which]) {
        size_t want = cap[which] ? cap[which] : 4096;
        while (want < bytes) want *= 2;
        void *b = realloc(buf[which], want);
        if (!b) return NULL;
        buf[which] = b;
        cap[which] = want;
    }
    return buf[which];
}

Seen64 *scratch_seen(int which) {
    static Seen64 sets[3];
    Seen64 *s = &sets[which];
    s->count = 0;
    if (++s->now == 0) { /* the stamps wrapped: clear them */
        for (size_t i = 0; i < s->cap; i++) s->slots[i].stamp = 0;
        s->now = 1;
    }
    return s;
}

KeySet *scratch_set(int which) {
    static KeySet sets[3];
    static int ready[3];
    KeySet *s = &sets[which];
    if (ready[which]) {
        keyset_clear(s);
    } else if (keyset_init(s, 256)) {
        ready[which] = 1;
    } else {
        keyset_free(s);
        return NULL;
    }
    return s;
}

static int minimum(const DuelRules *g, const DuelPos *pos, int q) {
    return pos->at[q] < g->deck_len[q] ? g->min_play : g->min_play_empty;
}

int list_turns(TurnSearch *T, const DuelRules *g, const DuelPos *pos, int done, int dumped,
               int first) {
    memset(T, 0, sizeof *T);
    T->g = g;
    T->pos = pos;
    T->p = pos->cur;
    T->o = 1 - pos->cur;
    T->m = minimum(g, pos, T->p);
    T->empty = pos->at[T->p] >= g->deck_len[T->p];
    T->dumped0 = dumped;
    T->step = g->step;
    T->stop_at_first = first == 1;
    T->lean = first == 2;
    const int p = T->p, o = T->o;
    TurnNode start = {pos->h[p], pos->a[p], pos->d[p], pos->a[o], pos->d[o], 0};
    if (card_count64(pos->h[p]) <= SEEN_CARDS) {
        T->seen64 = scratch_seen(0);
        seen64_cards(T->seen64, pos->h[p]);
        start.bits = (1u << card_count64(pos->h[p])) - 1;
    } else {
        T->seen = scratch_set(0);
        if (!T->seen) return 0;
    }
    /* The lean results go to a buffer kept between listings: a node's
     * hundreds of results, grown once rather than at every node */
    static TurnResult *lean_out;
    static size_t lean_cap;
    if (T->lean) {
        T->out = lean_out;
        T->cap_out = lean_cap;
    }
    const int added = first_visit(T, &start);
    const int stopped = added < 0 ? (T->oom = 1) : visit(T, &start, done);
    if (T->lean) {
        lean_out = T->out;
        lean_cap = T->cap_out;
    }
    if (T->oom) {
        turns_free(T);
        return 0;
    }
    return first ? (stopped ? 2 : 1) : 1;
}

void turns_free(TurnSearch *T) {
    if (!T->lean) free(T->out);
    free(T->plays_c);
    free(T->plays_pile);
    T->out = NULL;
    T->plays_c = T->plays_pile = NULL;
}

/* DuelGame._two_plays: two legal plays in a row. */
static int two_plays(const DuelRules *g, const DuelPos *pos) {
    const int p = pos->cur, o = 1 - p, step = g->step;
    const CardMask64 hand = pos->h[p];
    const int a = pos->a[p], d = pos->d[p], oa = pos->a[o], od = pos->d[o];
    for (CardMask64 l1 = hand; l1; l1 &= l1 - 1) {
        const int c = __builtin_ctzll(l1);
        const CardMask64 rest = hand & ~((CardMask64)1 << c);
        int na[3], nd[3], dm[3], k = 0;
        if (pile_accepts(1, a, c, step)) na[k] = c, nd[k] = d, dm[k++] = 0;
        if (pile_accepts(0, d, c, step)) na[k] = a, nd[k] = c, dm[k++] = 0;
        if (pile_improves(1, oa, c) || pile_improves(0, od, c)) na[k] = a, nd[k] = d, dm[k++] = 1;
        for (int i = 0; i < k; i++) {
            for (CardMask64 l2 = rest; l2; l2 &= l2 - 1) {
                const int c2 = __builtin_ctzll(l2);
                if (pile_accepts(1, na[i], c2, step) || pile_accepts(0, nd[i], c2, step)) return 1;
                /* After a card onto the opponent, the second goes to own piles (D2). */
                if (!dm[i] && (pile_improves(1, oa, c2) || pile_improves(0, od, c2))) return 1;
            }
        }
    }
    return 0;
}

int has_turn(const DuelRules *g, const DuelPos *pos) {
    const int p = pos->cur;
    const int m = minimum(g, pos, p);
    const int n = card_count64(pos->h[p]);
    if (n < m) return 0;
    if (m == 2 && n >= 2) return two_plays(g, pos);
    TurnSearch T;
    const int r = list_turns(&T, g, pos, 0, 0, 1);
    if (r == 0) return -1;
    return r == 2;
}

/* ---- position.solo_turns: one player's turns on their own piles alone ---- */

/* Whether the state is new to the listing (then marked seen); out of
 * memory sets oom */
static inline int solo_first(SoloSearch *S, CardMask64 hand, uint32_t bits, int a, int d, int ta,
                             int td) {
    int added;
    if (S->seen64) {
        added = seen64_add(S->seen64, seen64_key(bits, a, d, ta && S->robust, td && S->robust));
    } else {
        const SetKey key = seen_key(hand, a, d, ta && S->robust, td && S->robust);
        added = keyset_add(S->seen, &key);
    }
    if (added < 0) S->oom = 1;
    return added > 0;
}

/* A state new to the listing: its result and its children */
static void solo_visit(SoloSearch *S, CardMask64 hand, uint32_t bits, int a, int d, int ta, int td,
                       int n) {
    if (S->oom) return;
    if (n >= S->m) {
        if (S->n_out == S->cap_out) {
            size_t cap = S->cap_out ? S->cap_out * 2 : 64;
            SoloResult *r = realloc(S->out, cap * sizeof(SoloResult));
            if (!r) {
                S->oom = 1;
                return;
            }
            S->out = r;
            S->cap_out = cap;
        }
        SoloResult *r = &S->out[S->n_out++];
        r->hand = hand;
        r->a = a;
        r->d = d;
        r->n = S->depth;
        r->plays = (uint32_t)S->n_plays;
        if (S->with_plays) {
            if (!room_for_plays(&S->plays_c, &S->plays_pile, &S->cap_plays, S->n_plays,
                                (size_t)S->depth)) {
                S->oom = 1;
                return;
            }
            memcpy(S->plays_c + S->n_plays, S->path_c, (size_t)S->depth);
            memcpy(S->plays_pile + S->n_plays, S->path_pile, (size_t)S->depth);
            S->n_plays += (size_t)S->depth;
        }
        if (hand == 0 && S->empty) return; /* all played */
    }
    const int step = S->step, own_a = 2 * S->p, own_d = 2 * S->p + 1;
    for (CardMask64 left = hand; left; left &= left - 1) {
        const int c = __builtin_ctzll(left);
        const CardMask64 rest = hand & ~((CardMask64)1 << c);
        const uint32_t rest_bits = S->seen64 ? bits & ~(1u << S->seen64->bit[c]) : 0;
        S->path_c[S->depth] = (uint8_t)c;
        S->depth++;
        /* robust: the turn's first card onto each pile is a normal play */
        if (pile_accepts(1, a, c, step) && !(S->robust && !ta && c < a) &&
            solo_first(S, rest, rest_bits, c, d, 1, td)) {
            S->path_pile[S->depth - 1] = (uint8_t)own_a;
            solo_visit(S, rest, rest_bits, c, d, 1, td, n + 1);
        }
        if (pile_accepts(0, d, c, step) && !(S->robust && !td && c > d) &&
            solo_first(S, rest, rest_bits, a, c, ta, 1)) {
            S->path_pile[S->depth - 1] = (uint8_t)own_d;
            solo_visit(S, rest, rest_bits, a, c, ta, 1, n + 1);
        }
        S->depth--;
    }
}

int solo_list(const DuelRules *g, SoloSearch *S, int p, const SoloState *st, int robust, int m,
              int plays) {
    memset(S, 0, sizeof *S);
    S->with_plays = plays;
    S->g = g;
    S->p = p;
    S->empty = st->at == g->deck_len[p];
    S->m = m ? m : S->empty ? g->min_play_empty : g->min_play;
    S->robust = robust;
    S->step = g->step;
    uint32_t bits = 0;
    if (card_count64(st->hand) <= SEEN_CARDS) {
        S->seen64 = scratch_seen(1);
        seen64_cards(S->seen64, st->hand);
        bits = (1u << card_count64(st->hand)) - 1;
    } else {
        S->seen = scratch_set(1);
    }
    if (!S->seen && !S->seen64)
        S->oom = 1;
    else if (solo_first(S, st->hand, bits, st->a, st->d, 0, 0))
        solo_visit(S, st->hand, bits, st->a, st->d, 0, 0, 0);
    if (S->oom) {
        free(S->out);
        free(S->plays_c);
        free(S->plays_pile);
        S->out = NULL;
        S->plays_c = S->plays_pile = NULL;
        return 0;
    }
    return 1;
}
