"""``thegame play`` for real games: the table as a player sees it, and the
answers to ``hint`` and ``solve`` that respect a hidden draw pile.

With a hidden draw pile (``play --seed N``) the screen shows only public
information and the hand of the player to move (hot seat): the pile tops,
how much room each pile has left, the size of the draw pile and of the other
hands. ``tests/the_game/test_play_real.py`` checks that the output up to a draw is the
same for every order of the hidden cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from ...models import InvalidInputError, Limit, Status, Verdict
from ...models.the_game import GameState, Record, is_ascending, pile_name, variants
from ...models.the_game.notation import direction_word, plays_text, plural, turn_label
from ...models.the_game.room import room
from ..common import out
from .puzzle_view import live_status, turns_text
from .render import card_text, cards_text, commands_text, legend

if TYPE_CHECKING:
    from ...solver.the_game.duel.pns import ProofNumberSearch

# Width of a drawn card: its inside fits "100", "55[S]" and "A1 down".
CARD_WIDTH = 9


def not_available(what: str, state: GameState) -> str:
    return f"{what}: not available for this variant ({state.rules.name})"


# -- the table ---------------------------------------------------------------------


PILE_STYLE = {True: "cyan", False: "magenta"}  # ascending, descending


def room_style(left: int) -> str:
    """How the room under a pile is coloured: plenty, short, none."""
    if left == 0:
        return "bold red"
    return "yellow" if left <= ROOM_SHORT else "green"


# Room at or under this many cards is shown as running short.
ROOM_SHORT = 5


def card_style(state: GameState, card: int) -> str:
    """A marked card in a hand: fire red, a command magenta."""
    if card in state.rules.fire_cards:
        return "reverse bold red"
    return "bold magenta" if state.deal.command(card) else ""


def _cell(text: str, style: str = "") -> Text:
    return Text(f"{text:^{CARD_WIDTH}}", style=style)


def _join(cells: list[Text]) -> Text:
    line = Text()
    for i, cell in enumerate(cells):
        if i:
            line.append("  ")
        line.append_text(cell)
    return line


def piles_view(state: GameState) -> RenderableType:
    """The piles drawn as cards, each with its direction and its room."""
    rules, deal = state.rules, state.deal
    top_row, name_row, card_row, bottom_row, room_row, note_row = ([] for _ in range(6))
    notes = False
    for i, top in enumerate(state.tops):
        asc = is_ascending(rules, i)
        start = rules.asc_start if asc else rules.desc_start
        style = "dim" if top == start else "bold"
        if top in rules.fire_cards or deal.command(top):
            style = "bold red" if top in rules.fire_cards else "bold magenta"
        # Colour (terminals only): each direction its own frame, the room
        # left green, yellow when it runs short, red when the pile is dead.
        frame = PILE_STYLE[asc]
        top_row.append(_cell("┌" + "─" * (CARD_WIDTH - 2) + "┐", frame))
        name = f"{pile_name(rules, i)} {direction_word(rules, i)}"
        name_row.append(
            Text("│", style=frame) + Text(f"{name:^{CARD_WIDTH - 2}}", frame) + Text("│", frame)
        )
        card_row.append(
            Text("│", frame)
            + Text(f"{card_text(deal, top):^{CARD_WIDTH - 2}}", style=style)
            + Text("│", frame)
        )
        bottom_row.append(_cell("└" + "─" * (CARD_WIDTH - 2) + "┘", frame))
        left = room(state, i)
        room_row.append(_cell(f"room {left}", room_style(left)))
        note = ""
        if top in rules.fire_cards:
            # F2: a fire card laid before this turn must be covered in it.
            note = "cover!" if state.top_turn[i] < state.turn else "fire"
            notes = True
        note_row.append(_cell(note, "bold red"))
    rows = [_join(r) for r in (top_row, name_row, card_row, bottom_row, room_row)]
    if notes:
        rows.append(_join(note_row))
    return Group(*rows)


def _turn_line(state: GameState) -> Text:
    n = len(state.placed)
    line = Text(f"{turn_label(state.turn)}", style="bold")
    if state.players > 1:
        line.append(f" - player {state.current + 1} to move")
    line.append(f" - played {n} this turn, minimum {state.turn_min}", style="dim")
    if state.placed:
        line.append(": " + plays_text(state.rules, state.plays_this_turn), style="dim")
    commands = commands_text(state)
    if commands is not None:
        line.append(f"\n{commands}", style="bold")  # Extreme: what binds now
    return line


def table_view(state: GameState, hidden: bool) -> RenderableType:
    """The table for the player to move; ``hidden``: the draw pile(s) and the
    other hands show only their sizes."""
    deal = state.deal
    me = state.current
    parts: list[RenderableType] = [_turn_line(state), piles_view(state)]
    who = f"player {me + 1}'s hand" if state.players > 1 else "hand"
    hand = Text(f"{who}: ", style="bold")
    for c in state.hand():
        hand.append(f" {card_text(deal, c)} ", style=card_style(state, c))
    parts.append(hand)
    for p in range(state.players):
        if p != me:
            size = plural(len(state.hands[p]), "card")
            if hidden:
                parts.append(Text(f"player {p + 1}'s hand: {size} (hidden)", style="dim"))
            else:
                cards = cards_text(deal, state.hand(p))
                parts.append(Text(f"player {p + 1}'s hand: {cards}", style="dim"))
    duel = len(state.stocks) > 1  # a draw pile each (Face to Face, D1)
    for p in range(state.players) if duel else [me]:
        draw = state.draw_pile(p)
        label = f"player {p + 1}'s draw pile" if duel else "draw pile"
        line = Text(f"{label}: {plural(len(draw), 'card')}", style="dim")
        if draw and hidden:
            line.append(" (face down)", style="dim")
        elif draw:
            line.append(f" (top first: {cards_text(deal, draw)})", style="dim")
        parts.append(line)
    parts.append(Text(f"cards left: {state.cards_left()}", style="dim"))
    return Group(*parts)


def table_legend(state: GameState) -> Text:
    """What the marks and the room under the piles mean."""
    text = Text("room: how many cards not yet played could still go on the pile now", style="dim")
    marks = legend(state.deal)
    if marks:
        text.append(f"; {marks}", style="dim")
    if state.rules.fire_cards:
        text.append(
            "; under a pile, 'fire': laid this turn, 'cover!': cover it in this turn (rule F2)",
            style="dim",
        )
    return text


# -- hint and solve with a hidden draw pile ------------------------------------------


def hidden_hint_text(
    state: GameState, samples: int, time_limit: float, level: str = "strong"
) -> tuple[str, str]:
    """(text, style) of ``hint`` when the draw pile is hidden: the blind
    player's rest of the turn and its odds, never the real order."""
    from ...analysis.the_game.hidden_hint import blind_hint, blind_hint_covers
    from ...analysis.the_game.strong import Level

    if not blind_hint_covers(state):
        return (
            not_available("hint", state) + ": the blind policy, which uses only what you can see, "
            f"plays {', '.join(variants.names(duel=False, commands=False))}",
            "yellow",
        )
    h = blind_hint(state, samples, Limit(time_limit), level=Level(level))
    rules = state.rules
    if not h.can_finish:
        return "hint: no legal way to finish this turn was found", "red"
    what = f"play {plays_text(rules, h.plays)}, then end the turn" if h.plays else "end the turn"
    odds = (
        f"playing on like that wins {100 * h.win_rate:.0f}% of "
        f"{plural(h.samples, 'sampled order')} of the hidden cards "
        f"({h.expected_left:.1f} cards left on average)"
    )
    if h.level is Level.STRONG:
        who = (
            f"the strong blind player, best of {h.candidates} turns over "
            f"{plural(h.choice_playouts, 'playout')}"
        )
    elif level == Level.STRONG:
        who = "the blind policy: nothing to compare" if h.candidates <= 1 else (
            "the blind policy: no time to compare"
        )
    else:
        who = "the blind policy"
    return f"hint (from what you can see; {who}): {what}; {odds}", "cyan"


