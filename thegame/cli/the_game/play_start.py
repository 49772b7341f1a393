"""Which game ``thegame play`` opens: a puzzle or record FILE, the daily
puzzle (everything in view), or a real game from a deal (the draw pile
face down)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from ...models import InvalidInputError
from ...models.jsonio import in_file, load_json, same_game
from ...models.the_game import Deal, GameState
from ...models.the_game.deal import GAME
from ...models.the_game.notation import plural
from ...puzzles.the_game.daily import CLI_STREAMS
from ...puzzles.the_game.files import Puzzle
from ..common import read_text
from .kinds import kind_of
from .options import load_deal, read_game
from .puzzle_view import difficulty_text, load_daily, puzzle_title
from .session import Session, puzzle_session


def load_puzzle(path: str) -> Puzzle:
    """A puzzle file, or a record (its turns are the position). A deal file
    is pointed to ``--deal``; a record that is over or illegal says which."""
    text = read_text(path)
    data = load_json(text, path) if text.lstrip().startswith("{") else None
    same_game(data, GAME, path)
    if isinstance(data, dict) and "deal" in data:
        try:
            return Puzzle.from_dict(data, path)
        except InvalidInputError as err:
            raise in_file(err, path) from None
    # Not a record: point to --deal only for a file that holds a deal
    # (reading it says what is wrong with anything else: empty, malformed).
    read_game(path)
    raise InvalidInputError(
        f"this file holds a deal, not a puzzle or a record: play it with "
        f"'thegame play --deal {path}'",
        path,
    )


def game_title(deal: Deal, seed: int | None) -> Text:
    rules = deal.rules
    title = Text(f"{rules.name}, {plural(deal.players, 'player')}", style="bold")
    if seed is not None:
        title.append(f", seed {seed}", style="bold")
    start = deal.first or 1  # rule C3: without a choice, player 1 starts
    title.append(f" - player {start} starts; the draw pile is face down")
    return title


DealSource = tuple[int | None, str | None, str | None, str | None, int | None, int | None]


def checked_sources(
    record_file: str | None, use_daily: bool, date: str | None, deal_source: DealSource
) -> str | None:
    """Refuse options that do not name one game; the daily stream that
    ``--daily --variant`` names, if any."""
    seed, deck, deal_file, variant, players, first = deal_source
    given = [
        name
        for name, value in (
            ("--seed", seed),
            ("--deck", deck),
            ("--deal", deal_file),
            ("--variant", variant),
            ("--players", players),
            ("--first", first),
        )
        if value is not None
    ]
    if use_daily and record_file is not None:
        raise InvalidInputError("give a FILE or --daily, not both", "play")
    stream = None
    if use_daily and variant is not None and given == ["--variant"]:
        # --daily --variant extreme: the second daily stream (thegame daily).
        if variant not in CLI_STREAMS:
            raise InvalidInputError(
                f"--daily --variant {variant}: the daily streams are the default one and "
                f"{', '.join(CLI_STREAMS)}",
                "play",
            )
        stream, given = variant, []
    if (use_daily or record_file is not None) and given:
        what = "--daily" if use_daily else "a puzzle or record FILE"
        raise InvalidInputError(
            f"{given[0]} goes with a real game, not with {what} (a puzzle has its own deal)",
            "play",
        )
    if date is not None and not use_daily:
        raise InvalidInputError("--date goes with --daily", "play")
    if "-" in (deal_file, record_file):
        raise InvalidInputError(
            "play reads its commands from stdin: give the deal or puzzle as a file", "play"
        )
    if not (use_daily or record_file is not None or given):
        raise InvalidInputError(
            "give a puzzle or record FILE, --daily, or a deal for a real game "
            "(--seed N, --deck, --deal FILE)",
            "play",
        )
    return stream


def open_session(
    record_file: str | None,
    use_daily: bool,
    date: str | None,
    deal_source: DealSource,
    stream: str | None = None,
) -> Session:
    """The session the options ask for: a puzzle (everything in view) or a
    real game from a deal (the draw pile face down); ``stream``: the daily
    stream of ``--daily``."""
    if use_daily or record_file is not None:
        if use_daily:
            puzzle = load_daily(date, show=True, stream=stream)
        else:
            puzzle = load_puzzle(str(record_file))
        session = puzzle_session(puzzle)
        kind = kind_of(puzzle.deal.rules)
        lines: list[RenderableType] = [puzzle_title(puzzle, kind.puzzle_goal)]
        if puzzle.difficulty:
            lines.append(difficulty_text(puzzle, kind.difficulty(puzzle)))
        session.title = Group(*lines)
        return session
    seed, deck, deal_file, variant, players, first = deal_source
    deal = load_deal(seed, deck, deal_file, variant, players, first)
    session = Session(deal, (), GameState(deal), hidden=True)
    session.title = game_title(deal, seed)
    return session
