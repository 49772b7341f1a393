"""``thegame nimmt ...``: deal, check, solve, hint, analyze and play 6 nimmt!."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from ..analysis.nimmt.players import LEVELS, by_level
from ..models.errors import IllegalMoveError, InvalidInputError
from ..models.jsonio import load_json
from ..models.nimmt.deal import Deal, check_players
from ..models.nimmt.game import TurnShown, View, game_over, play_round, round_deals
from ..models.nimmt.record import GameRecord, Record, load_file, replay, replay_game
from ..models.nimmt.rules import GAME_END, HAND, HEADS, HIGH, LOW, ROW_LIMIT, ROWS, Rows
from ..models.outcome import Limit
from ..models.words import plural
from ..solver.nimmt.problem import problem_from_record
from ..solver.nimmt.search import BudgetExceeded, Move, Searcher, line_heads
from .common import err, out, print_json, read_text, searching, user_errors, write_atomic
from .options import (
    choice_option,
    deal_source_options,
    json_option,
    limit_options,
    record_argument,
    sample_seed_option,
    save_option,
)

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def nimmt() -> None:
    """6 nimmt! (rules S1-S6): deals, records, the exact best response, play.

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE: one round (rule S6) or a whole game (its rounds, as 'play --save'
    writes). The guide: docs/games/nimmt.md; the rules: docs/rules/nimmt.md.
    """


def _load(path: str) -> Record | GameRecord:
    return load_file(load_json(read_text(path), path))


def _round_of(path: str, round_no: int | None, last: bool = False) -> tuple[Record, str]:
    """One round of a record file, and how to name it ('' for a round file).
    A game file needs ``--round`` unless it holds one round (or ``last``)."""
    data = _load(path)
    if isinstance(data, Record):
        if round_no not in (None, 1):
            raise InvalidInputError(f"{path} is one round, not a game", "--round")
        return data, ""
    n = len(data.rounds)
    if round_no is None:
        if n > 1 and not last:
            raise InvalidInputError(
                f"holds {n} rounds: choose one with --round 1..{n}", path
            )
        round_no = n
    if not 1 <= round_no <= n:
        raise InvalidInputError(
            f"{path} holds {plural(n, 'round')}, not round {round_no}", "--round"
        )
    return data.rounds[round_no - 1], f"round {round_no}: "


def _player(record: Record, player: int) -> int:
    """The 0-based index of a 1-based ``--player``."""
    if not 1 <= player <= record.deal.players:
        raise InvalidInputError(f"{player} is not a player 1..{record.deal.players}", "--player")
    return player - 1


def _parse_deck(text: str, players: int) -> Deal:
    """Rows then hands from a deck in deal order (rule S6): 4 row starters,
    then 10 cards per player; more cards are left undealt."""
    check_players(players)
    cards = []
    for word in text.replace(",", " ").split():
        if not word.isdigit() or not LOW <= int(word) <= HIGH:
            raise InvalidInputError(f"{word!r} is not a card {LOW}..{HIGH}", "--deck")
        cards.append(int(word))
    need = ROWS + HAND * players
    if len(set(cards)) != len(cards):
        raise InvalidInputError("a card appears twice (rule S1)", "--deck")
    if len(cards) < need:
        raise InvalidInputError(
            f"{len(cards)} cards; {players} players need {need}: {ROWS} row starters, "
            f"then {HAND} per player",
            "--deck",
        )
    rows = tuple(cards[:ROWS])
    hands = tuple(
        tuple(sorted(cards[ROWS + HAND * p : ROWS + HAND * (p + 1)])) for p in range(players)
    )
    return Deal(rows, hands)


def _deal(seed: int | None, deck: str | None, deal_file: str | None, players: int) -> Deal:
    """The deal of exactly one of ``--seed``, ``--deck``, ``--deal``."""
    given = [n for n, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v]
    if seed == 0:
        given.insert(0, "--seed")
    if len(given) != 1:
        what = " and ".join(given) if given else "none"
        raise InvalidInputError(
            f"give one deal: --seed N, --deck CARDS or --deal FILE (given: {what})", "options"
        )
    if seed is not None:
        check_players(players)
        return Deal.from_seed(seed, players)
    if deck is not None:
        return _parse_deck(deck, players)
    assert deal_file is not None
    data = load_json(read_text(deal_file), deal_file)
    if isinstance(data, dict) and "deal" in data:
        record = Record.from_json(data)
        if record.turns:
            raise InvalidInputError(
                f"holds {plural(len(record.turns), 'turn')} played; --deal starts from the deal",
                deal_file,
            )
        return record.deal
    return Deal.from_json(data, deal_file)


SEED_HELP = "Deal by seed (rule S6; the same deal on every machine)."
DECK_HELP = (
    'The deck in deal order, "c1 c2 ..." (spaces or commas): the 4 row starters, then '
    "10 cards per player."
)


def deal_options(deal_help: str) -> Callable[[F], F]:
    """``--seed N`` / ``--deck CARDS`` / ``--deal FILE`` with 6 nimmt!'s help."""
    return deal_source_options(seed_help=SEED_HELP, deck_help=DECK_HELP, deal_help=deal_help)


