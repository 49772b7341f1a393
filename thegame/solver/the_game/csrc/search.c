/* The searches: dfs.Searcher (``dfs``, iterated over the allowances by
 * ``search_run``) and the beams over whole turns that run before it
 * (``beam``: beam.TurnSearcher.beam, which FireBeamSearcher,
 * MultiBeamSearcher and extreme.beam.ExtremeBeamSearcher share; the modes
 * differ in how a turn is listed). */
#include "search.h"

#include <stdlib.h>
#include <string.h>

int line_push(Line *l, Action x) {
    if (l->n >= l->cap) {
        int ncap = l->cap ? l->cap * 2 : 256;
        Action *na = realloc(l->a, sizeof(Action) * ncap);
        if (!na) return 0;
        l->a = na;
        l->cap = ncap;
    }
    l->a[l->n++] = x;
    return 1;
}

static int line_copy(Line *dst, const Action *src, int n) {
    dst->n = 0;
    for (int i = 0; i < n; i++)
        if (!line_push(dst, src[i])) return 0;
    return 1;
}

static int fail_memory(Search *s) {
    if (!s->error) s->error = SEARCH_OUT_OF_MEMORY;
    return BUDGET;
}

/* Budgeted._tick: 1 when the budget ran out (or its progress failed) */
static inline int tick(Search *s) {
    int r = budget_spent(s->budget, ++s->nodes);
    if (r == BUDGET_GO_ON) return 0;
    if (r == BUDGET_FAIL && !s->error) s->error = SEARCH_PROGRESS_FAILED;
    return 1;
}

static int note_turn_end(Search *s) {
    int left = card_count(s->k->s.unplayed);
    if (left < s->best_left) {
        s->best_left = left;
        if (!line_copy(&s->best_path, s->path.a, s->path.n)) return 0;
    }
    return 1;
}

static int dfs(Search *s, int allowance);

static int child_end(Search *s, int allowance) {
    Kernel *k = s->k;
    TurnUndo u = end_turn(k);
    if (!line_push(&s->path, END_TURN) || !note_turn_end(s)) return fail_memory(s);
    int r = dfs(s, allowance);
    if (r == CLEAR || r == BUDGET) return r;
    s->path.n--;
    unend_turn(k, u);
    return r;
}

/* The child by the play of c on ``pile`` (_dfs's play branch, as
 * child_end is its END branch) */
static inline int child_play(Search *s, int c, int pile, int allowance, int autoend) {
    Kernel *k = s->k;
    PlayUndo u = play(k, c, pile);
    if (!line_push(&s->path, (Action){(int16_t)c, (int16_t)pile})) return fail_memory(s);
    if (won(k)) {
        if (!line_push(&s->path, END_TURN)) return fail_memory(s);
        return CLEAR;
    }
    int r = autoend ? child_end(s, allowance) : dfs(s, allowance);
    if (r == CLEAR || r == BUDGET) return r;
    s->path.n--;
    unplay(k, c, pile, u);
    return r;
}

/* The node's children in the order _dfs tries them, into ``ms`` (room for
 * MAX_MOVES + 1; END is a move with card -1): ending the turn goes first
 * unless some play costs nothing. How many; ``*order`` the first. */
static inline int node_children(const Kernel *k, Move *ms, Move **order) {
    const State *st = &k->s;
    int n = 0;
    if (st->t < st->max_turn || st->pos >= k->total) n = moves(k, ms + 1);
    int end_ok = st->t > 0 && can_end(k);
    int end_first = end_ok && (n == 0 || ms[1].cost > 0);
    *order = ms + 1;
    if (end_first) {
        ms[0] = (Move){0, -1, -1};
        *order = ms;
        return n + 1;
    }
    if (end_ok) {
        ms[n + 1] = (Move){0, -1, -1};
        return n + 1;
    }
    return n;
}

