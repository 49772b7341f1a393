/* The blind policy (blind.py): BlindPolicy.score, the turn search
 * (_TurnSearch), the search for a line that clears the hand (_clear_line)
 * and BlindPolicy.choose_turn, which runs them. */
#include "rollout.h"

/* ---- BlindPolicy.score --------------------------------------------------- */

/* Inlined with the piles and `depth` constants where it can be (see
 * score), so that the compiler unrolls the loops over them and keeps `at`
 * in registers. A pile's cover, partner and window come from the tables
 * (module.c's fill_scores); the double operations are Python's, in its
 * order. */
static inline __attribute__((always_inline)) double score_body(const Tables *tb, const int *tops,
                                                               CardMask hand, CardMask out,
                                                               int played, int fresh_fire,
                                                               const int n_piles, const int n_asc,
                                                               const int depth) {
    CardMask at[MAX_DEPTH]; /* at[k]: cards at least k+1 piles can take */
    for (int k = 0; k < depth; k++) at[k] = 0;
    double credit = 0.0;
    for (int i = 0; i < n_piles; i++) {
        const int t = tops[i], d = i < n_asc ? 0 : 1;
        const CardMask cover = tb->cover[d][t], bit = tb->partner[d][t];
        if (out & bit) {
            double w = (hand & bit) ? tb->trick_hand : tb->trick_unseen;
            credit += w * (double)card_count(tb->window[d][t] & out);
        }
        for (int k = depth - 1; k > 0; k--) at[k] |= at[k - 1] & cover;
        if (depth > 0) at[0] |= cover;
    }
    double cost = 0.0;
    for (int k = 0; k < depth; k++) {
        CardMask miss = ~at[k];
        double ws = tb->out_steps[k];
        if (ws != 0.0) cost += ws * (double)card_count(out & miss);
        double wh = tb->hand_steps[k];
        if (wh != 0.0) cost += wh * (double)card_count(hand & miss);
    }
    /* Python: cost - credit - p.play_bonus * played + p.fire_cost * fresh_fire,
     * evaluated left to right. */
    double r = cost - credit;
    r = r - tb->play_bonus * (double)played;
    r = r + tb->fire_cost * (double)fresh_fire;
    return r;
}

/* BlindPolicy.score: the cost of an end-of-turn position (lower is better). */
static double score(const Tables *tb, const int *tops, CardMask hand, CardMask out, int played,
                    int fresh_fire) {
    /* the default weights (BlindParams: 4 costs) on the four piles of the
     * classic family */
    if (tb->depth == 4 && tb->n_piles == 4 && tb->n_asc == 2)
        return score_body(tb, tops, hand, out, played, fresh_fire, 4, 2, 4);
    return score_body(tb, tops, hand, out, played, fresh_fire, tb->n_piles, tb->n_asc,
                      tb->depth);
}

/* ---- _TurnSearch ---------------------------------------------------------- */

typedef struct {
    const Tables *tb;
    KeySet *seen;
    int tops[ROLLOUT_MAX_PILES];
    SetKey key;                  /* the `seen` key of the node: hand, tops as bytes */
    int cards[ROLLOUT_MAX_HAND]; /* the hand at the start of the search, sorted */
    int n_cards;
    uint8_t rank[MAX_TOP + 1]; /* rank[x]: how many of those cards are below x */
    /* A node's cards out are those out at the start of the search less the
     * hand's cards it played (the positions not in its ``hm``), so how many
     * of them are below x is a count at the start less a 64-bit popcount.
     * Per top t of a pile, [0] ascending, [1] descending, at the start of
     * the search: the positions of the hand's cards beyond t (``reach``),
     * the position of its trick card when it is in the hand (``back``, a
     * bit, or 0) and the count of cards out below t (+1 ascending); per
     * position j, the count of cards out below cards[j]. */
    uint64_t reach[2][MAX_TOP + 1], back[2][MAX_TOP + 1];
    int out_at[2][MAX_TOP + 1], out_card[ROLLOUT_MAX_HAND];
    uint64_t all; /* the positions of the whole hand */
    int need;
    unsigned char old_fire[ROLLOUT_MAX_PILES], changed[ROLLOUT_MAX_PILES];
    long free_gap, slack;
    Line path;
    int has_best, has_unsafe;
    double best_cost, unsafe_cost;
    Line best, unsafe, longest;
    Options *ends; /* when not NULL: the best safe ends (turn_options) */
} TurnSearch;

