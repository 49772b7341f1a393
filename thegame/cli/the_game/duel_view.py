"""How Face to Face results look in the terminal (presentation only)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from ...analysis.the_game.duel import DuelAnalysis
from ...models.outcome import Verdict
from ...models.the_game import Rules, Turn
from ...models.the_game.notation import plays_text, turn_label
from ...solver.the_game.duel.api import DuelResult, DuelSolution
from ...solver.the_game.duel.race import Race


def turn_text(rules: Rules, turn: Turn) -> str:
    """``P1: 37 A1, 40 A1, 12 D2``."""
    return f"P{turn.player}: {plays_text(rules, turn.plays)}"


def race_text(race: Race) -> Text:
    who = f"player {race.player} alone (own piles, the other never touching them): "
    if race.turns is not None:
        return Text(who + f"all cards in {race.turns} turns (proven)")
    if race.proven:
        return Text(who + "cannot play all their cards (proven)")
    return Text(who + f"not decided within the budget (at least {race.floor} turns)", "dim")


def result_view(rules: Rules, res: DuelResult) -> list[RenderableType]:
    head = f"player {res.first} starts: "
    if res.at_turn is not None:  # solved from a record's position
        head = f"turn {res.at_turn}, player {res.first} to move: "
    if res.winner is None:
        parts: list[RenderableType] = [Text(head + "unknown (the budget ran out)", "yellow")]
        # The duel engine's estimate beside the verdict (duel.api.Estimate).
        if res.estimate is not None:
            parts.append(Text("  " + res.estimate.summary(), "yellow"))
            if res.estimate.turn is not None:
                parts.append(Text("  its turn: " + turn_text(rules, res.estimate.turn)))
    else:
        style = "green" if res.verdict is Verdict.WIN else "red"
        whom = "the starter" if res.at_turn is None else f"player {res.first}"
        parts = [Text(head + f"player {res.winner} wins with best play ({res.verdict} for "
                      f"{whom})", style)]  # fmt: skip
        parts.append(Text(f"proof: {res.proof}", "dim"))
        for turn in res.turns:
            parts.append(Text("  " + turn_text(rules, turn)))
    parts.append(Text(f"{res.nodes:,} positions, {res.seconds:.2f} s", "dim"))
    return parts


def duel_solution_view(sol: DuelSolution) -> RenderableType:
    parts: list[RenderableType] = []
    for race in sol.races:
        parts.append(race_text(race))
    for res in sol.results:
        parts.extend(result_view(sol.deal.rules, res))
    return Group(*parts)


def duel_analysis_view(analysis: DuelAnalysis) -> RenderableType:
    """The value of each turn start and the first turn that lost a won duel."""
    rules = analysis.record.deal.rules
    parts: list[RenderableType] = []
    if analysis.full_view:
        parts.append(Text("The draw piles were in view: judged by hindsight alone.", "dim"))
    else:
        parts.extend(_fair_view(analysis))
    parts.append(
        Text("Hindsight analysis: both decks known, the order of the draw piles included.", "dim")
    )
    # On screen turns count from 1: entry i is the start of turn i + 1, and
    # the entry after the last turn of a finished duel is its end.
    played = len(analysis.record.turns)
    values = " ".join(
        f"{'end' if i == played and analysis.winner is not None else i + 1}:P{p}"
        f"{'+' if v == 'win' else '-' if v == 'loss' else '?'}"
        for i, (p, v) in enumerate(analysis.values)
    )
    parts.append(Text("turn starts (turn:player to move, + forced win, - forced loss, "
                      f"? unknown): {values}"))  # fmt: skip
    # Every turn judged (analysis.the_game.duel.DuelAnalysis.review_lines).
    review = analysis.review_lines()
    if review:
        head = "turn, player, turn played, their win chance before -> after (won/lost: proven;"
        parts.append(Text(head + " else the engine's estimate), mark:", "dim"))
        parts.extend(Text(line) for line in review)
    m = analysis.mistake
    if m is None:
        parts.append(Text("no turn threw a proven forced win away", "green"))
    else:
        sure = "proven" if m.proven else "not proven"
        parts.append(Text(f"{turn_label(m.turn)}: player {m.player} went from a forced "
                          f"win to a forced loss ({sure})", "bold red"))  # fmt: skip
        parts.append(Text("  played:  " + turn_text(rules, m.played)))
        parts.append(Text("  winning: " + turn_text(rules, m.better), "green"))
    if analysis.winner is not None:
        parts.append(Text(f"the record ends: player {analysis.winner} won"))
    return Group(*parts)


def _fair_view(analysis: DuelAnalysis) -> list[RenderableType]:
    """The turns judged from what their player saw (a real duel's review)."""
    samples = analysis.fair[0].samples if analysis.fair else 0
    parts: list[RenderableType] = [
        Text(
            f"Fair review: each turn judged from what its player saw, the engine asked on "
            f"{samples} sampled deals that agree with it (estimates, not proofs): turn, player, "
            "turn played, the engine's turn's mean win chance -> the turn played's, mark:",
            "dim",
        )
    ]
    parts.extend(Text(line) for line in analysis.fair_lines())
    return parts