/* Searcher._dfs: the complete search of every mode (the beams come first) */
static int dfs(Search *s, int allowance) {
    Kernel *k = s->k;
    if (tick(s)) return BUDGET;
    long long start = s->nodes - 1;
    uint64_t key[MAX_KEY_WORDS];
    make_key(k, key);
    if (memo_is_dead(&s->memo, k, key)) return DEAD;
    int32_t *tv = s->unlimited ? NULL : tab_get(&s->tried, key);
    if ((tv ? *tv : -1) >= allowance) return OPEN;
    if (dead_mask(k)) {
        s->dead_card_cuts++;
        memo_add_dead(&s->memo, k, key, s->nodes - start);
        return DEAD;
    }
    if (stuck_ahead(k) || turn_cut(k)) {
        s->stuck_cuts++;
        memo_add_dead(&s->memo, k, key, s->nodes - start);
        return DEAD;
    }
    Move ms[MAX_MOVES + 1], *order;
    const int total = node_children(k, ms, &order);
    int complete = 1, autoend = auto_end(k);
    for (int rank = 0; rank < total; rank++) {
        int c = order[rank].c, pile = order[rank].pile;
        int cost = rank == 0 ? 0 : 1;
        if (cost > allowance) {
            complete = 0;
            break;
        }
        int r = c < 0 ? child_end(s, allowance - cost)
                      : child_play(s, c, pile, allowance - cost, autoend);
        if (r == CLEAR || r == BUDGET) return r;
        if (r == OPEN) complete = 0;
    }
    if (complete) {
        memo_add_dead(&s->memo, k, key, s->nodes - start);
        return DEAD;
    }
    if (!s->unlimited) tab_put(&s->tried, key, allowance);
    return OPEN;
}

/* ---- the beam (beam.TurnSearcher.beam) ------------------------------------- */

/* A position of the beam's layer, with its line and its evaluation */
typedef struct {
    int score;
    Line line;
    State snap;
} BeamEntry;

/* A child for the next layer: the ``n``th turn of entry ``idx``, its plays
 * in the arena; ``order`` is when it was found */
typedef struct {
    int score, n, idx, order;
    int off, len;
} Candidate;

/* The next layer's candidates, the plays of their turns, and the positions
 * they reach (``seen``: one child per position) */
typedef struct {
    Candidate *c;
    int n, cap;
    Action *arena;
    int alen, acap;
    Table seen;
} Candidates;

