"""``thegame mind ...``: deals, records, the gap model and the exact odds of The Mind."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..analysis.mind.analyze import LevelAnalysis, analyze_level
from ..models.check import status_text, step_text
from ..models.errors import IllegalMoveError, InvalidInputError
from ..models.jsonio import in_file, load_json
from ..models.mind import (
    HIGH,
    MAX_LIVES,
    MAX_STARS,
    Campaign,
    Deal,
    Event,
    Play,
    Record,
    Rules,
    Star,
    check,
)
from ..models.outcome import Status
from ..models.words import plural
from ..solver.mind.campaign import CampaignSolution, solve_campaign
from ..solver.mind.gap import GapResult, check_tolerance, play_gap
from ..solver.mind.odds import LevelOdds, campaign_odds
from ..solver.mind.sample import sample_level
from .common import SEED, err, out, print_json, read_text, tell, user_errors, writable, write_atomic
from .options import deal_source_options, json_option, record_argument, save_option

PLAYERS = click.IntRange(2, 4)
players_option = click.option("--players", type=PLAYERS, required=True, help="Players (2-4).")
high_option = click.option("--high", type=click.IntRange(2, 1000), default=HIGH,
                           show_default=True, help="Highest card (a smaller deck for tests).")
tolerance_option = click.option("--tolerance", "-d", type=click.IntRange(min=1), required=True,
                                help="Rule M6: cards closer than d collide.")


def _lives(n: int) -> str:
    return f"{n} {'life' if n == 1 else 'lives'}"


@click.group()
def mind() -> None:
    """The Mind (rules M1-M6): deals, records, the gap model, exact odds."""


def _json(path: str) -> Any:
    return load_json(read_text(path), path)


def _load_deal(path: str) -> Deal:
    """A deal JSON, or a record JSON whose deal is taken."""
    data = _json(path)
    try:
        if isinstance(data, dict) and "deal" in data:
            return Record.from_dict(data, path).deal
        return Deal.from_dict(data, path)
    except InvalidInputError as err:
        raise in_file(err, path) from None


def _load_record(path: str) -> Record:
    try:
        return Record.from_dict(_json(path), path)
    except InvalidInputError as err:
        raise in_file(err, path) from None


def _hands_text(deal: Deal) -> str:
    return "\n".join(
        f"player {i}: {' '.join(map(str, hand))}" for i, hand in enumerate(deal.hands, 1)
    )


def _deal_from(seed: int | None, deck: str | None, deal_file: str | None,
               players: int | None, level: int | None, high: int = HIGH) -> Deal:
    """The deal of exactly one of ``--seed``, ``--deck`` (both with
    ``--players`` and ``--level``) and ``--deal``."""
    given = [n for n, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file))
             if v is not None]
    if len(given) != 1:
        what = " and ".join(given) if given else "none"
        raise InvalidInputError(
            f"give one deal: --seed N, --deck CARDS or --deal FILE (given: {what})", "options")
    if deal_file is not None:
        return _load_deal(deal_file)
    if players is None or level is None:
        raise InvalidInputError(f"{given[0]} needs --players and --level", "options")
    if seed is not None:
        return Deal.from_seed(seed, players, level, high)
    assert deck is not None
    words = deck.replace(",", " ").split()
    bad = [w for w in words if not w.isdigit()]
    if bad:
        raise InvalidInputError(f"{bad[0]!r} is not a card number", "--deck")
    cards = [int(w) for w in words]
    need = players * level
    if len(cards) != need:
        raise InvalidInputError(
            f"{len(cards)} cards; {players} players at level {level} hold {need} (rule M2)",
            "--deck")
    hands = [sorted(cards[p * level:(p + 1) * level]) for p in range(players)]
    data: dict[str, Any] = {"players": players, "level": level, "hands": hands}
    if high != HIGH:
        data["rules"] = {"high": high}
    try:
        return Deal.from_dict(data, "--deck")
    except InvalidInputError as err:
        raise InvalidInputError(err.message, "--deck") from None  # the option is the place


@mind.command()
@deal_source_options(seed_help="Deal by seed (the same deal on every machine; with --players "
                     "and --level).",
                     deck_help='The cards in deal order, "c1 c2 ..." (spaces or commas): '
                     "player 1's level cards, then player 2's, ... (with --players and --level).",
                     deal_help="A deal or record JSON: its deal ('-': stdin).")
@click.option("--players", type=PLAYERS, help="With --seed or --deck: players (2-4).")
@click.option("--level", type=click.IntRange(min=1),
              help="With --seed or --deck: the level, n cards each (rule M2).")
@high_option
@json_option("Print the deal as JSON.")
@user_errors
def deal(seed: int | None, deck: str | None, deal_file: str | None, players: int | None,
         level: int | None, high: int, as_json: bool) -> None:
    """Show the deal of one level (rule M2: level n, n cards each)."""
    d = _deal_from(seed, deck, deal_file, players, level, high)
    if as_json:
        print_json(d.to_dict())
        return
    where = f", seed {seed}" if seed is not None else ""
    out.print(f"The Mind, {d.players} players, level {d.level}{where}")
    out.print(_hands_text(d), markup=False)


@mind.command("check")
@record_argument()
@json_option()
@user_errors
def check_cmd(record_file: str, as_json: bool) -> None:
    """Replay a level record. Exit code 2 when an event is illegal."""
    record = _load_record(record_file)
    result = check(record)
    if as_json:
        print_json(result.to_dict())
    else:
        s = result.state
        facts = (f"{_lives(s.lives_lost)} lost, {s.stars_used} stars used, "
                 f"discarded {' '.join(map(str, s.discarded)) or 'nothing'}")
        (out if result.legal else err).print(result.line("event", facts), markup=False,
                                             soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)


def _gap_text(result: GapResult) -> str:
    lines = [f"tolerance d = {result.tolerance}{', star at the start' if result.star else ''}: "
             f"{_lives(result.lives_lost)} lost"]
    for c in result.collisions:
        lower = ", ".join(f"{card} (player {p})" for p, card in c.discarded)
        lines.append(f"  player {c.player} plays {c.played} too early: discards {lower}")
    order = " ".join("star" if isinstance(e, Star) else str(e.card) for e in result.events)
    lines.append(f"  order: {order}")
    return "\n".join(lines)


@mind.command()
@deal_source_options(seed_help="Deal by seed (with --players and --level).",
                     deal_help="A deal or record JSON: its deal ('-': stdin).", deck=False)
@click.option("--players", type=PLAYERS, help="With --seed: players (2-4).")
@click.option("--level", type=click.IntRange(min=1), help="With --seed: the level (n cards each).")
@tolerance_option
@click.option("--star", is_flag=True, help="Throw a star at the start (rule M4).")
@json_option()
@user_errors
def solve(seed: int | None, deal_file: str | None, players: int | None, level: int | None,
          tolerance: int, star: bool, as_json: bool) -> None:
    """Play a level under the gap model (rule M6)."""
    if deal_file is not None:
        if seed is not None:
            raise InvalidInputError("give --deal or --seed, not both", "--seed")
        d = _load_deal(deal_file)
    elif seed is None or players is None or level is None:
        raise InvalidInputError("give --deal FILE, or --seed, --players and --level", "solve")
    else:
        d = Deal.from_seed(seed, players, level)
    result = play_gap(d, tolerance, star)
    if as_json:
        print_json(result.to_dict())
    else:
        out.print(_gap_text(result), markup=False)


@contextlib.contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr, only when stderr is a terminal."""
    if not err.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda _v: bar.advance(task)


