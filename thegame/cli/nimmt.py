"""``thegame nimmt ...``: deal, check, solve and analyze rounds of 6 nimmt!."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ..models.errors import InvalidInputError
from ..models.nimmt.deal import Deal
from ..models.nimmt.record import Record, replay
from ..models.outcome import Limit
from ..solver.nimmt.problem import problem_from_record
from ..solver.nimmt.search import Move, Searcher, line_heads
from .common import SEED, err, out, print_json, read_text, searching, user_errors


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def nimmt() -> None:
    """6 nimmt! (rules S1-S6): deals, records, the exact best response."""


def _load(path: str) -> Record:
    return Record.from_text(read_text(path), path)


def _player(record: Record, player: int) -> int:
    """The 0-based index of a 1-based ``--player``."""
    if not 1 <= player <= record.deal.players:
        raise InvalidInputError(f"{player} is not a player 1..{record.deal.players}", "--player")
    return player - 1


@nimmt.command()
@click.option("--seed", type=SEED, default=0, show_default=True, help="The deal's seed.")
@click.option("--players", type=int, default=4, show_default=True, help="2 to 10 (rule S1).")
@click.option("--json", "as_json", is_flag=True, help="Print the deal as JSON.")
@user_errors
def deal(seed: int, players: int, as_json: bool) -> None:
    """Show a seeded deal: the four row starters and every hand (rule S6)."""
    d = Deal.from_seed(seed, players)
    if as_json:
        print_json(d.to_json())
        return
    out.print(f"6 nimmt! seed {seed}, {players} players")
    for i, c in enumerate(d.rows, 1):
        out.print(f"  row {i}: {c}")
    for p, hand in enumerate(d.hands, 1):
        out.print(f"  player {p}: {' '.join(map(str, hand))}")


@nimmt.command()
@click.argument("record_file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a round record by rules S1-S4.

    Exit code 0 when legal, 2 when a play is illegal or the file is malformed.
    """
    result = replay(_load(record_file))
    if as_json:
        print_json(result.to_json())
    else:
        heads = " ".join(f"P{p}={h}" for p, h in enumerate(result.heads, 1))
        if result.error is None:
            out.print(f"legal, {result.status.value}; heads {heads}", soft_wrap=True)
        else:
            e = result.error
            err.print(f"illegal at turn {e.turn}, player {e.player}: {e.message}", soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)


def _turns_json(line: tuple[Move, ...] | list[Move]) -> list[dict[str, int | None]]:
    return [{"card": m.card, "row": None if m.row is None else m.row + 1} for m in line]


@nimmt.command()
@click.argument("record_file", metavar="FILE")
@click.option("--player", type=int, required=True, help="The player (from 1) to answer for.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def solve(record_file: str, player: int, as_json: bool) -> None:
    """The exact best response: the order of the player's ten cards and its
    row choices that take the fewest heads against the others' recorded cards
    (a complete search; see the README for how others' row choices apply)."""
    record = _load(record_file)
    p = _player(record, player)
    problem = problem_from_record(record, p)
    played = [Move(t.cards[p], t.choices.get(p)) for t in record.turns]
    with searching(not as_json) as tick:
        solution = Searcher(problem, Limit(progress=tick)).solve()
    result = {
        "player": player,
        "heads": solution.heads,
        "optimal": True,
        "played_heads": line_heads(problem, played),
        "turns": _turns_json(solution.line),
    }
    if as_json:
        print_json(result)
        return
    out.print(
        f"player {player}: at best {solution.heads} heads (proven, {solution.nodes:,} nodes); "
        f"played {result['played_heads']}"
    )
    for t, m in enumerate(solution.line, 1):
        choice = "" if m.row is None else f", takes row {m.row + 1}"
        out.print(f"  turn {t:>2}: {m.card}{choice}")


@nimmt.command()
@click.argument("record_file", metavar="FILE")
@click.option("--player", type=int, required=True, help="The player (from 1) to review.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Samples per turn for the best card by what the player knew.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sampling.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@user_errors
def analyze(record_file: str, player: int, samples: int, seed: int, as_json: bool) -> None:
    """Per turn: the card played, the best card with hindsight and the best
    card by what the player knew (sampled), each priced in heads with the best
    play afterwards (hindsight); and the heads lost in the round."""
    from ..analysis.nimmt.review import review

    record = _load(record_file)
    p = _player(record, player)
    problem_from_record(record, p)  # a legal finished record, before any work
    with _turn_bar(not as_json) as step:
        result = review(record, p, samples, seed, step)
    if as_json:
        print_json(result.to_json())
        return
    out.print(
        f"player {player}: took {result.played_heads} heads, {result.optimal_heads} at best "
        f"with hindsight: {result.lost} lost (blind choice: {samples} samples, seed {seed})",
        soft_wrap=True,
    )
    for t in result.turns:
        played = f"{t.played.card}" + ("" if t.played.row is None else f" (row {t.played.row + 1})")
        best = f"{t.best.card}" + ("" if t.best.row is None else f" (row {t.best.row + 1})")
        mark = f"  lost {t.lost}" if t.lost else ""
        out.print(
            f"  turn {t.turn:>2}: played {played} = {t.played_heads}; "
            f"hindsight {best} = {t.best_heads}; blind {t.blind_card} = {t.blind_heads}{mark}",
            soft_wrap=True,
        )


@contextlib.contextmanager
def _turn_bar(enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over the ten turns, on stderr when it is a terminal."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        task = bar.add_task("turns", total=10)
        yield lambda _t: bar.advance(task)