PLAYERS_OPTION = click.option(
    "--players", type=int, default=4, show_default=True, help="2 to 10 (rule S1)."
)
ROUND_OPTION = click.option(
    "--round",
    "round_no",
    type=click.IntRange(min=1),
    default=None,
    help="Which round of a game file (from 1); a round file is its one round.",
)
PLAYER_OPTION = click.option(
    "--player", type=int, required=True, help="The player (from 1) to answer for."
)
SAMPLES_OPTION = click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Guesses at the unseen cards per turn, for the best card by what the player knew.",
)


@nimmt.command()
@deal_options("A deal file ('-': stdin), or a round record with no turn played.")
@PLAYERS_OPTION
@json_option("Print the deal as JSON.")
@user_errors
def deal(
    seed: int | None, deck: str | None, deal_file: str | None, players: int, as_json: bool
) -> None:
    """Show a deal: the four row starters and every hand (rule S6)."""
    check_players(players)
    d = _deal(seed, deck, deal_file, players)
    players = d.players
    if as_json:
        print_json(d.to_json())
        return
    where = f" seed {seed}," if seed is not None else ""
    out.print(f"6 nimmt!{where} {plural(players, 'player')}")
    for i, c in enumerate(d.rows, 1):
        out.print(f"  row {i}: {c}")
    for p, hand in enumerate(d.hands, 1):
        out.print(f"  player {p}: {' '.join(map(str, hand))}")