def _odds_table(levels: dict[int, tuple[LevelOdds, LevelOdds]], star: bool) -> Table:
    width = MAX_LIVES + 1
    when = "with a star at the start" if star else "without a star"
    table = Table(title=f"P(level costs k lives), rule M6, {when}")
    table.add_column("level", justify="right")
    for k in range(width):
        table.add_column(f"k={k}{'+' if k == width - 1 else ''}", justify="right")
    for level, pair in levels.items():
        p = pair[star].floats() + [0.0] * width
        cells = [*p[: width - 1], sum(p[width - 1 :])]
        table.add_row(str(level), *(f"{x:.4f}" for x in cells))
    return table


def _policy_table(rules: Rules, sol: CampaignSolution) -> Table:
    table = Table(title="Best star policy at the start of a level")
    table.add_column("level", justify="right")
    for lives in range(1, MAX_LIVES + 1):
        table.add_column(f"{lives} li{'ves' if lives > 1 else 'fe'}", justify="center")
    by = {(e.level, e.lives, e.stars): e for e in sol.policy}
    for level in range(1, rules.levels + 1):
        row = []
        for lives in range(1, MAX_LIVES + 1):
            marks = ""
            for stars in range(1, MAX_STARS + 1):
                e = by[(level, lives, stars)]
                mark = "S" if e.use_star else "-"
                marks += mark if e.reachable else mark.lower().replace("-", ".")
            row.append(marks)
        table.add_row(str(level), *row)
    table.caption = ("one mark per 1, 2, 3 stars held: S throw one, - keep them; "
                     "s and . the same in states the best policy never reaches")
    return table


