"""``thegame nimmt play``: a game against blind players in the terminal; the
person's lines are read here, the table is drawn by ``play_view``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from rich.text import Text

from ...analysis.nimmt.budget import SAMPLES
from ...analysis.nimmt.players import LEVELS, by_level
from ...models.errors import IllegalMoveError, InvalidInputError
from ...models.nimmt.deal import Deal, check_players
from ...models.nimmt.record import GameRecord, Record, replay
from ...models.nimmt.rules import GAME_END, HAND, ROWS
from ...models.nimmt.state import Player, TurnShown, View, game_over, play_round, round_deals
from ...models.words import plural
from ..common import out, tell, user_errors, write_atomic
from ..options import choice_option, save_option
from .options import PLAYERS_OPTION, deal_from_options, deal_options
from .play_view import hand_view, points, rows_view, say_result, show_turn

# How a line is read; a module attribute so that tests can script an
# interrupt. ``input`` (not ``click.prompt``): click turns Ctrl-C and the
# end of input into the same Abort, and play treats them differently.
read_line: Callable[[str], str] = input

PLAY_HELP = (
    "type a card of your hand to play it ('hint' suggests one, 'quit' stops); when your "
    "card is lower than every row's end you take a row: type its number 1-4 (rule S3)"
)

# Why 'undo' is refused: every card of a turn is revealed together the moment
# yours is chosen (rule S2), so there is no chosen-but-hidden card to take
# back, and taking one back after the reveal would play with the others'
# cards in sight.
NO_UNDO = (
    "no undo in 6 nimmt!: the cards are revealed together as soon as you choose yours "
    "(rule S2), and a card taken back after that would be chosen with the others' in sight"
)


class Quit(Exception):
    """The person stopped the game ('quit', or the end of input)."""


class Human:
    """The person at the keyboard, as a ``Player``: asked for a card and,
    when the card is below every row, for the row it takes (rule S3)."""

    def __init__(self, samples: int) -> None:
        self.samples = samples

    def _read(self, prompt: str) -> str:
        try:
            return read_line(prompt).strip().lower()
        except EOFError:
            out.print()
            raise Quit from None

    def choose_card(self, view: View) -> int:
        from ...analysis.nimmt.review import known_means

        out.print(rows_view(view.rows), end="")
        out.print(hand_view(view.hand))
        while True:
            line = self._read(f"turn {view.turn + 1}, your card> ")
            if line in ("quit", "q", "exit"):
                raise Quit
            if line in ("help", "?", ""):
                out.print(PLAY_HELP, style="dim", markup=False)
                continue
            if line == "undo":
                out.print(NO_UNDO, style="red", markup=False)
                continue
            if line == "hint":
                means = known_means(view, self.samples, view.turn)
                best = min(view.hand, key=lambda c: (means[c], c))
                out.print(
                    f"hint: {best} (by what you have seen, {plural(self.samples, 'sample')})",
                    style="green",
                )
                continue
            if line.isdigit() and int(line) in view.hand:
                return int(line)
            out.print(
                f"{line!r} is not a card of your hand; 'help' for the commands",
                style="red",
                markup=False,
            )

    def choose_row(self, view: View) -> int:
        assert view.trick is not None
        card = view.trick[view.player]
        out.print(
            Text(f"your {card} is lower than every row's end: take a row (rule S3)", style="bold")
        )
        out.print(rows_view(view.rows), end="")
        while True:
            line = self._read("row to take (1-4)> ")
            if line in ("quit", "q", "exit"):
                raise Quit
            if line.isdigit() and 1 <= int(line) <= ROWS:
                return int(line) - 1
            if line == "undo":
                out.print(NO_UNDO, style="red", markup=False)
                continue
            out.print("type a row number 1-4", style="red")


@dataclass
class _Match:
    """The game in play: the seats, the whole rounds played, the points, and
    the turn reached in the round in play; the file written after every turn
    (a round record with --one-round, else the game's rounds so far)."""

    seats: Sequence[Player]
    one_round: bool
    seed: int | None
    save_file: str | None
    scores: list[int]
    rounds: list[Record] = field(default_factory=list)
    turn: int = 0  # turns of the round in play

    def save(self, current: Record | None) -> None:
        if self.save_file is None:
            return
        if self.one_round:
            assert current is not None
            write_atomic(self.save_file, _dump(current.to_json()))
        else:
            done = self.rounds + ([current] if current is not None else [])
            write_atomic(self.save_file, _dump(GameRecord(tuple(done), self.seed).to_json()))

    def watch(self, shown: TurnShown) -> None:
        self.turn = shown.turn
        show_turn(shown)
        self.save(shown.record)

    def run(self, deals: Iterator[Deal]) -> None:
        """Round after round until the game ends (rule S5), or the one round."""
        for number, d in enumerate(deals, 1):
            if not self.one_round:
                out.print(Text(f"\nround {number}; points: {points(self.scores)}", style="bold"))
            self.turn = 0
            record = play_round(d, self.seats, self.scores, self.watch)
            self.rounds.append(record)
            heads = replay(record).heads
            self.scores = [s + h for s, h in zip(self.scores, heads, strict=True)]
            out.print(f"round {number} heads: {points(heads)}", style="bold")
            if self.one_round or game_over(self.scores):
                break

    def left(self) -> str:
        """How far the game went before the person left it."""
        where = plural(self.turn, "turn")
        if not self.one_round:
            where = f"{plural(len(self.rounds), 'whole round')} and {where}"
        return f"game left after {where}"


@click.command()
@deal_options("A deal file, or a round record with no turn played (one round: implies "
              "--one-round).")  # fmt: skip
@PLAYERS_OPTION
@choice_option(
    "--strength",
    list(LEVELS),
    "The other players: easy plays a random card, normal samples the unseen cards "
    "and plays the best response in each sample (a few seconds a turn), strong (the "
    "strongest measured) searches sampled deals with playouts and an exact endgame "
    "(0.3 s of CPU a decision).",
    default="strong",
)
# The older name ('--level' is a level number in The Mind): still read.
@click.option("--level", "old_level", type=click.Choice(list(LEVELS)), default=None, hidden=True,
              help="The older name of --strength.")
@click.option(
    "--one-round",
    is_flag=True,
    help=f"Play one round (10 turns), not a whole game to {GAME_END} points (rule S5).",
)
@save_option(
    "Write the game as a record after every turn: a round record with --one-round, else "
    "the game's rounds ('nimmt check' and 'nimmt analyze' read both)."
)
@click.option(
    "--hint-samples",
    type=click.IntRange(min=1),
    default=SAMPLES,
    show_default=True,
    help="Guesses at the unseen cards behind the 'hint' command.",
)
@user_errors
def play(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    strength: str,
    old_level: str | None,
    one_round: bool,
    save_file: str | None,
    hint_samples: int,
) -> None:
    """Play 6 nimmt! against blind players (they see only their own hand):
    you are player 1. Commands come from stdin, so a script can pipe them in.
    Without a deal option the game's seed comes from the clock (and is shown)."""
    level = old_level or strength
    check_players(players)
    if deck is not None or deal_file is not None:
        one_round = True  # a given deal is one round's
    elif seed is None:
        seed = time.time_ns() % 1_000_000
    if deal_file == "-":
        raise InvalidInputError(
            "play reads its commands from stdin: give the deal as a file", "play"
        )
    first = deal_from_options(seed, deck, deal_file, players)
    n = first.players
    seats = [Human(hint_samples), *(by_level(level, (seed or 0) * 16 + p) for p in range(1, n))]
    match = _Match(seats, one_round, seed, save_file, [0] * n)
    match.save(Record(first, ()))  # now: a path that cannot be written fails before the game
    what = "one round" if one_round else f"a game to {GAME_END} points"
    source = f", seed {seed}" if seed is not None else ""
    out.print(
        Text(f"6 nimmt!, {what}{source}: you and {plural(n - 1, 'player')} ({level})", style="bold")
    )
    out.print(PLAY_HELP, style="dim", markup=False)
    try:
        match.run(iter([first]) if one_round else round_deals(seed or 0, n))
    except Quit:
        out.print(match.left(), style="dim")
        _saved(save_file, one_round)
        return
    except KeyboardInterrupt:
        kept = f"; the game so far is saved to {save_file}" if save_file else ""
        tell(f"\ninterrupted{kept}")
        raise SystemExit(130) from None
    except IllegalMoveError as e:  # pragma: no cover - players play from their hands
        raise InvalidInputError(str(e), "play") from None
    match.save(match.rounds[-1] if one_round else None)
    say_result(match.scores, one_round)
    _saved(save_file, one_round)


def _dump(data: Any) -> str:
    return json.dumps(data, indent=1) + "\n"


def _saved(save_file: str | None, one_round: bool) -> None:
    """Where the record went and the commands that read it: ``analyze``
    needs a finished round, so a round left half played gets ``hint``."""
    if save_file is None:
        return
    from .options import load

    saved = load(save_file)
    rounds = saved.rounds if isinstance(saved, GameRecord) else (saved,)
    last, done = rounds[-1], len(rounds) - 1
    commands = [f"thegame nimmt check {save_file}"]
    if len(last.turns) == HAND:
        commands.append(f"thegame nimmt analyze {save_file} --player 1")
    else:
        commands.append(f"thegame nimmt hint {save_file} --player 1")
        if done:
            commands.append(f"thegame nimmt analyze {save_file} --player 1 --round {done}")
    # One line, never wrapped: the commands are there to be copied.
    out.print(f"saved to {save_file}: " + "; ".join(commands), style="dim", markup=False,
              soft_wrap=True)
