/* optimum.finish_greedily and its _first_turn: a partial best line made a
 * whole game, each turn the first one in move order that ends legally (a
 * turn that leaves a fire card uncovered only when no other can end). */
#include <stdlib.h>

#include "search.h"

/* The kernel's min_met and end_loses (Extreme: no end loses, X2) */
static int min_met(const Kernel *k) {
    return k->extreme ? x_can_end(k) : k->s.t >= k->s.turn_min;
}

static int end_loses(const Kernel *k) { return !k->extreme && k->s.pending != 0; }

/* _first_turn's rec: the plays found are in ``plays`` (``*n`` of them); the
 * kernel is back where it was. ``failed``: the positions of this turn that
 * lead nowhere (plays commute, so positions recur). */
static int first_turn(Kernel *k, Table *failed, Action *plays, int *n, int allow_fire_loss) {
    if (won(k)) return 1;
    if (k->s.t > 0 && min_met(k) && (allow_fire_loss || !end_loses(k))) return 1;
    if (k->s.t >= k->s.max_turn && k->s.pos < k->total) return 0;
    uint64_t key[MAX_KEY_WORDS];
    make_key(k, key);
    if (tab_get(failed, key)) return 0;
    tab_put(failed, key, 1); /* a full table forgets: more work, same answer */
    Move ms[MAX_MOVES];
    int m = moves(k, ms);
    for (int i = 0; i < m; i++) {
        PlayUndo u = play(k, ms[i].c, ms[i].pile);
        plays[(*n)++] = (Action){(int16_t)ms[i].c, (int16_t)ms[i].pile};
        int found = first_turn(k, failed, plays, n, allow_fire_loss);
        unplay(k, ms[i].c, ms[i].pile, u);
        if (found) return 1;
        (*n)--;
    }
    return 0;
}

int finish_greedily(Kernel *k, Line *line) {
    Table failed;
    if (!tab_init(&failed, k->ks.kw, (size_t)1 << 20)) {
        tab_free(&failed);
        return 0;
    }
    Action plays[KERNEL_MAX_SIZE];
    int ok = 1;
    while (ok && k->s.unplayed) {
        int n = 0, lost = 0;
        tab_clear(&failed);
        int found = first_turn(k, &failed, plays, &n, 0);
        if (!found && k->s.pending) {
            /* no turn covers the fire card: play what can be played, then
             * the end of the turn loses (F2) */
            n = 0;
            tab_clear(&failed);
            found = first_turn(k, &failed, plays, &n, 1);
            lost = 1;
        }
        if (!found) break; /* no legal turn: the game is over (C8) */
        for (int i = 0; i < n && ok; i++) {
            play(k, plays[i].c, plays[i].p);
            ok = line_push(line, plays[i]);
        }
        ok = ok && line_push(line, END_TURN);
        if (lost && k->s.pending && k->s.unplayed) break;
        end_turn(k);
    }
    tab_free(&failed);
    return ok;
}