@mind.command()
@players_option
@tolerance_option
@high_option
@click.option("--simulate", type=click.IntRange(min=1), default=None,
              help="Also estimate every level from this many random deals (a cross-check).")
@json_option()
@user_errors
def odds(players: int, tolerance: int, high: int, simulate: int | None, as_json: bool) -> None:
    """Exact odds of every level and the best star policy (rule M6)."""
    check_tolerance(tolerance)
    rules = Rules(players, high)
    start = time.monotonic()
    with _progress(2 * rules.levels * high, "counting deals") as tick:
        levels = campaign_odds(rules, tolerance, tick)
    sol = solve_campaign(
        rules, {n: (a.probabilities(), b.probabilities()) for n, (a, b) in levels.items()}
    )
    seconds = time.monotonic() - start
    rows = []
    for n, (plain, starred) in levels.items():
        row: dict[str, Any] = {"level": n, **plain.to_dict(),
                               "lives_lost_with_star": starred.floats()}
        if simulate:
            row["simulated"] = sample_level(players, n, tolerance, simulate, high=high,
                                            seed=n).to_dict()
        rows.append(row)
    data = {
        "players": players,
        "tolerance": tolerance,
        "high": high,
        "levels": rows,
        "campaign": sol.to_dict(),
    }
    if as_json:
        print_json(data)
        return
    out.print(_odds_table(levels, star=False))
    out.print(_odds_table(levels, star=True))
    out.print(
        f"chance to win the campaign: {float(sol.p_win):.6g} with the best star policy, "
        f"{float(sol.p_win_without_stars):.6g} without stars (exact, {seconds:.1f} s); "
        f"half the games complete {sol.median_levels} of {rules.levels} levels or more"
    )
    out.print(_policy_table(rules, sol))


def _analysis_text(a: LevelAnalysis) -> str:
    facts = f"{_lives(a.lives_lost)} lost, {a.stars_used} stars used"
    if a.error:
        lines = [f"illegal: {step_text(a.error)}"]
    else:
        events = plural(len(a.record.events), "event")
        lines = [f"legal ({events}): {status_text(a.status)}; {facts}"]
    for life in a.lives:
        lower = ", ".join(f"{c} (player {p})" for p, c in life.lower)
        lines.append(f"  event {life.event}: player {life.player} played {life.played} too "
                     f"early; lower cards discarded: {lower}")
    for w in a.what_if:
        verdict = (f"a star at the start saves {w.without.lives_lost - w.with_star.lives_lost}"
                   if w.changes else "a star at the start changes nothing")
        lines.append(f"  rule M6, d = {w.tolerance}: {_lives(w.without.lives_lost)} lost, "
                     f"{w.with_star.lives_lost} with a star: {verdict}")
    return "\n".join(lines)


@mind.command("analyze")
@record_argument()
@click.option("--tolerance", "-d", "tolerances", type=click.IntRange(min=1), multiple=True,
              help="Tolerances for the star what-if (repeatable; default 2, 3, 5).")
@json_option()
@user_errors
def analyze_cmd(record_file: str, tolerances: tuple[int, ...], as_json: bool) -> None:
    """Each life lost in a played level, and what a star at the start would change."""
    record = _load_record(record_file)
    a = analyze_level(record, tolerances or (2, 3, 5))
    if as_json:
        print_json(a.to_dict())
    elif a.legal:
        out.print(_analysis_text(a), markup=False)
    else:
        tell(_analysis_text(a))
    if not a.legal:
        raise SystemExit(2)  # as 'mind check': an illegal record is bad input


PLAY_HELP = ("commands: 'P CARD' player P plays CARD, 'star' throw a star, "
             "'hand P' show player P's hand (the others look away), 'quit'")

# How a command line is read; a module attribute so that tests can script
# Ctrl-C and the end of input (``input``: click's prompt makes both an Abort).
read_line: Callable[[str], str] = input


def _status_line(game: Campaign) -> str:
    counts = ", ".join(f"player {i}: {len(h)}" for i, h in enumerate(game.current.hands, 1))
    top = game.current.pile[-1] if game.current.pile else "-"
    return (f"level {game.level}/{game.rules.levels}, lives {game.lives}, stars {game.stars}; "
            f"pile top {top}; cards in hand: {counts}")


