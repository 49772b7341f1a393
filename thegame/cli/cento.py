"""``thegame cento``: Cento game 2 (rules Z1-Z6): deal, check, solve, hint,
analyze, explain, generate, daily and play."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from ..models import interrupt
from ..models.cento import (
    CentoDeal,
    CentoRecord,
    CentoRules,
    CentoState,
    CentoStatus,
    CentoTurn,
    CheckResult,
    HundredMode,
    check,
)
from ..models.cento.rules import FREE, card_text
from ..models.errors import IllegalMoveError, InvalidInputError
from ..models.jsonio import load_json
from ..models.outcome import Limit
from ..models.words import plural
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
from .options import (
    choice_option,
    deal_source_options,
    json_option,
    limit_options,
    record_argument,
    save_option,
)

if TYPE_CHECKING:
    from ..analysis.cento.session import Session
    from ..puzzles.cento.puzzles import SoloPuzzle

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
        choice_option(
            "--hundred", [m.value for m in HundredMode], "The 100 (rule Z5).", default="trick_treat"
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


def _hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in hand) or "(empty)"


def deal_options(players: int) -> Callable[[F], F]:
    """``--seed N`` / ``--deck`` / ``--deal FILE``, ``--players`` and the rules."""

    def decorate(func: F) -> F:
        options = [
            deal_source_options(
                seed_help="Deal by seed (rule Z6; the same deal on every machine).",
                deck_help="The deck in deal order, \"c1 c2 ...\" (spaces or commas; 'free' "
                "for a free card): player 1's hand first, then the open card and the draw pile.",
                deal_help="A deal file ('-': stdin), or a record with no turn played.",
            ),
            click.option(
                "--players",
                type=click.IntRange(1, 6),
                default=players,
                show_default=True,
                help="Players of a --seed or --deck deal (rule Z1).",
            ),
        ]
        func = rule_options(func)
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def _parse_deck(text: str) -> list[int]:
    cards = []
    for word in text.replace(",", " ").split():
        if word.lower() in ("free", "f"):
            cards.append(FREE)
        elif word.isdigit():
            cards.append(int(word))
        else:
            raise InvalidInputError(f"{word!r} is not a card (1..100 or 'free')", "--deck")
    return cards


def deal_from_options(
    seed: int | None, deck: str | None, deal_file: str | None, players: int, kw: dict[str, Any]
) -> CentoDeal:
    """The deal of exactly one of ``--seed``, ``--deck``, ``--deal``. A file
    with turns is checked first (an illegal turn is named, exit 2), then
    refused: a deal option starts from the deal, and ignoring the turns
    would mislead."""
    given = [
        n for n, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v is not None
    ]
    if len(given) != 1:
        what = " and ".join(given) if given else "none"
        raise InvalidInputError(
            f"give one deal: --seed N, --deck CARDS or --deal FILE (given: {what})", "options"
        )
    if seed is not None:
        return CentoDeal.from_seed(seed, players, make_rules(kw))
    if deck is not None:
        return CentoDeal.from_deck(_parse_deck(deck), players, make_rules(kw))
    assert deal_file is not None
    data = _load_json(deal_file)
    if not (isinstance(data, dict) and "deal" in data):
        return CentoDeal.from_dict(data, deal_file)
    record = CentoRecord.from_dict(data)
    if record.turns:
        result = check(record)
        if not result.legal:
            raise _illegal(result, deal_file)
        raise InvalidInputError(
            f"holds {plural(len(record.turns), 'turn')} played; --deal starts from the deal: "
            f"'thegame cento solve {deal_file}' goes on from the position",
            deal_file,
        )
    return record.deal


def _illegal(result: CheckResult, path: str) -> InvalidInputError:
    """The first illegal step of a record file, as one line: where, rule, why."""
    play = f", play {result.play}" if result.play else ""
    return InvalidInputError(
        f"rule {result.rule}: {result.message}", f"{path}: turn {result.turn}{play}"
    )


def _load_record(path: str) -> CentoRecord:
    return CentoRecord.from_dict(_load_json(path))


def _legal_position(record: CentoRecord, path: str) -> CentoState:
    """The position a record reaches; its first illegal turn is an error (exit 2)."""
    result = check(record)
    if not result.legal:
        raise _illegal(result, path)
    if result.state.over:
        raise InvalidInputError("the game is over: there is nothing to solve", path)
    return result.state


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cento() -> None:
    """Cento game 2, "Das große Ziffernspiel" (rules Z1-Z6).

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE. The guide: docs/games/cento.md; the rules: docs/rules/cento.md.
    """


@cento.command()
@deal_options(players=2)
@json_option("Print the deal as JSON.")
@user_errors
def deal(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    as_json: bool,
    **kw: Any,
) -> None:
    """Show a deal: every hand, the open card and the draw pile (rule Z6)."""
    d = deal_from_options(seed, deck, deal_file, players, kw)
    if as_json:
        print_json(d.to_dict())
        return
    where = f", seed {d.seed}" if d.seed is not None else ""
    out.print(f"Cento, {plural(d.players, 'player')}{where}")
    for i, hand in enumerate(d.hands):
        out.print(f"player {i + 1}: {_hand_text(hand)}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {_hand_text(d.draw)}")


@cento.command("check")
@record_argument()
@json_option()
@user_errors
def check_cmd(record_file: str, as_json: bool) -> None:
    """Replay a record: legal, or the first illegal turn and play with its rule.

    Exit code 0 when legal, 2 when a step is illegal or the file is malformed.
    """
    record = _load_record(record_file)
    result = check(record)
    if as_json:
        print_json(result.to_dict())
    else:
        if result.legal:
            head = f"legal: {plural(result.turns_played, 'turn')}"
        else:
            where = f"turn {result.turn}" + (f", play {result.play}" if result.play else "")
            head = f"illegal at {where}: rule {result.rule}: {result.message}"
        lines = [head, f"status: {result.status}"]
        if result.state.winners:
            lines.append("winner: " + ", ".join(f"player {w + 1}" for w in result.state.winners))
        for i, hand in enumerate(result.state.hands):
            lines.append(f"player {i + 1}: {plural(len(hand), 'card')}: {_hand_text(hand)}")
        (out if result.legal else err).print("\n".join(lines), soft_wrap=True, markup=False)
    if not result.legal:
        raise SystemExit(2)


def _stats_text(data: dict[str, Any]) -> str:
    return f"{data['stats']['nodes']:,} nodes, {data['stats']['seconds']:.2f} s"


@cento.command()
@record_argument(required=False)
@deal_options(players=1)
@limit_options(
    60.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@save_option("Write the line as a record ('thegame cento check' replays it).")
@click.option("--record", "old_record", metavar="FILE", hidden=True)  # the old --save
@json_option()
@user_errors
def solve(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    limit: Limit,
    save_file: str | None,
    old_record: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Alone: the fewest turns to empty the hand. Two players: who wins.

    From a deal (--seed, --deck, --deal), or from the position a record FILE
    reaches (its turns are checked first).
    """
    from ..solver.cento.duel import solve_duel
    from ..solver.cento.solo import solve_solo

    if old_record is not None:
        if save_file is not None:
            raise InvalidInputError("give --save once", "options")
        save_file = old_record
    state = None
    opening: tuple[CentoTurn, ...] = ()
    if record_file is not None:
        if seed is not None or deck is not None or deal_file is not None:
            raise InvalidInputError("give a record FILE or a deal option, not both", "solve")
        record = _load_record(record_file)
        state = _legal_position(record, record_file)
        d, opening = record.deal, record.turns
    else:
        d = deal_from_options(seed, deck, deal_file, players, kw)
    if d.players > 2:
        raise InvalidInputError(f"solve takes 1 or 2 players, not {d.players}", "deal")
    with searching(enabled=not as_json) as tick:
        limit = replace(limit, progress=tick)
        result = solve_solo(d, limit, state) if d.players == 1 else solve_duel(d, limit, state)
    if save_file:
        write_atomic(save_file, CentoRecord(d, opening + result.turns).to_json(indent=1) + "\n")
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    if d.players == 1:
        if data["verdict"] == "win":
            out.print(f"fewest turns: {data['turn_count']} (proven optimal)")
        elif data["verdict"] == "loss":
            out.print("the hand cannot be emptied (proven)")
        else:
            out.print(f"unknown: budget ran out; at least {data['lower_bound']} turns")
    else:
        text = {
            "win": "player 1 wins",
            "loss": "player 2 wins",
            "tie": "a shared win",
            "unknown": "unknown: budget ran out",
        }[data["verdict"]]
        out.print(text + (" with best play (proven)" if data["optimal"] else ""))
    first = len(opening) + 1
    for i, t in enumerate(result.turns, first):
        out.print(f"turn {i}: " + _turn_text(t.to_dict()), markup=False)
    out.print(_stats_text(data), style="dim")


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
@record_argument()
@limit_options(
    30.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option()
@user_errors
def hint(record_file: str, limit: Limit, as_json: bool) -> None:
    """The best next turn of a record (1 or 2 players), from the exact solvers."""
    from ..analysis.cento.hint import hint_for

    record = _load_record(record_file)
    with searching(enabled=not as_json) as tick:
        h = hint_for(record, replace(limit, progress=tick))
    data = h.to_dict()
    if as_json:
        print_json(data)
        return
    if h.hint is None:
        out.print(
            f"turn {h.turn}, player {h.player}: no proven best turn "
            f"({data.get('verdict', 'unknown')})"
        )
        return
    out.print(f"turn {h.turn}: " + _turn_text(h.hint.to_dict()), markup=False)
    if record.deal.players == 1:
        out.print(f"{data['turn_count']} turns left with best play (proven)")
    elif data["tie"]:
        out.print("with best play from here: a shared win (proven)")
    else:
        out.print(f"with best play from here: player {data['winner']} wins (proven)")


@cento.command()
@record_argument()
@limit_options(
    5.0,
    time_help="Seconds per position before it is left undecided.",
    nodes_help="Search nodes per position before it is left undecided (default: no limit).",
)
@json_option("Print the review as JSON.")
@user_errors
def analyze(record_file: str, limit: Limit, as_json: bool) -> None:
    """Where a played game went wrong. Alone: the turns wasted against the
    fewest (and a turn after which the hand could no longer be emptied).
    Two players: the first turn that threw a forced win away, where the
    two-player search decides, with a winning turn instead."""
    from ..analysis.cento.review import review

    record = _load_record(record_file)
    total = len(record.turns) + 1
    with _progress(not as_json, total, "solving positions") as step:
        result = review(record, limit, step)
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    if record.deal.players == 1:
        if data["turn_count"] is None:
            head = (
                "the hand could not be emptied from the start"
                if data["verdict"] == "loss"
                else ("the fewest turns are unknown within the budget")
            )
        else:
            head = f"fewest turns: {data['turn_count']}; played {data['turns_played']}"
            if data["wasted"] is not None:
                head += f", {plural(data['wasted'], 'turn')} wasted"
            elif data["status"] != "won":
                head += f" ({data['status']})"
        out.print(head, markup=False)
    else:
        text = {"win": "player 1 wins", "loss": "player 2 wins", "tie": "a shared win"}
        start = text.get(data["verdict"], "undecided within the budget")
        out.print(f"from the deal with best play: {start}; game {data['status']}", markup=False)
    for t in result.turns:
        line = f"turn {t.turn}: " + _turn_text(t.played.to_dict())
        d = t.to_dict(record.deal.players)
        if record.deal.players == 1 and d["wasted"]:
            line += f"  wastes {plural(d['wasted'], 'turn')}"
        if t.lost_win:
            line += (
                "  throws the win away"
                if record.deal.players == 2
                else "  the hand can no longer be emptied"
            )
        elif record.deal.players == 2 and d["value_lost"]:
            line += "  throws the shared win away"
        style = ""
        if t.best_instead is not None:
            style = "yellow"
            line += "; instead: " + _turn_text(t.best_instead.to_dict()).split(": ", 1)[1]
        out.print(line, style=style, markup=False)
    first = data["first_mistake"]
    if first is None:
        out.print(
            "no turn threw anything away"
            + ("" if data["optimal"] else " (where the search decided)"),
            style="green",
        )
    else:
        out.print(f"first mistake: turn {first}", style="bold")
    if not data["optimal"]:
        out.print(
            f"{data.get('undecided', 0)} positions undecided within {limit.describe()} each",
            style="dim",
        )
    out.print(_stats_text(data), style="dim")


@contextlib.contextmanager
def _progress(enabled: bool, total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        task = bar.add_task(label, total=total)
        yield lambda _i: bar.advance(task)


@cento.command()
@record_argument(required=False)
@deal_options(players=1)
@limit_options(
    60.0,
    time_help="Seconds before the answer is 'unknown'.",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option("Print the line and reasons as JSON.")
@user_errors
def explain(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    limit: Limit,
    as_json: bool,
    **kw: Any,
) -> None:
    """The solved line turn by turn, each turn with the rules that allow it
    and what is left after it (from a deal, or from a record FILE's position)."""
    from ..analysis.cento.explain import explain_line

    if record_file is not None:
        if seed is not None or deck is not None or deal_file is not None:
            raise InvalidInputError("give a record FILE or a deal option, not both", "explain")
        record = _load_record(record_file)
        _legal_position(record, record_file)
    else:
        record = CentoRecord(deal_from_options(seed, deck, deal_file, players, kw), ())
    if record.deal.players > 2:
        raise InvalidInputError(f"explain takes 1 or 2 players, not {record.deal.players}", "deal")
    with searching(enabled=not as_json) as tick:
        result = explain_line(record, replace(limit, progress=tick))
    data = result.to_dict()
    if as_json:
        print_json(data)
        return
    out.print(result.headline, markup=False)
    for step in result.steps:
        out.print(f"turn {step.turn}: " + _turn_text(step.played.to_dict()), markup=False)
        for reason in step.reasons:
            out.print(f"    {reason}", style="dim", markup=False)
    out.print(_stats_text(data), style="dim")


@cento.command()
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Puzzles to find.",
)
@click.option(
    "--seed-start",
    type=SEED,
    default=1,
    show_default=True,
    help="The first seed tried; then the seeds after it.",
)
@click.option(
    "--min-turns",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Keep puzzles whose fewest turns are at least this.",
)
@click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Keep puzzles whose fewest turns are at most this.",
)
@rule_options
@limit_options(
    10.0, time_help="Seconds per seed; seeds not proven in time are skipped.", nodes=False
)
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    default=None,
    help="Write each puzzle to DIR/cento-seed-N.json.",
)
@json_option("One JSON line per puzzle on stdout.")
@user_errors
def generate(
    count: int,
    seed_start: int,
    min_turns: int,
    max_turns: int,
    limit: Limit,
    out_dir: str | None,
    as_json: bool,
    **kw: Any,
) -> None:
    """Solo puzzles from consecutive seeds, each with a proven fewest-turns answer.

    Ctrl-C stops at once (exit 130); the puzzles printed before it stand.
    """
    from pathlib import Path

    from ..puzzles.cento.puzzles import check_turn_range
    from ..puzzles.cento.puzzles import generate as generate_puzzles

    check_turn_range(min_turns, max_turns)
    rules = make_rules(kw)
    target = Path(out_dir) if out_dir else None
    if target is not None:
        target.mkdir(parents=True, exist_ok=True)
    found = 0
    status = err.status("generating...") if err.is_terminal else contextlib.nullcontext()
    try:
        with status as live:
            for seed, puzzle in generate_puzzles(
                seed_start, rules, limit, min_turns, max_turns
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
                    out.print(f"seed {seed}: {plural(puzzle.turn_count, 'turn')} (proven)")
                if found >= count:
                    break
    except KeyboardInterrupt:
        err.print(f"interrupted after {plural(found, 'puzzle')}", markup=False)
        raise SystemExit(130) from None


@cento.command()
@click.option("--date", metavar="YYYY-MM-DD", help="The day (default: today, UTC).")
@click.option("--solution", "show_solution", is_flag=True, help="Show the proven line too.")
@json_option("Print the puzzle as JSON.")
@user_errors
def daily(date: str | None, show_solution: bool, as_json: bool) -> None:
    """The solo puzzle of the day: the same on every machine.

    Ctrl-C while it is being made prints nothing but 'interrupted' (exit 130).
    """
    from ..puzzles.cento.puzzles import parse_date

    puzzle = _daily(date, show=not as_json)
    if as_json:
        print_json(puzzle.to_dict())
        return
    d = puzzle.deal
    out.print(
        f"Cento solo puzzle of {puzzle.date} (seed {puzzle.seed}): "
        f"empty your hand in {plural(puzzle.turn_count, 'turn')}"
    )
    out.print(f"hand: {_hand_text(d.hands[0])}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {_hand_text(d.draw)}")
    out.print(f"play it: thegame cento play --daily --date {parse_date(date)}", style="dim")
    if show_solution:
        for i, t in enumerate(puzzle.turns, 1):
            out.print(f"turn {i}: " + _turn_text(t.to_dict()), markup=False)


def _daily(date: str | None, show: bool) -> SoloPuzzle:
    from ..puzzles.cento.puzzles import daily as daily_puzzle
    from ..puzzles.cento.puzzles import parse_date

    day = parse_date(date)
    status = (
        err.status("solving the puzzle of the day...")
        if err.is_terminal and show
        else contextlib.nullcontext()
    )
    with status:
        return daily_puzzle(day, Limit(time=60.0))


# How a line of play is read; a module attribute so that tests can script
# an interrupt. ``input`` (not ``click.prompt``): click turns Ctrl-C and the
# end of input into the same Abort, and play treats them differently.
read_line: Callable[[str], str] = input

PLAY_HELP = (
    "a turn, step by step: '37' plays 37, 'free 45' (or 'f45') plays a free card named 45, "
    "'draw' draws (when no card fits, or when bound by a single-digit card), 'trick' / "
    "'treat' use the 100; several steps in one line: '33 13 31'. 'end' ends a turn that "
    "could go on, 'undo', 'hint', 'help', 'quit'"
)


@cento.command()
@deal_options(players=1)
@click.option("--daily", "use_daily", is_flag=True, help="Play the solo puzzle of the day.")
@click.option("--date", metavar="YYYY-MM-DD", help="With --daily: the day (default today, UTC).")
@click.option(
    "--seat",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="Two players: your seat (player 1 moves first); the solver plays the other.",
)
@click.option(
    "--think",
    type=SECONDS,
    default=2.0,
    show_default=True,
    help="Seconds the solver searches for its turn and for a hint.",
)
@save_option("Write the game as a record after every turn ('cento check' and 'cento analyze' "
             "read it).")  # fmt: skip
@user_errors
def play(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    use_daily: bool,
    date: str | None,
    seat: int,
    think: float,
    save_file: str | None,
    **kw: Any,
) -> None:
    """Play in the terminal: alone (empty your hand in the fewest turns) or
    against the solver (two players). Commands come from stdin, so a script
    can pipe them in."""
    from ..analysis.cento.session import Session

    if use_daily:
        if seed is not None or deck is not None or deal_file is not None:
            raise InvalidInputError("--daily has its own deal: no --seed, --deck or --deal", "play")
        try:
            puzzle = _daily(date, show=True)
            d = puzzle.deal
            goal = (
                f"puzzle of {puzzle.date}: empty your hand in {plural(puzzle.turn_count, 'turn')}"
            )
        except KeyboardInterrupt:
            err.print("interrupted", markup=False)
            raise SystemExit(130) from None
    else:
        if date is not None:
            raise InvalidInputError("--date goes with --daily", "play")
        if deal_file == "-":
            raise InvalidInputError(
                "play reads its commands from stdin: give the deal as a file", "play"
            )
        d = deal_from_options(seed, deck, deal_file, players, kw)
    if d.players > 2:
        raise InvalidInputError(f"play takes 1 or 2 players, not {d.players}", "deal")
    if d.players == 1 and seat != 1:
        raise InvalidInputError("alone, you are player 1", "--seat")
    session = Session(d, frozenset({seat - 1}), Limit(time=think))
    if not use_daily:
        goal = ""
    saver = _Saver(save_file)
    saver.save(session.record)  # now: a path that cannot be written fails before the game
    who = "alone" if d.players == 1 else f"you are player {seat}, the solver player {3 - seat}"
    out.print(Text(f"Cento, {who}" + (f"; {goal}" if goal else ""), style="bold"))
    out.print(PLAY_HELP, style="dim", markup=False)
    try:
        ending = _play_loop(session, saver, think)
    except KeyboardInterrupt:
        saver.save(session.record)
        kept = f"; the game so far is saved to {save_file}" if save_file else ""
        err.print(f"\ninterrupted{kept}", markup=False, soft_wrap=True)
        raise SystemExit(130) from None
    saver.save(session.record)
    _say_ending(session, ending, think)
    if save_file:
        out.print(
            f"saved to {save_file}: thegame cento check {save_file}; "
            f"thegame cento analyze {save_file}",
            style="dim",
            markup=False,
        )


class _Saver:
    def __init__(self, path: str | None) -> None:
        self.path = path

    def save(self, record: CentoRecord) -> None:
        if self.path is not None:
            write_atomic(self.path, record.to_json(indent=1) + "\n")


def _table(session: Session) -> Text:
    """The open card, every hand (everything in Cento's deal is known) and
    the draw pile's next cards."""
    s = session.state
    text = Text()
    text.append("open card ", style="dim")
    text.append(str(session.open_value()), style="bold yellow")
    if s.obliged and not session.builder:
        text.append("  (single-digit: the player to move is bound, rule Z2)", style="red")
    for p, hand in enumerate(s.hands):
        if p == s.to_move:
            hand = session.hand()
        mine = p in session.human
        text.append(
            f"\nplayer {p + 1}{' (you)' if mine and len(s.hands) > 1 else ''}: ", style="dim"
        )
        text.append(_hand_text(hand), style="bold cyan" if mine else "magenta")
        text.append(f"  [{plural(len(hand), 'card')}]", style="dim")
    pos = session.builder.pos if session.builder else s.draw_pos
    left = session.deal.draw[pos:]
    text.append(f"\ndraw pile: {plural(len(left), 'card')}", style="dim")
    if left:
        text.append(", next " + _hand_text(left[:5]), style="dim")
    return text


def _play_loop(session: Session, saver: _Saver, think: float) -> str:
    """Read and apply turns until the game is over; returns how it ended."""
    from ..analysis.cento.hint import hint_for
    from ..analysis.cento.session import parse_steps

    out.print(_table(session))
    while not session.over:
        if interrupt.requested():  # Ctrl-C stopped a search: stop the game too
            raise KeyboardInterrupt
        if session.to_move not in session.human:
            turn, proven = session.solver_turn()
            how = "proven best" if proven else f"not decided in {think:g} s: sheds the most cards"
            out.print(
                Text(f"turn {len(session.turns)}: " + _turn_text(turn.to_dict()), style="magenta")
                + Text(f"  ({how})", style="dim")
            )
            saver.save(session.record)
            if not session.over:
                out.print(_table(session))
            continue
        try:
            line = read_line(f"turn {len(session.turns) + 1}> ")
        except EOFError:
            out.print()
            return "quit"
        cmd = " ".join(line.strip().lower().split())
        if not cmd:
            continue
        if cmd in ("quit", "q", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            out.print(PLAY_HELP, style="dim", markup=False)
            continue
        if cmd == "undo":
            if not session.undo():
                out.print("nothing to take back", style="red")
            out.print(_table(session))
            continue
        if cmd == "hint":
            if session.builder is not None:
                out.print(
                    "a hint is for a whole turn: 'undo' the steps of this one first", style="red"
                )
                continue
            h = hint_for(session.record, Limit(time=think))
            if interrupt.requested():  # Ctrl-C cut the hint's search: no half answer
                raise KeyboardInterrupt
            if h.hint is None:
                out.print(f"no proven best turn within {think:g} s", style="yellow")
            else:
                out.print("hint: " + _turn_text(h.hint.to_dict()), style="green", markup=False)
            continue
        done = len(session.turns)
        try:
            if cmd in ("end", "done"):
                session.end_turn()
            else:
                session.step(parse_steps(cmd))
        except InvalidInputError as e:
            out.print(f"not understood: {e}; 'help' lists the commands", style="red", markup=False)
            continue
        except IllegalMoveError as e:
            out.print(f"not allowed: {e}; the turn starts again", style="red", markup=False)
            out.print(_table(session))
            continue
        if len(session.turns) > done:
            out.print(
                f"turn {len(session.turns)}: " + _turn_text(session.turns[-1].to_dict()),
                markup=False,
            )
            saver.save(session.record)
        if not session.over:
            out.print(_table(session))
    return "over"


def _say_ending(session: Session, ending: str, think: float) -> None:
    from ..solver.cento.solo import solve_solo

    s = session.state
    turns = len(session.turns)
    if ending == "quit":
        out.print(f"game left after {plural(turns, 'turn')}", style="dim")
        return
    if session.deal.players == 1:
        if s.status == CentoStatus.WON:
            best = solve_solo(session.deal, Limit(time=max(think, 10.0)))
            text = f"hand empty in {plural(turns, 'turn')}"
            if best.turn_count is not None:
                extra = turns - best.turn_count
                text += f"; the fewest is {best.turn_count}" + (
                    " - perfect!" if extra == 0 else f" ({plural(extra, 'turn')} more)"
                )
            out.print(text, style="bold green")
        else:
            out.print(
                f"blocked after {plural(turns, 'turn')}: the hand cannot be emptied",
                style="bold red",
            )
        return
    winners = [w + 1 for w in s.winners]
    mine = [w for w in winners if w - 1 in session.human]
    if len(winners) > 1:
        out.print(f"a shared win after {plural(turns, 'turn')} (rule Z1)", style="bold yellow")
    elif mine:
        out.print(f"you win after {plural(turns, 'turn')}!", style="bold green")
    else:
        out.print(
            f"player {winners[0]} (the solver) wins after {plural(turns, 'turn')}", style="bold red"
        )