/* The piles a node plays on: per pile, which cards of the hand it takes,
 * as a mask over their positions in the sorted hand (a normal play, C5,
 * takes a run of positions; a backward trick one position), and the cards
 * still out below its top (+1 for an ascending pile), from which the gap of
 * a play is a difference of counts. */
typedef struct {
    int n;
    int pile[ROLLOUT_MAX_PILES], below_top[ROLLOUT_MAX_PILES];
    uint64_t takes[ROLLOUT_MAX_PILES], tricks[ROLLOUT_MAX_PILES];
    uint64_t any; /* the positions some pile takes */
} PileTakes;

/* turn_options keeps the first k of the ends sorted by cost (a stable
 * sort: an end goes after the ones found earlier with the same cost). */
static void keep_end(Options *o, double cost, const Line *path) {
    int p = o->n;
    while (p > 0 && cost < o->cost[p - 1]) p--;
    if (p >= o->k) return;
    int last = o->n < o->k ? o->n : o->k - 1;
    for (int q = last; q > p; q--) {
        o->cost[q] = o->cost[q - 1];
        o->line[q] = o->line[q - 1];
    }
    o->cost[p] = cost;
    o->line[p] = *path;
    if (o->n < o->k) o->n++;
}

/* _TurnSearch._consider: an end of the turn, kept when it is the best so
 * far (fire-safe ones apart from the others). */
static void consider(TurnSearch *S, CardMask hand, CardMask out) {
    const Tables *tb = S->tb;
    int fresh = 0, safe = 1;
    if (tb->has_fire) {
        for (int i = 0; i < tb->n_piles; i++) {
            if (tb->fire[S->tops[i]]) {
                if (S->changed[i] || !S->old_fire[i])
                    fresh++;
                else
                    safe = 0;
            }
        }
        if (out == 0) safe = 1; /* F3: a clear ends the game before any deadline */
    }
    double cost = score(tb, S->tops, hand, out, S->path.n, fresh);
    if (safe && S->ends) keep_end(S->ends, cost, &S->path);
    if (safe) {
        if (!S->has_best || cost < S->best_cost) {
            S->has_best = 1;
            S->best_cost = cost;
            S->best = S->path;
        }
    } else if (!S->has_unsafe || cost < S->unsafe_cost) {
        S->has_unsafe = 1;
        S->unsafe_cost = cost;
        S->unsafe = S->path;
    }
}

/* The piles to try and what each takes of the hand ``hm``. Piles of one
 * direction with the same top are interchangeable: only the first is
 * tried. (Python keeps a `tried` set per card; a pile with an earlier twin
 * takes a card exactly when the twin does, so skipping it for every card
 * is the same. Tops are distinct cards except the piles' start values, so
 * only those are compared.) */
static inline void pile_takes(const TurnSearch *S, uint64_t hm, PileTakes *pt) {
    const uint64_t played = S->all & ~hm;
    const Tables *tb = S->tb;
    pt->n = 0;
    pt->any = 0;
    for (int i = 0; i < tb->n_piles; i++) {
        const int asc = i < tb->n_asc, t = S->tops[i], d = !asc;
        int twin = 0;
        if (t == (asc ? tb->low - 1 : tb->high + 1)) /* the start value */
            for (int q = asc ? 0 : tb->n_asc; q < i; q++) twin |= S->tops[q] == t;
        if (twin) continue;
        const uint64_t reach = S->reach[d][t];
        const uint64_t trick = hm & S->back[d][t];
        const uint64_t take = (hm & reach) | trick;
        const int u = pt->n++;
        pt->pile[u] = i;
        pt->takes[u] = take;
        pt->tricks[u] = trick;
        /* the cards out below the top (+1 ascending): the played ones under
         * it are the positions the pile does not reach (ascending) or does */
        pt->below_top[u] =
            S->out_at[d][t] - __builtin_popcountll(played & (asc ? ~reach : reach));
        pt->any |= take;
    }
}

