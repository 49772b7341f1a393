"""Bounds and a graph engine shared by the search and CP-SAT engines.

- ``dead_cards``: unplayed cards that no pile can ever take again; their count
  is a lower bound on the cards left (sound, see ``Kernel.dead_card``).
- ``StateGraph``: the whole graph of positions of a small deal, built with the
  rules engine alone and decided with networkx. Plays only ever lower the
  number of unplayed cards and a turn ends only after a play, so the graph is
  a DAG: a perfect clear is a path to a won position, and the most cards that
  can be played is a longest path from the start (over ``networkx.topological_sort``). It is an
  exact third engine for tiny deals, used to cross-check the others.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import networkx as nx

from ..models import Deal, GameState, Play
from .api import starting_players
from .search import Kernel

WON_NODE = ("won",)


def dead_cards(kernel: Kernel) -> int:
    """Bitmask of unplayed cards no pile can ever take (see ``Kernel.dead_card``)."""
    return kernel.dead_mask()


def cards_left_lower_bound(kernel: Kernel) -> int:
    """At least this many cards will never be played from this position."""
    return dead_cards(kernel).bit_count()


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
        self.graph: nx.DiGraph = nx.DiGraph()

    def _turns(self, state: GameState) -> list[tuple[list[Play], GameState]]:
        """Every distinct legal turn from a turn start: (plays, position after)."""
        out: dict[tuple[object, ...], tuple[list[Play], GameState]] = {}
        plays: list[Play] = []

        def rec() -> None:
            if plays and state.status == "won":
                out[("won",)] = (list(plays), state.copy())
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
                if after.status == "won":
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
        deal = self.deal
        firsts = starting_players(deal)
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
