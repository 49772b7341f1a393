"""Several players: whose turn each slot is in (rules C2, C3, C6, C7).

``who[s][j]``: slot s is filled and belongs to a turn of player j;
``cnt[j][s]``: the cards player j played in slots 0..s. Solo, the module
adds nothing (both stay empty).

- Turns rotate in seat order (rule C3): the player only changes at a
  turn end, to the next player.
- Ownership (rules C2, C6): player j was dealt positions jH..jH+H-1.
  Every turn draws back what it played from the one draw pile, so deck
  position P*H + k is drawn by the player of the turn that contains slot
  k: a card at such a position is played by that same player (the hand
  rule ``need`` already puts the play in a later turn).
- Skipping (rule C7): once the draw pile is empty (after the turn
  ending at slot s, P*H + s + 1 >= N, known per slot) a player with no
  cards is skipped. A player passed over at a turn end must have played
  every card they hold; the player who follows is not out, since they
  play a card of their own. Before that every hand is full (refilled
  to H after each turn), so nobody is skipped.
"""

from __future__ import annotations

from .model import Model


def add(m: Model) -> None:
    """Add ``who`` and ``cnt`` (needs the cards and the turn ends)."""
    sh, mdl, n, x, filled, end = m.shape, m.model, m.horizon, m.x, m.filled, m.end
    if sh.players == 1:
        return
    pl = sh.players
    who = [[mdl.new_bool_var(f"who{s}_{j}") for j in range(pl)] for s in range(n)]
    for s in range(n):
        mdl.add(sum(who[s]) == filled[s])
    if sh.first is not None:
        mdl.add(who[0][sh.first] == 1).only_enforce_if(filled[0])
    for (i, s), v in x.items():
        j = sh.owner(i)
        if j is not None:
            mdl.add_implication(v, who[s][j])
        else:
            k = i - sh.dealt
            for j in range(pl):
                mdl.add_bool_or([v.Not(), who[s][j].Not(), who[k][j]])
    # cnt[j][s]: cards player j played in slots 0..s.
    cnt = [[mdl.new_int_var(0, s + 1, f"cnt{j}_{s}") for s in range(n)] for j in range(pl)]
    for j in range(pl):
        for s in range(n):
            mdl.add(cnt[j][s] == (cnt[j][s - 1] if s else 0) + who[s][j])
    m.who, m.cnt = who, cnt
    last_draw = sh.n - sh.dealt  # slots whose turn draws a card
    holds = []  # cards player j gets in the whole game (valid once all are drawn)
    for j in range(pl):
        dealt = sum(1 for i in range(sh.dealt) if sh.owner(i) == j)
        drawn = [who[k][j] for k in range(min(n, last_draw))]
        holds.append(dealt + sum(drawn))
    for s in range(n - 1):
        for a in range(pl):
            if sh.dealt + s + 1 < sh.n:
                # The draw pile still has cards: the next player follows (C3).
                nxt = who[s + 1][(a + 1) % pl]
                mdl.add_bool_or([end[s].Not(), who[s][a].Not(), filled[s + 1].Not(), nxt])
            # Within a turn the player stays.
            mdl.add_bool_or([end[s], who[s][a].Not(), filled[s + 1].Not(), who[s + 1][a]])
            if sh.dealt + s + 1 < sh.n:
                continue
            # Here every card has been drawn, by turns in slots < last_draw
            # <= s + 1: ``holds`` is exact (rule C7).
            for b in range(pl):
                passed = [(a + d) % pl for d in range(1, (b - a) % pl or pl)]
                for c in passed:
                    mdl.add(cnt[c][s] >= holds[c]).only_enforce_if(
                        [end[s], who[s][a], who[s + 1][b]]
                    )
