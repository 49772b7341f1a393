"""``thegame explain``: a line walked turn by turn, each play with its reasons.

The reasons come from ``thegame.analysis.the_game.explain``; this module only chooses a
source (solve a deal, or replay a record), renders with rich and prints JSON.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import click
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from ...analysis.the_game.explain import (
    Reason,
    ReasonKind,
    Snapshot,
    TurnExplanation,
    explain_record,
)
from ...models import InvalidInputError
from ...models.outcome import Limit, Status, Verdict
from ...models.the_game import Deal, Play, Record, Turn, pile_index, replay
from ...models.the_game.notation import plural, turn_label
from ...solver.the_game.solution import EngineName, Solution
from ..common import print_json, searching, user_errors
from ..options import json_option, limit_options, record_argument
from .kinds import kind_of
from .options import deal_options, load_deal, load_record
from .render import LineView, card_text, cards_text, deal_title, legend, marked_line

# How a reason looks on a terminal (plain text elsewhere: rich detects it).
_REASON_STYLE = {
    ReasonKind.CLEAR: "bold green",
    ReasonKind.FORCED: "magenta",
    ReasonKind.FIRE: "red",
    ReasonKind.FIRE_DEADLINE: "bold red",
    ReasonKind.FIRE_COVER: "red",
    ReasonKind.TRICK: "green",
    ReasonKind.SETUP: "cyan",
    ReasonKind.EXTRA: "green",
    ReasonKind.OPPONENT: "blue",
    ReasonKind.COMMAND: "blue",
}
_LABEL_WIDTH = 8  # "before" and two spaces
_PLAY_WIDTH = 16  # "99 on D2 (100)" and a little air, so reasons line up


class Source(StrEnum):
    """Where the explained line comes from."""

    SOLVE = "solve"  # the solver's line for a deal
    RECORD = "record"  # a record's turns, replayed


@dataclass(frozen=True)
class Summary:
    """The verdict above the turns: from the solver or from a record's replay."""

    source: Source
    verdict: str  # win|loss|unknown (a record: win when won, else unknown)
    cards_left: int
    status: Status  # the engine's status at the end of the line
    reason: str | None  # why the line ended (engine text with rule id)
    proof: str | None
    deal: Deal  # with the starting player fixed
    seed: int | None = None
    # The solver's word that cards_left is the fewest possible (records: None).
    optimal: bool | None = None

    def to_dict(self, turns: list[TurnExplanation]) -> dict[str, Any]:
        return {
            "source": self.source,
            "verdict": self.verdict,
            "cards_left": self.cards_left,
            "status": self.status,
            "reason": self.reason,
            "proof": self.proof,
            "optimal": self.optimal,
            "first": self.deal.first,
            "deal": self.deal.to_dict(),
            "turns": [t.to_dict() for t in turns],
        }


def _headline(s: Summary) -> Text:
    if s.source is Source.RECORD:
        style = {Status.WON: "bold green", Status.LOST: "bold red"}.get(s.status, "bold yellow")
        word = {Status.WON: "won", Status.LOST: "lost"}.get(s.status, "in progress")
        line = Text("RECORD", style=style)
        line.append(f" - {word}" + (f": {s.reason}" if s.reason else ""))
        line.append(f"; cards left: {s.cards_left}")
        return line
    if s.verdict == Verdict.WIN:
        return Text("WIN", style="bold green") + Text(" - perfect clear")
    if s.verdict == Verdict.LOSS:
        head = Text("LOSS", style="bold red")
        best = "best possible" if s.optimal is not False else "best found"
        return head + Text(f" - {best}: {plural(s.cards_left, 'card')} left")
    head = Text("UNKNOWN", style="bold yellow")
    left = plural(s.cards_left, "card")
    return head + Text(f" - best found: {left} left (no proof within the time)")


def _table_text(deal: Deal, snap: Snapshot) -> Text:
    piles = "  ".join(f"{name} {card_text(deal, top)}" for name, top in snap.piles)
    return Text(f"{piles}   hand {cards_text(deal, list(snap.hand))}")


def _reasons_text(reasons: tuple[Reason, ...], gap: int) -> Text:
    text = Text()
    for i, r in enumerate(reasons):
        if i:
            text.append("; ")
        style = _REASON_STYLE.get(r.kind, "")
        if r.kind is ReasonKind.GAP and gap:
            style = "yellow"
        text.append(r.text, style=style)
    return text