def blind_duel_text(state: GameState, samples: int, time_limit: float) -> tuple[str, str]:
    """``hint`` in a real duel: the engine over sampled deals of the unseen
    cards (``duel_blind``), at most ``duel_blind.SAMPLES`` of them."""
    from ...analysis.the_game.duel_blind import SAMPLES, blind_duel_hint

    h = blind_duel_hint(state, Limit(time_limit), min(samples, SAMPLES))
    what = f"play {plays_text(state.rules, h.plays)}, then end the turn"
    proven = f", {h.proven} of them proven" if h.proven else ""
    odds = (
        f"the engine chose it in {h.votes} of {plural(h.samples, 'sampled deal')} of the "
        f"cards you cannot see{proven}"
    )
    if h.playouts or h.proven:
        odds += (
            f"; an estimated {h.win_chance:.0%} win chance there over "
            f"{plural(h.playouts, 'playout')} (an estimate, not a proof)"
        )
    else:
        odds += " (too little time for its playouts: its first choice)"
    return f"hint (from what you can see): {what}; {odds}", "cyan"


def duel_spoiler_text(
    state: GameState, time_limit: float, duel_search: ProofNumberSearch | None = None
) -> tuple[str, str]:
    """(text, style) of ``solve spoiler`` in a duel: who wins with best play,
    on the game's ``duel_search`` when given; never the line."""
    from ...solver.the_game.duel.api import decide

    try:
        duel = decide(state, Limit(time_limit), search=duel_search)
    except InvalidInputError as e:
        return f"{not_available('solve', state)}: {e.message}", "yellow"
    if duel.winner is None:
        return f"spoiler: not decided within {time_limit:g} s", "yellow"
    who = "you win" if duel.winner == state.current + 1 else f"player {duel.winner} wins"
    return f"spoiler: with best play from here {who}", "magenta"