/* The gap of a normal play of hand position j on pile u: the cards still
 * out strictly between the top and the card */
static inline int play_gap(const TurnSearch *S, const PileTakes *pt, uint64_t played, int u,
                           int j) {
    /* cards out below the card (the rank of cards[j] is j); it is out itself */
    const int below_c = S->out_card[j] - __builtin_popcountll(played & (((uint64_t)1 << j) - 1));
    return pt->pile[u] < S->tb->n_asc ? below_c - pt->below_top[u]
                                      : pt->below_top[u] - below_c - 1;
}

/* The least gap of the node's plays (a backward trick's is -1); there is at
 * least one play. A pile's normal plays have gaps growing with the card on
 * an ascending pile (shrinking on a descending one), so its least is at its
 * lowest (highest) card. */
static inline int least_gap(const TurnSearch *S, const PileTakes *pt, uint64_t played) {
    int least = 0, any = 0;
    for (int u = 0; u < pt->n; u++) {
        const uint64_t normal = pt->takes[u] & ~pt->tricks[u];
        int gap;
        if (pt->tricks[u])
            gap = -1;
        else if (normal)
            gap = play_gap(S, pt, played, u,
                           pt->pile[u] < S->tb->n_asc ? __builtin_ctzll(normal)
                                                      : 63 - __builtin_clzll(normal));
        else
            continue;
        if (!any || gap < least) least = gap;
        any = 1;
    }
    return least;
}

/* The plays the pruning lets through, per pile: the positions of the cards
 * whose gap is at most ``limit`` (Python lists every play with its gap and
 * skips those over the limit; the gaps grow monotonically along a pile's
 * normal plays, so a scan from the closest card stops at the first one
 * over), every play onto a pile whose fire card is due this turn (rule F2:
 * never pruned); their union is returned. */
static inline uint64_t pass_plays(const TurnSearch *S, const PileTakes *pt, uint64_t played,
                                  long limit, uint64_t *pass) {
    uint64_t any = 0;
    for (int u = 0; u < pt->n; u++) {
        const int i = pt->pile[u];
        uint64_t ok;
        if ((S->old_fire[i] && !S->changed[i]) || limit > MAX_CARD) {
            ok = pt->takes[u]; /* every gap is below 128 */
        } else {
            ok = limit >= -1 ? pt->tricks[u] : 0;
            uint64_t normal = pt->takes[u] & ~pt->tricks[u];
            if (i < S->tb->n_asc) {
                for (; normal; normal &= normal - 1) {
                    const int j = __builtin_ctzll(normal);
                    if (play_gap(S, pt, played, u, j) > limit) break;
                    ok |= (uint64_t)1 << j;
                }
            } else {
                while (normal) {
                    const int j = 63 - __builtin_clzll(normal);
                    if (play_gap(S, pt, played, u, j) > limit) break;
                    ok |= (uint64_t)1 << j;
                    normal &= ~((uint64_t)1 << j);
                }
            }
        }
        pass[u] = ok;
        any |= ok;
    }
    return any;
}

/* A node of the search, already added to `seen` by the caller (Python's
 * _visit returns at once for a key it has seen; checking before the call
 * is the same and saves the call). Its plays go in Python's order: the
 * cards in ascending order, each on the piles in pile order. (flatten:
 * every call but the recursion is inlined, keyset_add too, which GCC
 * would otherwise call: about 3% fewer instructions.) */
