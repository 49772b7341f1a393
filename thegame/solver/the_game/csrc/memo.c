/* The memo: the position's key (Kernel.key, ExtremeKernel.key) as the
 * compiled tables hold it, and the dead memo of a search (dfs.Searcher:
 * ``dead``, ``_is_dead``, ``_bury``). The tables themselves are hashtable.h's. */
#include "memo.h"

#include <stdlib.h>
#include <string.h>

/* Kernel.key, as words. Word 0: the sorted marked tops (8 bits each: the
 * top and the pending-fire mark). The rest in one of two layouts, fixed
 * per game (``key_shape``):
 * - masks: each hand as two words (a 128-bit mask), then pos, cur and the
 *   capped turn count (with Extreme's flags above its low 8 bits);
 * - compact, where it takes fewer words: one bit stream of the turn count
 *   and flags, cur and pos, then each hand's cards in ascending order, 7
 *   bits each, padded with 127 up to the hand size. A hand never holds more
 *   than the hand size (``check_state``) and no card is 127 here (the card
 *   range is at most 127), so the stream is read back one way only.
 * The memo tables hold whole keys, so a shorter key is more positions in
 * the same memory: profi-hard, one player, 2 words instead of 4; three
 * players, 3 instead of 8. Equal words exactly when Python's tuples are
 * equal. */
static int bits_for(int v) {
    int b = 0;
    while (b < 31 && (1 << b) <= v) b++;
    return b;
}

KeyShape key_shape(int players, int hand, int size, int total, int min_play, int extreme) {
    KeyShape ks;
    int tmax = hand > min_play ? hand : min_play;
    if (tmax < 3) tmax = 3; /* Extreme caps the turn count at max(m, 3) */
    ks.hand = hand;
    ks.tbits = bits_for(tmax);
    ks.fbits = extreme ? 2 : 0; /* X_STOP, X_THREE */
    ks.cbits = bits_for(players - 1);
    ks.pbits = bits_for(total);
    int bits = ks.tbits + ks.fbits + ks.cbits + ks.pbits + 7 * hand * players;
    int compact_kw = 1 + (bits + 63) / 64, mask_kw = 2 + 2 * players;
    ks.compact = size <= 127 && compact_kw < mask_kw;
    ks.kw = ks.compact ? compact_kw : mask_kw;
    return ks;
}

uint64_t tops_word(int n_asc, int n_piles, const int *marked) {
    int a[KERNEL_MAX_PILES];
    memcpy(a, marked, sizeof(int) * n_piles);
    for (int g = 0; g < 2; g++) {
        int from = g ? n_asc : 0, to = g ? n_piles : n_asc;
        for (int i = from + 1; i < to; i++) {
            int v = a[i], j = i - 1;
            while (j >= from && a[j] > v) { a[j + 1] = a[j]; j--; }
            a[j + 1] = v;
        }
    }
    uint64_t w = 0;
    for (int i = 0; i < n_piles; i++) w |= (uint64_t)(a[i] & 0xff) << (8 * i);
    return w;
}

static inline void put_bits(uint64_t *w, int *at, uint64_t v, int n) {
    if (n == 0) return;
    int i = *at >> 6, off = *at & 63;
    w[i] |= v << off;
    if (off + n > 64) w[i + 1] |= v >> (64 - off);
    *at += n;
}

/* The key's words into ``out``; -1 when the position does not fit the
 * shape (a hand over the hand size, a count past its field): then it is no
 * position of this game. */