def spoiler_text(state: GameState, time_limit: float) -> tuple[str, str]:
    """(text, style) of ``solve spoiler``: whether the real order still
    allows a perfect clear; never the line."""
    limit = Limit(time_limit)
    from ...solver.the_game.api import covered, search_position

    try:
        covered(state.deal)
    except InvalidInputError:
        return not_available("solve", state), "yellow"
    res = search_position(state, limit)
    if res.verdict == Verdict.WIN:
        return "spoiler: with the real draw order a perfect clear still exists", "magenta"
    if res.verdict == Verdict.LOSS:
        best = (
            f"best possible: {plural(res.cards_left, 'card')} left"
            if res.optimal
            else f"at least {plural(res.lower_bound, 'card')} left"
        )
        return f"spoiler: no perfect clear is possible any more ({best})", "magenta"
    return f"spoiler: not decided within {time_limit:g} s", "yellow"


# -- the per-kind answers of a game on the command line (``kinds``) ----------------


def say(text: str, style: str = "") -> None:
    out.print(Text(text, style=style), soft_wrap=True)


def solve_open(state: GameState, time_limit: float) -> None:
    """``solve`` with the draw pile in view (a puzzle): the whole line."""
    from ...models.outcome import Verdict
    from ...solver.the_game.api import replay_actions, search_position

    res = search_position(state, Limit(time_limit))
    turns, final = replay_actions(state, res.actions)
    if res.verdict == Verdict.WIN and final.status == Status.WON:
        say("a perfect clear from here: " + turns_text(state, turns), "green")
    elif res.verdict == Verdict.LOSS:
        say(
            f"no perfect clear from here; best: {final.cards_left()} left: "
            + turns_text(state, turns),
            "red",
        )
    else:
        say(
            f"no proof within {time_limit:g} s; best found: {final.cards_left()} left: "
            + turns_text(state, turns),
            "yellow",
        )


def solve_duel(
    state: GameState, time_limit: float, search: ProofNumberSearch | None = None
) -> None:
    from ...solver.the_game.duel.api import decide

    res = decide(state, Limit(time_limit), search=search)
    if res.winner is None:
        say(f"no proof within {time_limit:g} s", "yellow")
        return
    who = "you win" if res.winner == state.current + 1 else f"player {res.winner} wins"
    say(f"with best play from here {who}: " + turns_text(state, res.turns), "green")


# Samples per turn of the closing review (``thegame analyze`` takes --samples).
REVIEW_SAMPLES = 100


def end_analysis_team(record: Record, opening: int, time_limit: float) -> dict[str, Any]:
    """The annotated review (``thegame analyze``) of the player's turns."""
    from ...analysis.the_game.annotate import annotate_record
    from .review_view import review_view

    with live_status(True, "reviewing your game...") as update:
        # The opening is the puzzle's, not the player's: judge from the position.
        review = annotate_record(
            record,
            REVIEW_SAMPLES,
            hindsight=Limit(time_limit),
            progress=lambda d, t: update(f"reviewing {d}/{t}"),
            start_turn=opening,
        )
    out.print(review_view(review, out.is_terminal))
    result: dict[str, Any] = review.to_dict()
    return result


def duel_end_analysis(record: Record, opening: int, time_limit: float) -> dict[str, Any]:
    from ...analysis.the_game.duel import analyze_duel
    from .duel_view import duel_analysis_view

    with live_status(True, "analysing the duel...") as update:
        analysis = analyze_duel(
            record,
            Limit(time_limit),
            progress=lambda d, t: update(f"analysing {d}/{t}"),
            start_turn=opening,
        )
    out.print(duel_analysis_view(analysis))
    result: dict[str, Any] = analysis.to_dict()
    return result