__attribute__((flatten)) static void visit(TurnSearch *S, uint64_t hm, CardMask hand, CardMask out) {
    const Tables *tb = S->tb;
    const int depth = S->path.n;
    if (depth > S->longest.n) S->longest = S->path;
    if (depth >= S->need) consider(S, hand, out);
    PileTakes pt;
    pile_takes(S, hm, &pt);
    if (!pt.any) return; /* no play */
    const uint64_t played = S->all & ~hm;
    const long limit = depth >= S->need ? S->free_gap : (long)least_gap(S, &pt, played) + S->slack;
    uint64_t pass[ROLLOUT_MAX_PILES];
    const uint64_t plays = pass_plays(S, &pt, played, limit, pass);
    for (uint64_t rest = plays; rest; rest &= rest - 1) {
        const int j = __builtin_ctzll(rest);
        const int c = S->cards[j];
        const uint64_t child = hm & ~((uint64_t)1 << j);
        for (int u = 0; u < pt.n; u++) {
            if (!((pass[u] >> j) & 1)) continue;
            const int i = pt.pile[u];
            const int t = S->tops[i];
            key_set_top(&S->key, i, c); /* S->key: the child's tops and hand */
            S->key.w[0] = child;
            /* new (a set that could not grow counts as seen: ``oom`` ends the game) */
            if (keyset_add(S->seen, &S->key) > 0) {
                const unsigned char was = S->changed[i];
                S->tops[i] = c;
                S->changed[i] = 1;
                S->path.card[depth] = (uint8_t)c;
                S->path.pile[depth] = (uint8_t)i;
                S->path.n = depth + 1;
                visit(S, child, hand & ~tb->bit[c], out & ~tb->bit[c]);
                S->path.n = depth;
                S->changed[i] = was;
                S->tops[i] = t;
            }
            key_set_top(&S->key, i, t);
        }
    }
}

/* _TurnSearch(...): the search of a turn from the game's position, with
 * the hand's cards sorted in ``cards`` */
static void turn_search_init(TurnSearch *S, const Tables *tb, const Game *g, KeySet *set,
                             const int *cards, int n_cards) {
    const CardMask hand = g->hands[g->current];
    S->tb = tb;
    S->seen = set;
    memcpy(S->cards, cards, sizeof S->cards);
    S->n_cards = n_cards;
    for (int x = 0, r = 0; x <= tb->high + 1; x++) {
        S->rank[x] = (uint8_t)r;
        r += x <= MAX_CARD && (hand & tb->bit[x]) ? 1 : 0;
    }
    int out_below[MAX_TOP + 2]; /* cards out below x */
    for (int x = 0, r = 0; x <= tb->high + 1; x++) {
        out_below[x] = r;
        r += x <= MAX_CARD && (g->unplayed & tb->bit[x]) ? 1 : 0;
    }
    for (int j = 0; j < n_cards; j++) S->out_card[j] = out_below[cards[j]];
    /* the tops a pile can show: its start value, or a card */
    for (int t = tb->low - 1; t <= tb->high + 1; t++) {
        const uint64_t below_t = ((uint64_t)1 << S->rank[t]) - 1;
        S->reach[0][t] = t <= tb->high ? ~(((uint64_t)1 << S->rank[t + 1]) - 1) : 0;
        S->reach[1][t] = below_t;
        S->out_at[0][t] = t <= tb->high ? out_below[t + 1] : 0;
        S->out_at[1][t] = out_below[t];
        for (int d = 0; d < 2; d++) {
            /* the trick card is in the hand when the rank steps over it */
            const int b = trick_card(d == 0, t, tb->step);
            S->back[d][t] = b >= tb->low && b <= tb->high && S->rank[b + 1] != S->rank[b]
                                ? (uint64_t)1 << S->rank[b]
                                : 0;
        }
    }
    S->all = all_positions(n_cards);
    const int need = g->turn_min - g->placed;
    S->need = need < 0 ? 0 : need;
    S->ends = NULL;
    for (int i = 0; i < tb->n_piles; i++)
        S->old_fire[i] = tb->fire[g->tops[i]] && g->top_turn[i] < g->turn;
}

/* _TurnSearch.run with the pruning's ``free_gap`` and ``slack`` */
static void turn_search_run(TurnSearch *S, const Game *g, long free_gap, long slack) {
    const Tables *tb = S->tb;
    const CardMask hand = g->hands[g->current];
    const uint64_t all = all_positions(S->n_cards);
    memcpy(S->tops, g->tops, sizeof S->tops);
    make_key(&S->key, S->tops, tb->n_piles, 0);
    memset(S->changed, 0, sizeof S->changed);
    S->free_gap = free_gap;
    S->slack = slack;
    S->path.n = 0;
    S->has_best = S->has_unsafe = 0;
    S->longest.n = 0;
    keyset_clear(S->seen);
    S->key.w[0] = all;
    keyset_add(S->seen, &S->key);
    visit(S, all, hand, g->unplayed);
}