class LevelSaver:
    """``--save FILE``: the level in play as a level record ('mind check' and
    'mind analyze' read it), written whole after every event. When a level
    ends and the next begins, the finished level is also kept as
    ``NAME-levelN.json`` beside FILE."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.deal: Deal | None = None
        self.level = 0
        self.events: list[Event] = []

    def start(self, game: Campaign) -> None:
        """A new level begins: keep the last one, start a new record."""
        if self.path is not None and self.deal is not None and self.events:
            self._write(self._level_path(self.path, self.level))
        self.deal, self.level, self.events = game.current.deal, game.level, []

    def add(self, event: Event) -> None:
        self.events.append(event)

    def save(self) -> None:
        if self.path is not None:
            self._write(self.path)

    @staticmethod
    def _level_path(path: str, level: int) -> str:
        p = Path(path)
        return str(p.with_name(f"{p.stem}-level{level}{p.suffix or '.json'}"))

    def _write(self, path: str | None) -> None:
        if path is None or self.deal is None:
            return
        record = Record(self.deal, tuple(self.events))
        write_atomic(path, record.to_json() + "\n")


def _play_step(game: Campaign, line: str, saver: LevelSaver) -> str | None:
    """Apply one typed command; the message to show, or None to quit."""
    words = line.split()
    if words == ["quit"]:
        return None
    if words == ["star"]:
        thrown = game.star()
        saver.add(Star())
        return "star: " + ", ".join(f"player {p} throws {c}" for p, c in thrown)
    if len(words) == 2 and words[0] == "hand" and words[1].isdigit():
        p = int(words[1])
        if not 1 <= p <= game.rules.players:
            raise InvalidInputError(f"no player {p}", "hand")
        return f"player {p}: " + " ".join(map(str, game.current.hands[p - 1]))
    if len(words) == 2 and all(w.isdigit() for w in words):
        p, card = int(words[0]), int(words[1])
        if not 1 <= p <= game.rules.players:
            raise InvalidInputError(f"no player {p}", "play")
        level = game.level
        collision = game.play(p, card)
        saver.add(Play(p, card))
        msg = f"player {p} plays {card}"
        if collision is not None:
            lower = " ".join(str(c) for _, c in collision.discarded)
            msg += f": too early! a life is lost, discarded {lower} (rule M3)"
        if game.level != level and game.status is Status.IN_PROGRESS:
            msg += f"; level {level} cleared"
        return msg
    return PLAY_HELP


@mind.command("play")
@players_option
@click.option("--seed", type=SEED, default=None,
              help="Deal the whole campaign by seed (default: from the clock).")
@save_option("Write the level in play as a level record ('mind check' and 'mind analyze' "
             "read it) after every event; each finished level is kept as NAME-levelN.json.")
@user_errors
def play_cmd(players: int, seed: int | None, save_file: str | None) -> None:
    """Play a campaign at one keyboard (rules M1-M5).

    Ctrl-C stops the game (exit 130); the end of input (Ctrl-D) quits it
    (exit 0); with --save the level so far is saved either way.
    """
    if seed is None:
        seed = time.time_ns() & 0xFFFFFFFF
    if save_file is not None:
        writable(save_file)
    game = Campaign(Rules(players), seed)
    saver = LevelSaver(save_file)
    saver.start(game)
    saver.save()
    out.print(f"The Mind, {players} players, campaign seed {seed}. {PLAY_HELP}",
              markup=False, soft_wrap=True)
    try:
        ending = _play_loop(game, saver)
    except KeyboardInterrupt:
        saver.save()
        where = f"; the level so far is saved to {save_file}" if save_file else ""
        tell(f"\ninterrupted{where}")
        raise SystemExit(130) from None
    saver.save()
    out.print(ending, markup=False, soft_wrap=True)
    if save_file is not None:
        out.print(f"saved to {save_file}: thegame mind analyze {save_file}",
                  markup=False, soft_wrap=True)


def _play_loop(game: Campaign, saver: LevelSaver) -> str:
    """Read and apply commands until the game ends; how it ended, in words."""
    while game.status is Status.IN_PROGRESS:
        out.print(_status_line(game), markup=False, soft_wrap=True)
        try:
            line = read_line("> ")
        except EOFError:
            out.print()
            return f"end of input: quit at level {game.level}"
        level = game.level
        try:
            message = _play_step(game, line.strip(), saver)
        except (IllegalMoveError, InvalidInputError) as e:
            message = f"not possible: {e}"
        if message is None:
            return f"quit at level {game.level}"
        out.print(message, markup=False, soft_wrap=True)
        saver.save()
        if game.level != level:
            saver.start(game)
    return f"game {status_text(game.status)} at level {game.level}"