class _Rows:
    """Labelled rows whose long text wraps with a hanging indent.

    A rich table would do the layout too, but pads every line to the full
    width with spaces; these rows end where their text ends.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[str, Text, Text]] = []

    def add(self, label: str, body: Text | str, lead: Text | None = None) -> None:
        body_text = body if isinstance(body, Text) else Text(body)
        self.rows.append((label, lead or Text(), body_text))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for label, lead, body in self.rows:
            indent = _LABEL_WIDTH + len(lead)
            width = max(20, options.max_width - indent)
            lines = body.wrap(console, width, justify="default", overflow="fold")
            for i, line in enumerate(lines):
                line.rstrip()
                if i == 0:
                    head = Text(label.ljust(_LABEL_WIDTH), style="dim") + lead
                else:
                    head = Text(" " * indent)
                yield head + line


def turn_view(deal: Deal, t: TurnExplanation) -> RenderableType:
    """One turn: piles and hand before, each play with why, the draw, after."""
    head = Text(f"{turn_label(t.turn)} - player {t.player}", style="bold")
    head.append(f" - needs {plural(t.minimum, 'card')} - draw pile {t.draw_before}")
    rows = _Rows()
    rows.add("before", _table_text(deal, t.before))
    plays = [
        f"{card_text(deal, p.card)} {p.pile} (on {card_text(deal, p.before)})" for p in t.plays
    ]
    # Command markers ("83[S]") make plays longer: the turn's reasons still
    # line up, a space after the longest play.
    width = max([_PLAY_WIDTH, *(len(play) + 1 for play in plays)])
    for p, play in zip(t.plays, plays, strict=True):
        rows.add("play", _reasons_text(p.reasons, p.gap), Text(play.ljust(width), "bold"))
    if t.drew:
        drew = cards_text(deal, list(t.drew))
    elif t.draw_before == 0:
        drew = "nothing (the draw pile is empty)"
    else:
        drew = "nothing"
    rows.add("drew", drew)
    rows.add("after", _table_text(deal, t.after))
    rows.add("left", f"{plural(t.cards_left, 'card')}, draw pile {t.draw_left}")
    for note in t.notes:
        rows.add("note", Text(note.text, style="bold" if note.kind is ReasonKind.END else ""))
    return Group(head, rows)


def _plays(deal: Deal, t: TurnExplanation) -> tuple[Play, ...]:
    return tuple(Play(p.card, pile_index(deal.rules, p.pile)) for p in t.plays)


def explain_view(summary: Summary, turns: list[TurnExplanation]) -> Group:
    """The whole explanation: verdict, the deal, every turn, the end."""
    deal = summary.deal
    parts: list[RenderableType] = [_headline(summary)]
    if summary.proof:
        parts.append(Text(f"proof: {summary.proof}"))
    parts.append(Text(deal_title(deal, summary.seed)))
    if turns:
        line = marked_line(deal, [Turn(t.player, _plays(deal, t)) for t in turns])
        parts.append(LineView("line: ", line))
    note = legend(deal)
    if note:
        parts.append(Text(note))
    for t in turns:
        parts.append(Text())
        parts.append(turn_view(deal, t))
    if not turns:
        why = f": {summary.reason}" if summary.reason else ""
        parts.append(Text(f"no turns to explain{why}"))
    return Group(*parts)


def summary_of_record(record: Record, where: str) -> tuple[Summary, list[TurnExplanation]]:
    turns = explain_record(record, where)
    result = replay(record)  # legal here: explain_record would have raised
    summary = Summary(
        source=Source.RECORD,
        # A record won is a line that replays to a clear: a win. One lost or
        # in progress proves nothing about the position: unknown (its status
        # says how it ended).
        verdict=Verdict.WIN if result.state.status == Status.WON else Verdict.UNKNOWN,
        cards_left=result.cards_left,
        status=result.state.status,
        reason=result.reason,
        proof=None,
        deal=record.deal.with_first(record.first),
    )
    return summary, turns


def summary_of_solution(
    sol: Solution, seed: int | None
) -> tuple[Summary, list[TurnExplanation]]:
    record = sol.record()
    turns = explain_record(record, "solution")
    final = replay(record)
    summary = Summary(
        source=Source.SOLVE,
        verdict=sol.verdict,
        cards_left=sol.cards_left,
        status=final.state.status,
        reason=final.reason,
        proof=sol.proof,
        deal=record.deal,
        seed=seed,
        # A loss may come with a line that is not proven the best one.
        optimal=sol.optimal,
    )
    return summary, turns


@click.command()
@record_argument(required=False)
@deal_options
@click.option("--record", "old_record", metavar="FILE", hidden=True)  # the old spelling of FILE
@limit_options(
    60.0, time_help="With a deal: seconds the solver may take before the verdict is 'unknown'."
)
@json_option("Print the explanation as JSON.")
@user_errors
def explain(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
    old_record: str | None,
    limit: Limit,
    as_json: bool,
) -> None:
    """Walk a line turn by turn and say why each card was played.

    A record FILE: its turns are explained. A deal (--seed, --deck or
    --deal): the deal is solved first and the solver's line is explained.
    """
    if old_record is not None:
        if record_file is not None:
            raise InvalidInputError("give the record once, as FILE", "options")
        record_file = old_record
    if record_file is not None:
        deal_given = seed is not None or deck or deal_file or variant or players or first
        if deal_given:
            raise InvalidInputError(
                "a record FILE brings its own deal; drop the deal options", "options"
            )
        record = load_record(record_file)
        if not kind_of(record.deal.rules).explained:
            raise InvalidInputError(
                f"explain walks the solitaire and team games; for a Face to Face record "
                f"'thegame analyze {record_file}' judges each turn",
                record_file,
            )
        summary, turns = summary_of_record(record, record_file)
    else:
        if seed is None and not deck and not deal_file:
            raise InvalidInputError(
                "no deal given: give a record FILE, or a deal with --seed N, --deck '...' "
                "or --deal FILE",
                "options",
            )
        from ...solver.the_game import portfolio  # late: the solver imports OR-Tools lazily

        deal = load_deal(seed, deck, deal_file, variant, players, first)
        if not kind_of(deal.rules).explained:
            # The command to type, with the options given here.
            if deal_file:
                source = f"--deal {shlex.quote(deal_file)}"
            else:
                cards = shlex.quote(deck or "")
                source = f"--seed {seed}" if seed is not None else f"--deck {cards}"
                source += f" --variant {deal.rules.name}"
            raise InvalidInputError(
                f"explain walks the solitaire and team games; for Face to Face, "
                f"thegame solve {source} shows who wins and the line",
                "options",
            )
        with searching(enabled=not as_json) as tick:
            sol = portfolio.solve_with(deal, EngineName.AUTO, replace(limit, progress=tick))
        summary, turns = summary_of_solution(sol, seed)
    if as_json:
        print_json(summary.to_dict(turns))
        return
    # A console per run: it detects the terminal (and COLUMNS) as it is now.
    Console(highlight=False).print(explain_view(summary, turns))
