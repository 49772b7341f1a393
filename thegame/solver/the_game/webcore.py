"""The search core in the browser: what the WebAssembly build of the compiled
search (``thegame/web/solver.wasm``, driven by ``thegame/web/solver.js``)
needs to know of a deal, and the same search through the Python binding.

``kernel_config(deal)`` is a JSON document: the rules as numbers, the deck,
the placement tables that ``models.the_game.placement`` computes (rule C5
is said once, in Python; the C core receives tables), the starting position
and the decision search's settings. Card masks travel as hexadecimal
strings (JSON numbers stop at 2**53). ``position_answer`` runs the search a
page runs, from the same position with the same settings, through the
Python extension: the tests compare the two node for node.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...models import Limit, Status
from ...models.the_game import Deal, GameState, Play, Record, Turn, replay
from ...models.the_game.state import pile_index, pile_name
from . import ckernel
from .backend import covered, kernel_of
from .beam import (
    BRANCH,
    EXTRA,
    MULTI_ENDGAME,
    MULTI_WIDTHS,
    PER_PARENT,
    SHORT_DRAW,
    SHORT_WIDTHS,
    WIDTHS,
)
from .extreme import beam as extreme_beam
from .extreme.kernel import ExtremeKernel
from .kernel import END, INF, W2, W3, Action, Kernel
from .optimum import finish_greedily

FORMAT = 1
# The built module and its script, shipped as package data (thegame/web/)
WEB_DIR = Path(__file__).resolve().parents[2] / "web"
WEB_FILES = ("solver.js", "solver.wasm")
# The page's memo tables: a phone's tab, not a worker's GiB (the node
# counts of a search that fills its tables depend on this, so the tests
# give the Python binding the same).
WEB_MEMORY_MIB = 64


def web_files() -> dict[str, Path]:
    """The files a page needs to run the solver, by name (``WEB_FILES``)."""
    return {name: WEB_DIR / name for name in WEB_FILES}


def _hex(mask: int) -> str:
    return format(mask, "x")


def _search_settings(k: Kernel) -> dict[str, Any]:
    """The decision search ``ckernel.search`` runs for this kernel, with a
    budget too small for the long beams (a page's)."""
    if isinstance(k, ExtremeKernel):
        return {
            "mode": ckernel.EXTREME,
            "widths": list(extreme_beam.WIDTHS),
            "short_widths": list(extreme_beam.SHORT_WIDTHS),
            "short_draw": extreme_beam.SHORT_DRAW,
            "branch": extreme_beam.BRANCH,
            "per_parent": extreme_beam.PER_PARENT,
            "extra": extreme_beam.EXTRA,
            "endgame": extreme_beam.endgame_allowance(k),
        }
    solo = k.players == 1
    return {
        "mode": ckernel.FIRE if (k.fire or not solo) else ckernel.TURN,
        "widths": list(WIDTHS if solo else MULTI_WIDTHS),
        "short_widths": list(SHORT_WIDTHS),
        "short_draw": SHORT_DRAW,
        "branch": BRANCH,
        "per_parent": PER_PARENT,
        "extra": EXTRA,
        "endgame": INF if solo else MULTI_ENDGAME,
    }


def _commands(k: Kernel) -> dict[str, str] | None:
    """Extreme's card masks of each command kind (rule X1); None otherwise."""
    if not isinstance(k, ExtremeKernel):
        return None
    kinds = {"stop": k.stop, "skull": k.skull, "three": k.three}
    kinds.update(no_trick=k.no_trick, one_pile=k.one_pile, draw_one=k.draw_one)
    return {name: _hex(mask) for name, mask in kinds.items()}


def _start_kernel(deal: Deal) -> Kernel:
    return kernel_of(GameState(deal, first=Record(deal).first))


def kernel_config(deal: Deal) -> dict[str, Any]:
    """The deal as the WebAssembly core takes it (see the module notes).
    A deal without a fixed start begins with player 1 (``Record.first``)."""
    covered(deal)
    k = _start_kernel(deal)
    if not ckernel.covers(deal.rules, deal.players) and ckernel.BUILT:
        raise ValueError(f"the compiled core does not cover {deal.rules.name}")
    p = k.place
    snap = k.snapshot()
    return {
        "format": FORMAT,
        "variant": deal.rules.name,
        "players": k.players,
        "first": Record(deal).first,
        "piles": [pile_name(deal.rules, i) for i in range(k.n_piles)],
        "hand_size": k.hand_size,
        "n_asc": k.n_asc,
        "step": k.step,
        "min_play": k.min_play,
        "min_empty": k.min_empty,
        "low": deal.rules.low,
        "size": k.size,
        "base_max_turn": min(k.base_max_turn, INF),
        "w2": W2,
        "w3": W3,
        "fire": _hex(k.fire),
        "deck": list(k.deck),
        "trick_up": list(p.trick_top[0]),
        "trick_down": list(p.trick_top[1]),
        "first_beyond": list(p.first_beyond),
        "last_beyond": list(p.last_beyond),
        "accepted_up": [_hex(m) for m in p.accepted[0]],
        "accepted_down": [_hex(m) for m in p.accepted[1]],
        "commands": _commands(k),
        "start": {
            "tops": list(snap.tops),
            "hands": [_hex(h) for h in snap.hands],
            "pos": snap.pos,
            "unplayed": _hex(snap.unplayed),
            "player": snap.player,
            "turn_min": snap.turn_min,
            "max_turn": min(snap.max_turn, INF),
        },
        "search": _search_settings(k),
        "memory_mib": WEB_MEMORY_MIB,
    }


def page_turns(deal: Deal, turns: Sequence[Turn]) -> list[list[dict[str, Any]]]:
    """Turns as a page sends them: plays of ``{card, pile}``, piles by name."""
    name = deal.rules
    return [[{"card": p.card, "pile": pile_name(name, p.pile)} for p in t.plays] for t in turns]


def turns_of(deal: Deal, turns: list[list[dict[str, Any]]]) -> Record:
    """The record of a deal and the turns a page sends (``{card, pile}``
    plays, piles by name); the players follow the engine's order."""
    record = Record(deal)
    state = GameState(deal, first=record.first)
    out: list[Turn] = []
    for plays in turns:
        moves = tuple(Play(int(p["card"]), pile_index(deal.rules, str(p["pile"]))) for p in plays)
        turn = Turn(state.current + 1, moves)
        out.append(turn)
        res = replay(Record(deal, tuple(out)))
        if res.error is not None:
            raise ValueError(f"illegal turn {len(out)}: {res.error['message']}")
        state = res.state
    return Record(deal, tuple(out))


def position_answer(
    deal: Deal, turns: list[list[dict[str, Any]]], nodes: int | None = None
) -> dict[str, Any]:
    """What ``solver.solve(kernel_config(deal), turns, {nodeLimit: nodes})`` answers,
    computed by the same search through the Python extension."""
    config = kernel_config(deal)
    record = turns_of(deal, turns)
    res = replay(record)
    state = res.state
    names = config["piles"]
    if state.over:
        won = state.status == Status.WON
        left = state.cards_left()
        return _answer("win" if won else "loss", left, True, [], 0)
    k = kernel_of(state)
    if k.won():
        return _answer("win", 0, True, [], 0)
    s = config["search"]
    widths = s["short_widths"] if k.total - k.pos <= s["short_draw"] else s["widths"]
    ck = ckernel.CKernel.of(k)
    limit = Limit(nodes=nodes, memory=config["memory_mib"])
    budget = ckernel.c_budget(limit, None)
    win, proven, actions, left, searched, *_ = ck._search(
        s["mode"], widths, s["branch"], s["per_parent"], s["extra"], s["endgame"], budget
    )
    if not win:
        actions, left = _whole_game(ck, actions)
        win = left == 0  # the greedy finish cleared: a win, whatever the search said
    verdict = "win" if win else "loss" if proven else "unknown"
    line: list[list[dict[str, Any]]] = [[]]
    for a in actions:
        if a == END:
            line.append([])
        else:
            line[-1].append({"card": a[0], "pile": names[a[1]]})
    if not line[-1]:
        line.pop()
    cards_left = 0 if win else left
    # A proven loss leaves at least one card: a line leaving one is optimal.
    return _answer(verdict, cards_left, win or (proven and cards_left == 1), line, searched)


def _whole_game(k: ckernel.CKernel, actions: list[Action]) -> tuple[list[Action], int]:
    """A search's best line made a whole game as ``thegame solve`` makes it
    (cut back to whole turns, finished greedily), and the cards it leaves;
    the kernel is put back."""
    snap = k.snapshot()
    line = list(actions)
    while line and line[-1] != END:
        line.pop()
    for a in line:
        if a == END:
            k.end_turn()
        else:
            k.play(*a)
    line += finish_greedily(k)
    left = k.unplayed.bit_count()
    k.restore(snap)
    return line, left


def _answer(
    verdict: str, cards_left: int, proven: bool, line: list[list[dict[str, Any]]], nodes: int
) -> dict[str, Any]:
    return {
        "verdict": verdict,
        "cards_left": cards_left,
        "proven": proven,
        "line": line,
        "nodes": nodes,
    }


__all__ = [
    "FORMAT",
    "WEB_DIR",
    "WEB_FILES",
    "WEB_MEMORY_MIB",
    "kernel_config",
    "page_turns",
    "position_answer",
    "turns_of",
    "web_files",
]
