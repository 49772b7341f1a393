"""``thegame cento``: deal, check and solve Cento game 2 (rules Z1-Z6)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..models.cento import CentoDeal, CentoRecord, CentoRules, HundredMode, check
from ..models.cento.rules import card_text
from ..models.errors import InvalidInputError
from ..models.jsonio import load_json
from ..models.outcome import Limit
from .common import (
    SECONDS,
    SEED,
    err,
    out,
    print_json,
    read_text,
    searching,
    user_errors,
    write_atomic,
)

F = TypeVar("F", bound=Callable[..., Any])


def _cards_range(text: str | None) -> tuple[int, int]:
    if text is None:
        return 1, 100
    try:
        low, high = (int(x) for x in text.split("-"))
    except ValueError:
        raise InvalidInputError(f"expected A-B such as 1-30, not {text!r}", "--cards") from None
    return low, high


def rule_options(func: F) -> F:
    """The rule parameters of Z1-Z6, for a seeded deal."""
    options = [
        click.option(
            "--free",
            type=click.IntRange(0, 20),
            default=4,
            show_default=True,
            help="Free cards in the deck (rule Z4).",
        ),
        click.option(
            "--cards",
            metavar="A-B",
            default=None,
            help="Number cards A..B (rule Z6), default 1-100.",
        ),
        click.option(
            "--hand-size",
            type=click.IntRange(1, 50),
            default=7,
            show_default=True,
            help="Cards dealt to each player (rule Z1).",
        ),
        click.option(
            "--penalty",
            type=click.IntRange(0, 10),
            default=3,
            show_default=True,
            help="Cards a bound player draws (rule Z2).",
        ),
        click.option(
            "--trick-draw",
            type=click.IntRange(0, 10),
            default=3,
            show_default=True,
            help="Cards every other player draws on a Trick (rule Z5).",
        ),
        click.option(
            "--hundred",
            type=click.Choice([m.value for m in HundredMode]),
            default="trick_treat",
            show_default=True,
            help="The 100 (rule Z5).",
        ),
        click.option(
            "--chain-all",
            is_flag=True,
            help="A repdigit's chain must shed every card with its digit (rule Z3).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_rules(kw: dict[str, Any]) -> CentoRules:
    low, high = _cards_range(kw["cards"])
    return CentoRules(
        low=low,
        high=high,
        hand_size=kw["hand_size"],
        free_cards=kw["free"],
        penalty=kw["penalty"],
        trick_draw=kw["trick_draw"],
        hundred=HundredMode(kw["hundred"]),
        chain_all=kw["chain_all"],
    )


def _load_json(path: str) -> Any:
    return load_json(read_text(path), path)


def load_deal(path: str) -> CentoDeal:
    """A deal file, or a record file (its deal)."""
    data = _load_json(path)
    if isinstance(data, dict) and "deal" in data:
        return CentoDeal.from_dict(data["deal"], f"{path}: deal")
    return CentoDeal.from_dict(data, path)


def _hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in hand) or "(empty)"


@click.group()
def cento() -> None:
    """Cento game 2, "Das große Ziffernspiel" (rules Z1-Z6)."""


@cento.command()
@click.option("--seed", type=SEED, required=True, help="The deal's seed.")
@click.option("--players", type=click.IntRange(1, 6), default=2, show_default=True)
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print the deal as JSON.")
@user_errors
def deal(seed: int, players: int, as_json: bool, **kw: Any) -> None:
    """Deal from a seed (rule Z6)."""
    d = CentoDeal.from_seed(seed, players, make_rules(kw))
    if as_json:
        print_json(d.to_dict())
        return
    out.print(f"Cento, {players} player{'s' if players > 1 else ''}, seed {seed}")
    for i, hand in enumerate(d.hands):
        out.print(f"player {i + 1}: {_hand_text(hand)}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {_hand_text(d.draw)}")


@cento.command("check")
@click.argument("record_file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def check_cmd(record_file: str, as_json: bool) -> None:
    """Replay a record: legal, or the first illegal turn and play with its rule.

    Exit code 0 when legal, 2 when a step is illegal or the file is malformed.
    """
    record = CentoRecord.from_dict(_load_json(record_file))
    result = check(record)
    if as_json:
        print_json(result.to_dict())
    else:
        if result.legal:
            head = f"legal: {result.turns_played} turns"
        else:
            where = f"turn {result.turn}" + (f", play {result.play}" if result.play else "")
            head = f"illegal at {where}: rule {result.rule}: {result.message}"
        lines = [head, f"status: {result.status}"]
        if result.state.winners:
            lines.append("winner: " + ", ".join(f"player {w + 1}" for w in result.state.winners))
        for i, hand in enumerate(result.state.hands):
            lines.append(f"player {i + 1}: {len(hand)} cards: {_hand_text(hand)}")
        (out if result.legal else err).print("\n".join(lines), soft_wrap=True, markup=False)
    if not result.legal:
        raise SystemExit(2)


@cento.command()
@click.option(
    "--deal", "deal_file", metavar="FILE", help="A deal (or record) JSON file; '-' = stdin."
)
@click.option("--seed", type=SEED, default=None, help="Solve the seeded deal instead.")
@click.option(
    "--players",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="Players of the seeded deal.",
)
@rule_options
@click.option(
    "--time-limit",
    type=SECONDS,
    default=60.0,
    show_default=True,
    help="Seconds before the answer is 'unknown'.",
)
@click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=None,
    help="Search nodes before the answer is 'unknown'.",
)
@click.option(
    "--record",
    "record_file",
    metavar="FILE",
    help="Write the line as a record that 'thegame cento check' accepts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def solve(
    deal_file: str | None,
    seed: int | None,
    players: int,
    time_limit: float,
    node_limit: int | None,
    record_file: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Solo: the fewest turns to empty the hand. Two players: who wins."""
    from ..solver.cento.duel import solve_duel
    from ..solver.cento.solo import solve_solo

    if (deal_file is None) == (seed is None):
        raise InvalidInputError("give exactly one of --deal FILE and --seed N", "solve")
    d = (
        load_deal(deal_file)
        if deal_file is not None
        else CentoDeal.from_seed(seed or 0, players, make_rules(kw))
    )
    if d.players > 2:
        raise InvalidInputError(f"solve takes 1 or 2 players, not {d.players}", "deal")
    with searching(enabled=not as_json) as tick:
        limit = Limit(time=time_limit, nodes=node_limit, progress=tick)
        result = solve_solo(d, limit) if d.players == 1 else solve_duel(d, limit)
    if record_file:
        write_atomic(record_file, CentoRecord(d, result.turns).to_json(indent=1) + "\n")
    if as_json:
        print_json(result.to_dict())
        return
    data = result.to_dict()
    if d.players == 1:
        if data["verdict"] == "win":
            out.print(f"fewest turns: {data['turns_needed']} (proven optimal)")
        elif data["verdict"] == "loss":
            out.print("the hand cannot be emptied (proven)")
        else:
            out.print(f"unknown: budget ran out; at least {data['lower_bound']} turns")
    else:
        verdict = data["verdict"]
        text = {
            "win": "player 1 wins",
            "loss": "player 2 wins",
            "tie": "a shared win",
            "unknown": "unknown: budget ran out",
        }[verdict]
        out.print(f"{text}" + (" with best play (proven)" if data["proven"] else ""))
    for t in result.turns:
        out.print(_turn_text(t.to_dict()), markup=False)
    out.print(f"{data['nodes']:,} nodes, {data['seconds']:.2f} s", style="dim")