int key_words(const KeyShape *ks, int n_asc, int n_piles, int players, const int *marked,
                     const CardMask *hands, int pos, int cur, int t, int flags, uint64_t *out) {
    out[0] = tops_word(n_asc, n_piles, marked);
    if (!ks->compact) {
        int tail = ks->fbits ? (t & 0xff) | (flags << 8) : t;
        for (int p = 0; p < players; p++) {
            out[1 + 2 * p] = (uint64_t)hands[p];
            out[2 + 2 * p] = (uint64_t)(hands[p] >> 64);
        }
        out[1 + 2 * players] = (uint64_t)(uint32_t)pos | ((uint64_t)(uint16_t)cur << 32) |
                               ((uint64_t)(uint16_t)tail << 48);
        return ks->kw;
    }
    if (t < 0 || t > tmax_of(ks) || flags < 0 || flags >= (1 << ks->fbits) || cur < 0 ||
        cur >= (1 << ks->cbits) || pos < 0 || pos >= (1 << ks->pbits))
        return -1;
    memset(out + 1, 0, sizeof(uint64_t) * (ks->kw - 1));
    int at = 0;
    put_bits(out + 1, &at, (uint64_t)t | ((uint64_t)flags << ks->tbits), ks->tbits + ks->fbits);
    put_bits(out + 1, &at, (uint64_t)cur, ks->cbits);
    put_bits(out + 1, &at, (uint64_t)pos, ks->pbits);
    for (int p = 0; p < players; p++) {
        CardMask h = hands[p];
        if (card_count(h) > ks->hand || (h >> 127)) return -1;
        for (int i = 0; i < ks->hand; i++) {
            int c = h ? lowest_card(h) : 127;
            put_bits(out + 1, &at, (uint64_t)c, 7);
            h &= h - 1;
        }
    }
    return ks->kw;
}

int make_key(const Kernel *k, uint64_t *out) {
    int marked[KERNEL_MAX_PILES];
    if (k->extreme) {
        for (int i = 0; i < k->n_piles; i++)
            marked[i] = k->s.tops[i] * 2 + ((k->s.pending >> i) & 1);
        return key_words(&k->ks, k->n_asc, k->n_piles, k->players, marked, k->s.hands,
                         k->s.pos, k->s.cur, x_key_turns(k), k->s.pending >> 20, out);
    }
    for (int i = 0; i < k->n_piles; i++)
        marked[i] = k->s.tops[i] | (((k->s.pending >> i) & 1) << 7);
    return key_words(&k->ks, k->n_asc, k->n_piles, k->players, marked, k->s.hands, k->s.pos,
                     k->s.cur, key_turns(k), 0, out);
}

/* ---- the dead memo (dfs.Searcher) ------------------------------------------ */
/* Searcher._is_dead's dominance: a position this search proved dead with
 * the same rest of the key whose tops each take all the current ones take
 * (a top marked with a fire card due pairs only with itself) */
int memo_dominated(DeadMemo *m, const Kernel *k, const uint64_t *key) {
    if (k->extreme || !m->gtops) return 0;
    int32_t *head = tab_get(&m->groups, key + 1);
    if (!head) return 0;
    CardMask un = k->s.unplayed;
    for (int32_t j = *head; j >= 0; j = m->gnext[j]) {
        uint64_t dw = m->gtops[j];
        int ok = 1;
        for (int i = 0; ok && i < k->n_piles; i++) {
            int a = (int)((dw >> (8 * i)) & 0xff), b = (int)((key[0] >> (8 * i)) & 0xff);
            if (a != b && ((a | b) & 0x80 || !takes_all_of(i < k->n_asc, a, b, k->step, un)))
                ok = 0;
        }
        if (ok) {
            m->dominated++;
            return 1;
        }
    }
    return 0;
}

/* Searcher._bury's chain of tops (past ``gmax`` entries the chains stop
 * growing: sound, a memo entry only saves work) */
void memo_bury(DeadMemo *m, const Kernel *k, const uint64_t *key) {
    if (k->extreme || m->gn >= m->gmax) return;
    if (m->gn == m->gcap) {
        size_t ncap = m->gcap ? m->gcap * 2 : 4096;
        if (ncap > m->gmax) ncap = m->gmax;
        uint64_t *nt = realloc(m->gtops, ncap * sizeof(uint64_t));
        if (!nt) return;
        m->gtops = nt;
        int32_t *nn = realloc(m->gnext, ncap * sizeof(int32_t));
        if (!nn) return;
        m->gnext = nn;
        m->gcap = ncap;
    }
    int32_t *head = tab_get(&m->groups, key + 1);
    size_t before = m->groups.count;
    int32_t next = head ? *head : -1;
    tab_put(&m->groups, key + 1, (int32_t)m->gn);
    if (!head && m->groups.count == before) return; /* the group table is full */
    m->gtops[m->gn] = key[0];
    m->gnext[m->gn] = next;
    m->gn++;
}