/* ---- _clear_line ----------------------------------------------------------- */

typedef struct {
    const Tables *tb;
    KeySet *failed;
    int tops[ROLLOUT_MAX_PILES];
    int cards[ROLLOUT_MAX_HAND];
    int n_cards;
    Line path;
} ClearSearch;

static int clear_search(ClearSearch *C, uint64_t left) {
    if (!left) return 1;
    const Tables *tb = C->tb;
    SetKey key;
    make_key(&key, C->tops, tb->n_piles, left);
    if (keyset_has(C->failed, &key)) return 0;
    for (int j = 0; j < C->n_cards; j++) {
        if (!((left >> j) & 1)) continue;
        const int c = C->cards[j];
        for (int i = 0; i < tb->n_piles; i++) {
            const int t = C->tops[i];
            if (!pile_accepts(i < tb->n_asc, t, c, tb->step)) continue;
            C->tops[i] = c;
            C->path.card[C->path.n] = (uint8_t)c;
            C->path.pile[C->path.n] = (uint8_t)i;
            C->path.n++;
            const int found = clear_search(C, left & ~((uint64_t)1 << j));
            C->tops[i] = t;
            if (found) return 1;
            C->path.n--;
        }
    }
    keyset_add(C->failed, &key);
    return 0;
}

/* _clear_line: a line that plays every card of the hand this turn, into
 * ``result``; 0 when there is none */
static int clear_line(const Tables *tb, const Game *g, KeySet *set, const int *cards,
                      int n_cards, Line *result) {
    ClearSearch C;
    C.tb = tb;
    C.failed = set;
    memcpy(C.tops, g->tops, sizeof C.tops);
    memcpy(C.cards, cards, sizeof C.cards);
    C.n_cards = n_cards;
    C.path.n = 0;
    keyset_clear(set);
    if (!clear_search(&C, all_positions(n_cards))) return 0;
    *result = C.path;
    return 1;
}

/* ---- BlindPolicy.choose_turn ------------------------------------------------ */

void choose_turn(const Tables *tb, const Game *g, KeySet *set, Line *result) {
    const CardMask hand = g->hands[g->current];
    int cards[ROLLOUT_MAX_HAND];
    const int n_cards = card_list(hand, cards);
    /* Every card still out is in this hand: look for a line that plays
     * them all in this turn. */
    if (g->unplayed == hand && (tb->fire_safe_at_clear || !tb->has_fire) &&
        clear_line(tb, g, set, cards, n_cards, result))
        return;
    TurnSearch S;
    turn_search_init(&S, tb, g, set, cards, n_cards);
    turn_search_run(&S, g, tb->free_gap, tb->forced_slack);
    /* The pruning cut every safe way to finish the turn: look again
     * without it. */
    if (!S.has_best) turn_search_run(&S, g, tb->high, tb->high);
    if (S.has_best)
        *result = S.best;
    else if (S.has_unsafe)
        *result = S.unsafe;
    else
        *result = S.longest;
}

/* ---- BlindPolicy.turn_options ------------------------------------------------ */

void turn_options(const Tables *tb, const Game *g, KeySet *set, Options *out) {
    const CardMask hand = g->hands[g->current];
    int cards[ROLLOUT_MAX_HAND];
    const int n_cards = card_list(hand, cards);
    out->n = 0;
    if (out->k < 1) return;
    /* A line that clears the game is listed alone. */
    if (g->unplayed == hand && (tb->fire_safe_at_clear || !tb->has_fire) &&
        clear_line(tb, g, set, cards, n_cards, &out->line[0])) {
        out->cost[0] = -__builtin_inf();
        out->n = 1;
        return;
    }
    TurnSearch S;
    turn_search_init(&S, tb, g, set, cards, n_cards);
    S.ends = out;
    turn_search_run(&S, g, tb->free_gap, tb->forced_slack);
    if (out->n) return;
    turn_search_run(&S, g, tb->high, tb->high);
    if (out->n) return;
    /* No fire-safe end: the turn choose_turn would play, alone. */
    out->cost[0] = 0.0;
    out->line[0] = S.has_unsafe ? S.unsafe : S.longest;
    out->n = 1;
}