def _turn_text(t: dict[str, Any]) -> str:
    parts = []
    if t.get("trick"):
        parts.append("Trick (shows the 100)")
    if t.get("treat"):
        parts.append("Treat (lays out the 100)")
    if t["draw"] and t["plays"]:
        parts.append(f"draws {t['draw']}")
    plays = [p["card"] if p["card"] != "free" else f"free as {p['as']}" for p in t["plays"]]
    if plays:
        parts.append("plays " + ", ".join(str(p) for p in plays))
    elif not t.get("treat") and not (t.get("trick") and not t["draw"]):
        parts.append(f"draws {t['draw']}" if t["draw"] else "passes (draws nothing)")
    return f"player {t['player']}: " + "; ".join(parts)


@cento.command()
@click.argument("record_file", metavar="FILE")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=30.0,
    show_default=True,
    help="Seconds before the answer is 'unknown'.",
)
@click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=None,
    help="Search nodes before the answer is 'unknown'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def hint(record_file: str, time_limit: float, node_limit: int | None, as_json: bool) -> None:
    """The best next turn of a record (1 or 2 players), from the exact solvers."""
    from ..analysis.cento.hint import hint_for

    record = CentoRecord.from_dict(_load_json(record_file))
    with searching(enabled=not as_json) as tick:
        h = hint_for(record, Limit(time=time_limit, nodes=node_limit, progress=tick))
    if as_json:
        print_json(h.to_dict())
        return
    data = h.to_dict()
    if h.hint is None:
        out.print(
            f"turn {h.turn_number}, player {h.player}: no proven best turn "
            f"({data.get('verdict', 'unknown')})"
        )
        return
    out.print(f"turn {h.turn_number}: " + _turn_text(h.hint.to_dict()), markup=False)
    if record.deal.players == 1:
        out.print(f"{data['turns_needed']} turns left with best play (proven)")
    elif data["tie"]:
        out.print("with best play from here: a shared win (proven)")
    else:
        out.print(f"with best play from here: player {data['winner']} wins (proven)")