@nimmt.command()
@record_argument()
@json_option()
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a round record by rules S1-S4, or a whole game's rounds and
    its end by rule S5.

    Exit code 0 when legal, 2 when a play is illegal or the file is malformed.
    """
    data = _load(record_file)
    if isinstance(data, GameRecord):
        game = replay_game(data)
        if as_json:
            print_json(game.to_json())
        else:
            scores = " ".join(f"P{p}={s}" for p, s in enumerate(game.scores, 1))
            rounds = plural(len(game.rounds), "round")
            if game.error is None:
                out.print(f"legal, {rounds}, game {game.status.value}; points {scores}")
            else:
                e = game.error
                err.print(f"illegal at round {e.round}, {_error_text(e.error)}", soft_wrap=True)
        if not game.legal:
            raise SystemExit(2)
        return
    result = replay(data)
    if as_json:
        print_json(result.to_json())
    else:
        heads = " ".join(f"P{p}={h}" for p, h in enumerate(result.heads, 1))
        if result.error is None:
            out.print(f"legal, {result.status.value}; heads {heads}", soft_wrap=True)
        else:
            err.print(f"illegal at {_error_text(result.error)}", soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)


def _error_text(e: Any) -> str:
    who = "" if e.player is None else f", player {e.player}"
    return f"turn {e.turn}{who}: rule {e.rule}: {e.message}"


def _turns_json(line: tuple[Move, ...] | list[Move]) -> list[dict[str, int | None]]:
    return [{"card": m.card, "row": None if m.row is None else m.row + 1} for m in line]


@nimmt.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@limit_options(
    None,
    time_help="Seconds before the answer is 'unknown' (default: no limit).",
    nodes_help="Search nodes before the answer is 'unknown' (default: no limit).",
)
@json_option()
@user_errors
def solve(
    record_file: str,
    player: int,
    round_no: int | None,
    limit: Limit,
    as_json: bool,
) -> None:
    """The exact best response: the order of the player's ten cards and its
    row choices that take the fewest heads against the others' recorded cards
    (a complete search; the docs say how others' row choices apply)."""
    record, label = _round_of(record_file, round_no)
    p = _player(record, player)
    problem = problem_from_record(record, p)
    played = [Move(t.cards[p], t.choices.get(p)) for t in record.turns]
    start = time.monotonic()
    with searching(not as_json) as tick:
        searcher = Searcher(problem, replace(limit, progress=tick))
        try:
            solution = searcher.solve()
        except BudgetExceeded:
            solution = None
    stats = {"nodes": searcher.nodes, "seconds": round(time.monotonic() - start, 4)}
    result: dict[str, Any] = {
        "player": player,
        "heads": None if solution is None else solution.heads,
        "optimal": solution is not None,
        "played_heads": line_heads(problem, played),
        "turns": [] if solution is None else _turns_json(solution.line),
        "stats": stats,
    }
    if as_json:
        print_json(result)
        return
    if solution is None:
        out.print(f"{label}player {player}: unknown, the budget ran out ({stats['nodes']:,} nodes)")
        return
    out.print(
        f"{label}player {player}: at best {plural(solution.heads, 'head')} (proven, "
        f"{solution.nodes:,} nodes); played {result['played_heads']}"
    )
    for t, m in enumerate(solution.line, 1):
        choice = "" if m.row is None else f", takes row {m.row + 1}"
        out.print(f"  turn {t:>2}: {m.card}{choice}")


@nimmt.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@SAMPLES_OPTION
@sample_seed_option()
@json_option("Print the hint as JSON.")
@user_errors
def hint(
    record_file: str,
    player: int,
    round_no: int | None,
    samples: int,
    sample_seed: int,
    as_json: bool,
) -> None:
    """The player's best next card in a round in progress, by what the player
    has seen (sampled; a game file: its last round unless --round)."""
    from ..analysis.nimmt.review import hint as hint_for

    record, label = _round_of(record_file, round_no, last=True)
    p = _player(record, player)
    h = hint_for(record, p, samples, sample_seed)
    if as_json:
        print_json(h.to_json())
        return
    others = ", ".join(f"{c} ({m:.1f})" for c, m in h.means[1:4])
    out.print(
        f"{label}turn {h.turn}, player {player}: play {h.card} (mean score {h.means[0][1]:.1f}"
        f" over {plural(samples, 'sample')}); next best {others or '-'}",
        soft_wrap=True,
    )


@nimmt.command()
@record_argument()
@PLAYER_OPTION
@ROUND_OPTION
@SAMPLES_OPTION
@sample_seed_option()
@json_option("Print the review as JSON.")
@user_errors
def analyze(
    record_file: str,
    player: int,
    round_no: int | None,
    samples: int,
    sample_seed: int,
    as_json: bool,
) -> None:
    """Per turn: the card played, the best card with hindsight and the best
    card by what the player knew (sampled), each priced in heads with the best
    play afterwards (hindsight); and the heads lost in the round."""
    from ..analysis.nimmt.review import review

    record, label = _round_of(record_file, round_no)
    p = _player(record, player)
    problem_from_record(record, p)  # a legal finished record, before any work
    with _turn_bar(not as_json) as step:
        result = review(record, p, samples, sample_seed, step)
    if as_json:
        print_json(result.to_json())
        return
    out.print(
        f"{label}player {player}: took {result.played_heads} heads, {result.optimal_heads} at "
        f"best with hindsight: {result.lost} lost (blind choice: {plural(samples, 'sample')}, "
        f"sample seed {sample_seed})",
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
            style="yellow" if t.lost else "",
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


# -- play -------------------------------------------------------------------------

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

HEAD_STYLE = {7: "bold red", 5: "red", 3: "yellow", 2: "cyan"}


class Quit(Exception):
    """The person stopped the game ('quit', or the end of input)."""


def _card(c: int) -> Text:
    """A card with its heads (rule S4) when it has more than one."""
    h = HEADS[c]
    return Text(f"{c}" + (f"({h})" if h > 1 else ""), style=HEAD_STYLE.get(h, ""))


def _rows_view(rows: Rows) -> Text:
    text = Text()
    for i, row in enumerate(rows, 1):
        heads = sum(HEADS[c] for c in row)
        text.append(f"row {i}: ", style="dim")
        for j, c in enumerate(row):
            text.append(" " if j else "")
            text.append(_card(c))
        full = len(row) == ROW_LIMIT
        note = "; full: the next card here takes it" if full else ""
        text.append(
            f"   [{plural(len(row), 'card')}, {plural(heads, 'head')}{note}]\n",
            style="bold red" if full else "dim",
        )
    return text


def _hand_view(hand: tuple[int, ...]) -> Text:
    text = Text("your hand: ", style="dim")
    for j, c in enumerate(hand):
        text.append(" " if j else "")
        text.append(_card(c))
    return text


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
        from ..analysis.nimmt.players import BlindPlayer

        out.print(_rows_view(view.rows), end="")
        out.print(_hand_view(view.hand))
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
                means = BlindPlayer(view.turn, self.samples).card_means(view)
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
        out.print(_rows_view(view.rows), end="")
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


def _name(p: int) -> str:
    return "you" if p == 0 else f"player {p + 1}"


def _show_turn(shown: TurnShown) -> None:
    revealed = Text(f"turn {shown.turn}: ", style="bold")
    for p, c in enumerate(shown.cards):
        revealed.append(", " if p else "")
        revealed.append(f"{_name(p)} ")
        revealed.append(_card(c))
    out.print(revealed)
    for pl in shown.placements:
        if not pl.taken:
            continue
        heads = sum(HEADS[c] for c in pl.taken)
        why = (
            "is lower than every row's end"
            if pl.chose
            else f"is the sixth card of row {pl.row + 1}"
        )
        style = "bold red" if pl.player == 0 else "magenta"
        out.print(
            f"  {_name(pl.player)}: {pl.card} {why}: takes row {pl.row + 1}, "
            f"{plural(len(pl.taken), 'card')}, {plural(heads, 'head')} (rule S3)",
            style=style,
        )


@nimmt.command()
@deal_options("A deal file, or a round record with no turn played (one round: implies "
              "--one-round).")  # fmt: skip
@PLAYERS_OPTION
@choice_option(
    "--level",
    list(LEVELS),
    "The other players: easy plays a random card, normal samples the unseen cards "
    "and plays the best response in each sample (a few seconds a turn), strong searches "
    "sampled deals with playouts and an exact endgame (0.3 s of CPU a decision).",
    default="normal",
)
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
    default=10,
    show_default=True,
    help="Samples behind the 'hint' command.",
)
@user_errors
def play(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    level: str,
    one_round: bool,
    save_file: str | None,
    hint_samples: int,
) -> None:
    """Play 6 nimmt! against blind players (they see only their own hand):
    you are player 1. Commands come from stdin, so a script can pipe them in.
    Without a deal option the game's seed comes from the clock (and is shown)."""
    check_players(players)
    if deck is not None or deal_file is not None:
        one_round = True  # a given deal is one round's
    elif seed is None:
        seed = time.time_ns() % 1_000_000
    if deal_file == "-":
        raise InvalidInputError(
            "play reads its commands from stdin: give the deal as a file", "play"
        )
    first = _deal(seed, deck, deal_file, players)
    n = first.players
    seats = [Human(hint_samples), *(by_level(level, (seed or 0) * 16 + p) for p in range(1, n))]
    rounds: list[Record] = []

    def save(current: Record | None) -> None:
        if save_file is None:
            return
        if one_round:
            assert current is not None
            write_atomic(save_file, _dump(current.to_json()))
        else:
            done = rounds + ([current] if current is not None else [])
            write_atomic(save_file, _dump(GameRecord(tuple(done), seed).to_json()))

    save(Record(first, ()))  # now: a path that cannot be written fails before the game
    what = "one round" if one_round else f"a game to {GAME_END} points"
    source = f", seed {seed}" if seed is not None else ""
    out.print(
        Text(f"6 nimmt!, {what}{source}: you and {plural(n - 1, 'player')} ({level})", style="bold")
    )
    out.print(PLAY_HELP, style="dim", markup=False)
    scores = [0] * n
    deals = iter([first]) if one_round else _game_deals(seed or 0, n)

    played = [0]  # turns of the round in play

    def watch(shown: TurnShown) -> None:
        played[0] = shown.turn
        _show_turn(shown)
        save(shown.record)

    try:
        for number, d in enumerate(deals, 1):
            if not one_round:
                out.print(Text(f"\nround {number}; points: {_points(scores)}", style="bold"))
            played[0] = 0
            record = play_round(d, seats, scores, watch)
            rounds.append(record)
            heads = replay(record).heads
            scores = [s + h for s, h in zip(scores, heads, strict=True)]
            out.print(f"round {number} heads: {_points(heads)}", style="bold")
            if one_round or game_over(scores):
                break
    except Quit:
        where = plural(played[0], "turn")
        if not one_round:
            where = f"{plural(len(rounds), 'whole round')} and {where}"
        out.print(f"game left after {where}", style="dim")
        _saved(save_file, one_round)
        return
    except KeyboardInterrupt:
        kept = f"; the game so far is saved to {save_file}" if save_file else ""
        err.print(f"\ninterrupted{kept}", markup=False, soft_wrap=True)
        raise SystemExit(130) from None
    except IllegalMoveError as e:  # pragma: no cover - players play from their hands
        raise InvalidInputError(str(e), "play") from None
    save(rounds[-1] if one_round else None)
    low = min(scores)
    winners = [p for p, s in enumerate(scores) if s == low]
    final = "points" if not one_round else "heads"
    if 0 in winners:
        text = "you win" if len(winners) == 1 else f"you share the win with {len(winners) - 1}"
        out.print(f"{text}: {low} {final}, the fewest (rule S5)", style="bold green")
    else:
        names = ", ".join(_name(p) for p in winners)
        out.print(
            f"{names} win{'s' if len(winners) == 1 else ''} with {low} {final}; "
            f"you have {scores[0]}",
            style="bold red",
        )
    _saved(save_file, one_round)


def _game_deals(seed: int, players: int) -> Iterator[Deal]:
    return round_deals(seed, players)


def _points(values: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"{_name(p)} {v}" for p, v in enumerate(values))


def _dump(data: Any) -> str:
    import json

    return json.dumps(data, indent=1) + "\n"


def _saved(save_file: str | None, one_round: bool) -> None:
    if save_file is None:
        return
    pick = "" if one_round else " --round N"
    out.print(
        f"saved to {save_file}: thegame nimmt check {save_file}; "
        f"thegame nimmt analyze {save_file} --player 1{pick}",
        style="dim",
        markup=False,
    )
