/* The rules engine's turn cycle as blind.play_out drives it
 * (models/the_game/state.py, classic family): the plays, end_turn with its
 * draw (C6), the fire deadline (F2, F3), the clear (C7), the skip of empty
 * hands, the next turn's minimum (C4/P1) and has_legal_turn (C8). */
#include "rollout.h"

/* GameState.has_legal_turn's search: can the player make ``need`` plays in
 * a row? (``failed``: the positions known not to) */
typedef struct {
    const Tables *tb;
    KeySet *failed;
    int tops[ROLLOUT_MAX_PILES];
    int cards[ROLLOUT_MAX_HAND]; /* the hand, sorted; ``hm`` masks their positions */
    int n_cards;
} LegalSearch;

static int legal_search(LegalSearch *L, uint64_t hm, int need) {
    if (need <= 0) return 1;
    const Tables *tb = L->tb;
    SetKey key;
    make_key(&key, L->tops, tb->n_piles, hm);
    if (keyset_has(L->failed, &key)) return 0;
    for (int j = 0; j < L->n_cards; j++) {
        if (!((hm >> j) & 1)) continue;
        const int c = L->cards[j];
        for (int i = 0; i < tb->n_piles; i++) {
            const int t = L->tops[i];
            if (!pile_accepts(i < tb->n_asc, t, c, tb->step)) continue;
            L->tops[i] = c;
            const int found = legal_search(L, hm & ~((uint64_t)1 << j), need - 1);
            L->tops[i] = t;
            if (found) return 1;
        }
    }
    keyset_add(L->failed, &key);
    return 0;
}

/* GameState.has_legal_turn at the start of a turn: can the player make
 * max(1, m) plays in a row? (The engine's search needs one play before it
 * asks whether the turn may end.) */
static int has_legal_turn(const Tables *tb, const Game *g, KeySet *set) {
    LegalSearch L;
    L.tb = tb;
    L.failed = set;
    L.n_cards = card_list(g->hands[g->current], L.cards);
    const int need = g->turn_min > 1 ? g->turn_min : 1;
    if (L.n_cards < need) return 0;
    memcpy(L.tops, g->tops, sizeof L.tops);
    keyset_clear(set);
    return legal_search(&L, all_positions(L.n_cards), need);
}

/* C6: the player draws back up to the hand size while the draw pile lasts */
static void draw(const Tables *tb, Game *g) {
    const int me = g->current;
    int want = tb->hand_size - card_count(g->hands[me]);
    int left = g->stock_len - g->stock_pos;
    int take = want < left ? want : left;
    if (take < 0) take = 0;
    for (int k = 0; k < take; k++) g->hands[me] |= tb->bit[g->stock[g->stock_pos + k]];
    g->stock_pos += take;
}

void end_turn(const Tables *tb, Game *g, KeySet *set) {
    draw(tb, g);
    const int all_played = g->unplayed == 0;
    if (tb->has_fire && !(all_played && tb->fire_safe_at_clear)) {
        for (int i = 0; i < tb->n_piles; i++) {
            /* F2: a fire card laid in an earlier turn had this turn as its
             * deadline; F4: a newer one has its own. */
            if (tb->fire[g->tops[i]] && g->top_turn[i] < g->turn) {
                g->placed = 0;
                g->turn++;
                g->status = LOST;
                return;
            }
        }
    }
    g->placed = 0;
    g->turn++;
    if (all_played) {
        g->status = WON; /* C7 */
        return;
    }
    /* C7: once the draw pile is empty, a player with no cards is skipped. */
    int nxt = (g->current + 1) % g->players;
    for (int k = 0; k < g->players; k++) {
        if (g->hands[nxt]) break;
        nxt = (nxt + 1) % g->players;
    }
    g->current = nxt;
    g->turn_min = g->stock_pos < g->stock_len ? tb->min_play : tb->min_play_empty;
    if (!has_legal_turn(tb, g, set)) g->status = LOST; /* C8 */
}

void play_out(const Tables *tb, Game *g, KeySet *set) {
    Line line;
    while (g->status == IN_PROGRESS) {
        choose_turn(tb, g, set, &line);
        for (int k = 0; k < line.n; k++) {
            const int c = line.card[k], i = line.pile[k];
            g->hands[g->current] &= ~tb->bit[c];
            g->unplayed &= ~tb->bit[c];
            g->tops[i] = c;
            g->top_turn[i] = g->turn;
            g->placed++;
        }
        if (g->placed >= g->turn_min)
            end_turn(tb, g, set);
        else
            g->status = LOST; /* C8: the turn cannot reach its minimum */
    }
}