@cento.command()
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--seed-start", type=SEED, default=1, show_default=True)
@click.option(
    "--min-turns",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Keep puzzles whose fewest turns are at least this.",
)
@click.option("--max-turns", type=click.IntRange(min=1), default=1000, show_default=True)
@rule_options
@click.option(
    "--time-limit",
    type=SECONDS,
    default=10.0,
    show_default=True,
    help="Seconds per seed; unproven seeds are skipped.",
)
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    default=None,
    help="Write each puzzle to DIR/cento-seed-N.json.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON line per puzzle on stdout.")
@user_errors
def generate(
    count: int,
    seed_start: int,
    min_turns: int,
    max_turns: int,
    time_limit: float,
    out_dir: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Solo puzzles from consecutive seeds, each with a proven fewest-turns answer."""
    from pathlib import Path

    from ..puzzles.cento.puzzles import generate as generate_puzzles

    rules = make_rules(kw)
    target = Path(out_dir) if out_dir else None
    if target is not None:
        target.mkdir(parents=True, exist_ok=True)
    found = 0
    status = err.status("generating...") if err.is_terminal else contextlib.nullcontext()
    try:
        with status as live:
            for seed, puzzle in generate_puzzles(
                seed_start, rules, Limit(time=time_limit), min_turns, max_turns
            ):
                if live is not None:
                    live.update(f"generating... seed {seed}, {found}/{count} puzzles")
                if puzzle is None:
                    continue
                found += 1
                if target is not None:
                    path = target / f"cento-seed-{seed}.json"
                    write_atomic(str(path), json.dumps(puzzle.to_dict(), indent=1) + "\n")
                if as_json:
                    print_json(puzzle.to_dict())
                else:
                    out.print(f"seed {seed}: {puzzle.turns_needed} turns (proven)")
                if found >= count:
                    break
    except KeyboardInterrupt:
        err.print(f"interrupted after {found} puzzles")
        raise SystemExit(130) from None


@cento.command()
@click.option("--date", default=None, help="YYYY-MM-DD (default: today, UTC).")
@click.option("--solution", "show_solution", is_flag=True, help="Show the proven solution.")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle as JSON.")
@user_errors
def daily(date: str | None, show_solution: bool, as_json: bool) -> None:
    """The solo puzzle of the day: the same on every machine."""
    from ..puzzles.cento.puzzles import daily as daily_puzzle
    from ..puzzles.cento.puzzles import parse_date

    status = (
        err.status("solving the puzzle of the day...")
        if err.is_terminal and not as_json
        else contextlib.nullcontext()
    )
    with status:
        puzzle = daily_puzzle(parse_date(date), Limit(time=60.0))
    if as_json:
        print_json(puzzle.to_dict())
        return
    d = puzzle.deal
    out.print(
        f"Cento solo puzzle of {puzzle.date} (seed {puzzle.seed}): "
        f"empty your hand in {puzzle.turns_needed} turns"
    )
    out.print(f"hand: {_hand_text(d.hands[0])}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {_hand_text(d.draw)}")
    if show_solution:
        for t in puzzle.solution:
            out.print(_turn_text(t.to_dict()), markup=False)
