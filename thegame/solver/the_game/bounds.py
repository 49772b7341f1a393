"""Bounds and a graph engine shared by the search and CP-SAT engines.

- ``dead_cards``: unplayed cards that no pile can ever take again; their count
  is a lower bound on the cards left (sound, see ``Kernel.dead_card``).
- ``state_lower_bound``: a lower bound on the cards left from an engine
  position, the best of three sound arguments, each over a networkx graph:
  the dead-card fixpoint as reachability in the "can follow" graph
  (``reach_dead``), fire cards that need distinct covers as a bipartite
  matching (``fire_cover_bound``, rules F2-F4), and a fire card due this
  turn that the player to move cannot cover (``fire_due_bound``).
- ``StateGraph``: the whole graph of positions of a small deal, built with the
  rules engine alone and decided with networkx. Plays only ever lower the
  number of unplayed cards and a turn ends only after a play, so the graph is
  a DAG: a perfect clear is a path to a won position, and the most cards that
  can be played is a longest path from the start (over ``networkx.topological_sort``). It is an
  exact third engine for tiny deals, used to cross-check the others.

networkx is imported inside the functions that build graphs: the searches
call them only where the kernel already sees a dead card or a fire card, and
the import costs about 0.1 s of every command's start-up.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...models.outcome import Status
from ...models.the_game import Deal, GameState, Play, is_ascending, placement
from .kernel import Kernel

if TYPE_CHECKING:
    import networkx as nx

WON_NODE = ("won",)


def dead_cards(kernel: Kernel) -> int:
    """Bitmask of unplayed cards no pile can ever take (see ``Kernel.dead_card``)."""
    return kernel.dead_mask()


def cards_left_lower_bound(kernel: Kernel) -> int:
    """At least this many cards will never be played from this position."""
    return dead_cards(kernel).bit_count()


def unplayed(state: GameState) -> set[int]:
    """Cards in every hand and the draw pile."""
    out: set[int] = set(state.draw_pile(0))
    for h in state.hands:
        out |= h
    return out


def follows(state: GameState, asc: bool, top: int, card: int) -> bool:
    """Rule C5: ``card`` may go on a pile of that direction showing ``top``."""
    return placement.accepts(asc, top, card, state.rules.step)


def follow_graph(state: GameState, asc: bool) -> tuple[nx.DiGraph, list[tuple[str, int]]]:
    """The "can follow" graph of one direction: an edge u -> v when v may be
    played on a pile showing u. Nodes are the unplayed cards and the tops
    (as ("top", pile)); only edges to the next unplayed card onwards and the
    backward-trick edges are kept, which keeps reachability (v > u > w:
    w reachable from u through v... and every card beyond u is reached by
    walking the "next card" edges)."""
    import networkx as nx  # lazily (module notes)

    rules = state.rules
    cards = sorted(unplayed(state), reverse=not asc)
    g: nx.DiGraph = nx.DiGraph()
    g.add_nodes_from(cards)
    present = set(cards)
    for a, b in itertools.pairwise(cards):
        g.add_edge(a, b)  # the next card onwards
    for c in cards:
        back = placement.trick_card(asc, c, rules.step)
        if back in present:
            g.add_edge(c, back)  # the backward trick
    sources: list[tuple[str, int]] = []
    for pile, top in enumerate(state.tops):
        if is_ascending(rules, pile) != asc:
            continue
        node = ("top", pile)
        sources.append(node)
        g.add_node(node)
        nxt = next((c for c in cards if placement.beyond(asc, top, c)), None)
        if nxt is not None:
            g.add_edge(node, nxt)
        back = placement.trick_card(asc, top, rules.step)
        if back in present:
            g.add_edge(node, back)
    return g, sources


def reach_dead(state: GameState) -> set[int]:
    """Unplayed cards that no pile can ever take: not reachable in either
    direction's follow graph from any top. Every line plays a pile's cards
    along a path of that graph (each card follows the one before it), so
    an unreachable card is never played. The same fixpoint as
    ``Kernel.reach``, computed independently as graph reachability."""
    import networkx as nx  # lazily (module notes)

    alive: set[object] = set()
    for asc in (True, False):
        g, sources = follow_graph(state, asc)
        for src in sources:
            alive |= nx.descendants(g, src)
    return {c for c in unplayed(state) if c not in alive}


def fire_cover_bound(state: GameState) -> int:
    """Fire cards that need a cover (rule F2): at least this many cards are
    left (0 or 1: a perfect clear is impossible, or no conclusion).

    In a perfect clear every fire card still to be played, and every fire
    card showing, is covered by the next card on its pile within a turn,
    unless it is the last card of its pile (rule F3: nothing is due after
    the last card). A card covers the one pile it is played on, so covers
    are distinct cards, each able to follow its fire card in some direction
    (rule C5): a matching in the bipartite graph fire card -> possible
    covers. Fire cards left unmatched by a maximum matching must each be
    the last card of a distinct pile; more of them than piles means no
    perfect clear.
    """
    import networkx as nx  # lazily (module notes)

    fire = state.rules.fire_cards
    if not fire or state.over:
        return 0
    left = unplayed(state)
    needy = [("f", c) for c in sorted(left & fire)]
    needy += [("f", t) for t in state.tops if t in fire]
    if len(needy) <= state.rules.n_piles:
        return 0
    g: nx.Graph = nx.Graph()
    g.add_nodes_from(needy)
    for f in needy:
        for c in left:
            if c != f[1] and any(follows(state, asc, f[1], c) for asc in (True, False)):
                g.add_edge(f, ("c", c))
    matched = nx.bipartite.maximum_matching(g, top_nodes=needy)
    unmatched = sum(1 for f in needy if f not in matched)
    return 1 if unmatched > state.rules.n_piles else 0


def fire_due_bound(state: GameState) -> int:
    """At a turn start, a fire card due this turn (laid in an earlier turn,
    rule F2) that no card of the mover's hand can cover ends the game with
    this turn: every card outside that hand is left (the turn's own plays
    may still count). 0 when nothing is due or it can be covered."""
    rules = state.rules
    if not rules.fire_cards or state.over or state.placed:
        return 0
    hand = state.hands[state.current]
    for pile, top in enumerate(state.tops):
        due = top in rules.fire_cards and state.top_turn[pile] < state.turn
        # The first card played on the pile covers it; it must follow the top.
        asc = is_ascending(rules, pile)
        if due and not any(follows(state, asc, top, c) for c in hand):
            return len(unplayed(state)) - len(hand)
    return 0


def state_lower_bound(state: GameState) -> int:
    """A sound lower bound on the cards left by any line from ``state`` (a
    turn start): the best of ``reach_dead``, ``fire_due_bound`` and
    ``fire_cover_bound``."""
    if state.over:
        return state.cards_left()
    return max(len(reach_dead(state)), fire_due_bound(state), fire_cover_bound(state))


class GraphTooLarge(Exception):
    """The state graph would exceed its node limit."""


@dataclass
class GraphResult:
    win: bool
    best_played: int  # most cards that can be played (all of them for a win)
    first: int  # 1-based starting player of ``line``
    line: list[tuple[int, list[Play]]]  # (player, plays) per turn, best first


class StateGraph:
    """Positions at turn boundaries of a small deal; edges are whole turns."""

    def __init__(self, deal: Deal, node_limit: int = 200_000) -> None:
        self.deal = deal
        self.node_limit = node_limit
        import networkx as nx  # lazily (module notes)

        self.graph: nx.DiGraph = nx.DiGraph()

    def _turns(self, state: GameState) -> list[tuple[list[Play], GameState]]:
        """Every distinct legal turn from a turn start: (plays, position after)."""
        out: dict[tuple[object, ...], tuple[list[Play], GameState]] = {}
        plays: list[Play] = []

        def rec() -> None:
            if plays and state.status == Status.WON:
                out[WON_NODE] = (list(plays), state.copy())
                return
            if plays and state.can_end_turn():
                after = state.copy()
                after.end_turn()
                key = after.key()
                if key not in out:
                    out[key] = (list(plays), after)
            for play in state.legal_plays():
                state.play(play.card, play.pile)
                plays.append(play)
                rec()
                plays.pop()
                state.undo_play()

        rec()
        return list(out.values())

    def build(self, first: int) -> tuple[object, ...]:
        """Add every position reachable with player ``first`` starting."""
        start = GameState(self.deal, first=first)
        root: tuple[object, ...] = ("start", first)
        g = self.graph
        g.add_node(root)
        stack: list[tuple[tuple[object, ...], GameState]] = [(root, start)]
        node_of: dict[tuple[object, ...], tuple[object, ...]] = {}
        while stack:
            node, state = stack.pop()
            for plays, after in self._turns(state):
                child: tuple[object, ...]
                if after.status == Status.WON:
                    child = WON_NODE
                else:
                    key = after.key()
                    child = node_of.setdefault(key, ("pos", len(node_of)))
                    if child not in g:
                        if len(g) >= self.node_limit:
                            raise GraphTooLarge
                        g.add_node(child)
                        stack.append((child, after))
                if not g.has_edge(node, child):
                    who = state.current + 1
                    g.add_edge(node, child, weight=len(plays), plays=plays, player=who)
        return root

    def solve(self) -> GraphResult:
        """Win if some start reaches the won position; else the longest path."""
        import networkx as nx  # lazily (module notes)

        deal = self.deal
        firsts = deal.starting_players()
        roots = [(f, self.build(f)) for f in firsts]
        g = self.graph
        best: GraphResult | None = None
        for first, root in roots:
            reach = nx.descendants(g, root) | {root}
            sub = g.subgraph(reach)
            win = WON_NODE in reach
            path = nx.shortest_path(sub, root, WON_NODE) if win else _longest_from(sub, root)
            edges = [sub.edges[a, b] for a, b in itertools.pairwise(path)]
            played = sum(e["weight"] for e in edges)
            line = [(e["player"], e["plays"]) for e in edges]
            result = GraphResult(win, played, first, line)
            if win:
                return result
            if best is None or played > best.best_played:
                best = result
        assert best is not None
        return best


def _longest_from(g: nx.DiGraph, root: object) -> list[object]:
    """Longest (by ``weight``) path in a DAG that starts at ``root``."""
    import networkx as nx  # lazily (module notes)

    dist: dict[object, int] = {}
    nxt: dict[object, object] = {}
    for node in reversed(list(nx.topological_sort(g))):
        best, arg = 0, None
        for _, child, w in g.out_edges(node, data="weight"):
            if w + dist[child] > best:
                best, arg = w + dist[child], child
        dist[node] = best
        if arg is not None:
            nxt[node] = arg
    path = [root]
    while path[-1] in nxt:
        path.append(nxt[path[-1]])
    return path