/* Python sorts the candidates by (score, n), stably */
static int cmp_cand(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    if (x->n != y->n) return x->n < y->n ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static void beam_free(BeamEntry *b, int n) {
    for (int i = 0; i < n; i++) free(b[i].line.a);
    free(b);
}

/* 0 when out of memory */
static int cands_add(Candidates *cs, int score, int n, int idx, const Action *plays, int np) {
    if (cs->n >= cs->cap) {
        int cap = cs->cap ? cs->cap * 2 : 1024;
        Candidate *nc = realloc(cs->c, sizeof(Candidate) * cap);
        if (!nc) return 0;
        cs->c = nc;
        cs->cap = cap;
    }
    if (cs->alen + np > cs->acap) {
        int cap = cs->acap ? cs->acap * 2 : 8192;
        while (cap < cs->alen + np) cap *= 2;
        Action *na = realloc(cs->arena, sizeof(Action) * cap);
        if (!na) return 0;
        cs->arena = na;
        cs->acap = cap;
    }
    memcpy(cs->arena + cs->alen, plays, sizeof(Action) * np);
    cs->c[cs->n] = (Candidate){score, n, idx, cs->n, cs->alen, np};
    cs->alen += np;
    cs->n++;
    return 1;
}

/* The children of the layer's entry ``idx`` (the kernel at its position):
 * its turns, cheapest first, at most ``per`` that reach a new position not
 * known to be dead. CLEAR when a turn wins (the line in ``path``), BUDGET,
 * else DEAD: go on. */
static int beam_children(Search *s, const BeamEntry *layer, int idx, int per, Candidates *cs) {
    Kernel *k = s->k;
    const SearchSettings *set = s->set;
    TurnKind kind = set->mode == MODE_EXTREME ? TURNS_EXTREME
                    : set->mode == MODE_FIRE  ? TURNS_FIRE
                                              : TURNS_SOLO;
    TurnList tl;
    if (!list_turns(k, &s->scratch, kind, set->branch, k->s.turn_min + 1, set->extra_cost, &tl))
        return fail_memory(s);
    int taken = 0, result = DEAD;
    /* The global cut keeps at most ``width`` children of one parent, and
     * they are its cheapest: look no further. */
    for (int n = 0; n < tl.n && taken < per && result == DEAD; n++) {
        if (tick(s)) {
            result = BUDGET;
            break;
        }
        Action *plays = tl.plays + tl.off[n];
        int np = tl.len[n];
        PlayUndo us[KERNEL_MAX_SIZE];
        for (int i = 0; i < np; i++) us[i] = play(k, plays[i].c, plays[i].p);
        if (won(k)) {
            int ok = line_copy(&s->path, layer[idx].line.a, layer[idx].line.n);
            for (int i = 0; ok && i < np; i++) ok = line_push(&s->path, plays[i]);
            ok = ok && line_push(&s->path, END_TURN);
            result = ok ? CLEAR : fail_memory(s);
            break;
        }
        TurnUndo tu = end_turn(k);
        uint64_t key[MAX_KEY_WORDS];
        make_key(k, key);
        if (!tab_get(&cs->seen, key) && !memo_is_dead(&s->memo, k, key) && !dead_mask(k) &&
            !stuck_ahead(k)) {
            tab_put(&cs->seen, key, 1);
            taken++;
            if (!cands_add(cs, evaluate(k), n, idx, plays, np)) result = fail_memory(s);
        }
        unend_turn(k, tu);
        for (int i = np - 1; i >= 0; i--) unplay(k, plays[i].c, plays[i].p, us[i]);
    }
    turns_free(&tl);
    return result;
}

/* The next layer: the ``width`` best candidates (sorted), each its parent's
 * position after its turn; the best line so far is noted on the way. DEAD
 * (go on), or BUDGET when out of memory. */
static int beam_next(Search *s, const BeamEntry *layer, const Candidates *cs, int width,
                     BeamEntry **out, int *n_out) {
    Kernel *k = s->k;
    int nn = cs->n < width ? cs->n : width;
    BeamEntry *nxt = calloc(nn ? nn : 1, sizeof(BeamEntry));
    if (!nxt) return fail_memory(s);
    for (int r = 0; r < nn; r++) {
        const Candidate *c = &cs->c[r];
        const BeamEntry *par = &layer[c->idx];
        k->s = par->snap;
        const Action *plays = cs->arena + c->off;
        for (int i = 0; i < c->len; i++) play(k, plays[i].c, plays[i].p);
        end_turn(k);
        int ok = line_copy(&nxt[r].line, par->line.a, par->line.n);
        for (int i = 0; ok && i < c->len; i++) ok = line_push(&nxt[r].line, plays[i]);
        ok = ok && line_push(&nxt[r].line, END_TURN);
        int left = card_count(k->s.unplayed);
        if (ok && left < s->best_left) {
            s->best_left = left;
            ok = line_copy(&s->best_path, nxt[r].line.a, nxt[r].line.n);
        }
        if (!ok) {
            beam_free(nxt, nn);
            return fail_memory(s);
        }
        nxt[r].score = c->score;
        nxt[r].snap = k->s;
    }
    *out = nxt;
    *n_out = nn;
    return DEAD;
}

/* TurnSearcher.beam: CLEAR (the line in path), DEAD (nothing found) or
 * BUDGET. Incomplete by design: it finds wins that an early greedy mistake
 * hides from the depth-first search. */
static int beam(Search *s, int width) {
    Kernel *k = s->k;
    State root = k->s;
    int n_layer = 1, result = DEAD;
    BeamEntry *layer = calloc(1, sizeof(BeamEntry));
    Candidates cs;
    memset(&cs, 0, sizeof cs);
    if (!layer || !tab_init(&cs.seen, k->ks.kw, (size_t)1 << 30)) {
        free(layer);
        tab_free(&cs.seen);
        return fail_memory(s);
    }
    layer[0].snap = root;
    int per = width < s->set->per_parent ? width : s->set->per_parent;
    while (n_layer && result == DEAD) {
        cs.n = 0;
        cs.alen = 0;
        tab_clear(&cs.seen);
        for (int idx = 0; idx < n_layer && result == DEAD; idx++) {
            k->s = layer[idx].snap;
            if (k->s.pos < k->total) {
                result = beam_children(s, layer, idx, per, &cs);
                continue;
            }
            /* Endgame: the play-level search decides it exactly. */
            if (!line_copy(&s->path, layer[idx].line.a, layer[idx].line.n)) {
                result = fail_memory(s);
                break;
            }
            int r = dfs(s, s->set->endgame);
            if (r == CLEAR || r == BUDGET) result = r;
        }
        if (result != DEAD) break;
        qsort(cs.c, cs.n, sizeof(Candidate), cmp_cand);
        BeamEntry *nxt;
        int n_next;
        result = beam_next(s, layer, &cs, width, &nxt, &n_next);
        if (result != DEAD) break;
        beam_free(layer, n_layer);
        layer = nxt;
        n_layer = n_next;
    }
    if (result == DEAD) {
        k->s = root;
        s->path.n = 0;
    }
    beam_free(layer, n_layer);
    tab_free(&cs.seen);
    free(cs.c);
    free(cs.arena);
    return result;
}

/* ---- the search (dfs.Searcher.run) ------------------------------------------ */

size_t slots_for(size_t bytes, int kw, size_t per_extra) {
    size_t per = kw * sizeof(uint64_t) + per_extra, cap = 1 << 12;
    while (cap * 2 * per <= bytes) cap *= 2;
    return cap;
}

/* Half the memo budget for the dead table (the caller's, ``dead``), a
 * quarter for the tried one and a quarter for the dominance chains (their
 * table and entries); in the unlimited iteration the tried table's quarter
 * goes to the chains (search_run). */
int search_init(Search *s, Kernel *k, const SearchSettings *set, const Budget *budget,
                Table *dead, Table *shared) {
    memset(s, 0, sizeof *s);
    s->k = k;
    s->set = set;
    s->budget = budget;
    s->best_left = INF;
    s->memo.dead = dead;
    s->memo.shared = shared;
    s->memo.share_all = set->share_all;
    int kw = k->ks.kw;
    size_t half = budget->memory / 2, quarter = half / 2;
    s->memo.gmax = slots_for(quarter / 2, 1, 4);
    if (!tab_init(&s->tried, kw, slots_for(quarter, kw, 4 + 1)) ||
        !tab_init(&s->memo.groups, kw - 1, slots_for(quarter / 2, kw - 1, 4 + 1))) {
        search_free(s);
        return 0;
    }
    return 1;
}

void search_run(Search *s, int *win, int *proven) {
    *win = *proven = 0;
    if (!note_turn_end(s)) {
        fail_memory(s);
        return;
    }
    for (int i = 0; i < s->set->n_widths; i++) {
        s->iterations++;
        int r = beam(s, s->set->widths[i]);
        if (r == BUDGET) return;
        if (r == CLEAR) {
            *win = *proven = 1;
            return;
        }
    }
    if (s->set->beams_only) return;
    int allowance = 0;
    for (;;) {
        s->iterations++;
        int r = dfs(s, allowance);
        if (r == CLEAR) *win = 1;
        if (r == CLEAR || r == DEAD) *proven = 1;
        if (r != OPEN) return;
        allowance = allowance < LAST_ALLOWANCE ? allowance * 2 + 1 : INF;
        if (allowance < INF) {
            tab_clear(&s->tried);
        } else if (!s->unlimited) {
            /* The unlimited iteration: the tried table's quarter of the
             * budget goes to the chains of dominance, a tops word and a link
             * an entry. In a deep loss proof dominance answers a fifth to a
             * third of the nodes, and its chains are full before the dead
             * table: profi-hard 108 from turn 8 of its best line takes 197 M
             * nodes instead of 435 M. */
            s->unlimited = 1;
            tab_free(&s->tried);
            s->memo.gmax += s->budget->memory / 2 / 2 / (sizeof(uint64_t) + sizeof(int32_t));
        }
    }
}

void search_free(Search *s) {
    tab_free(&s->tried);
    tab_free(&s->memo.groups);
    free(s->memo.gtops);
    free(s->memo.gnext);
    s->memo.gtops = NULL;
    s->memo.gnext = NULL;
    scratch_free(&s->scratch);
    free(s->path.a);
    free(s->best_path.a);
    s->path.a = s->best_path.a = NULL;
}
