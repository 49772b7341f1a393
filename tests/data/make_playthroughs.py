"""Write the playthrough golden files under tests/data/playthroughs/.

A playthrough is one seeded game played to its end by a fixed, deterministic
policy, written step by step: the state before, every legal action, the action
taken, the state after, and at the end the result and the returns. Only the
rules engine of each game is used (``thegame.models``), through its public
state and legal-move API, so a change to any rule shows up as a diff here.
``tests/test_playthroughs.py`` plays each one in memory and compares.

    python tests/data/make_playthroughs.py            # every playthrough
    python tests/data/make_playthroughs.py --explain  # and the explain golden files

The explain golden files (tests/data/golden) are rendered by the command
itself through click; ``--explain`` regenerates them by running their test
module in its update mode. Review the diff after either.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from thegame.models.cento import FREE, TurnBuilder, initial_state  # noqa: E402
from thegame.models.cento import Deal as CentoDeal  # noqa: E402
from thegame.models.cento.rules import card_text  # noqa: E402
from thegame.models.errors import IllegalMoveError  # noqa: E402
from thegame.models.mind import Deal as MindDeal  # noqa: E402
from thegame.models.mind import State as MindState  # noqa: E402
from thegame.models.nimmt.deal import Deal as NimmtDeal  # noqa: E402
from thegame.models.nimmt.record import Record as NimmtRecord  # noqa: E402
from thegame.models.nimmt.record import Turn as NimmtTurn  # noqa: E402
from thegame.models.nimmt.record import replay as nimmt_replay  # noqa: E402
from thegame.models.nimmt.rules import ROW_LIMIT, Rows, place_trick, row_heads  # noqa: E402
from thegame.models.the_game import (  # noqa: E402
    Deal,
    GameState,
    Play,
    get_rules,
    is_ascending,
    pile_name,
)

OUT = HERE / "playthroughs"
REGENERATE = "python tests/data/make_playthroughs.py"


# -- The Game family (classic, Extreme, Face to Face) -----------------------------------


def _card(deal: Deal, card: int) -> str:
    """A card, with its Extreme command if it carries one (``55:stop``)."""
    kind = deal.command(card)
    return f"{card}:{kind}" if kind else str(card)


def _cards(deal: Deal, cards: list[int]) -> str:
    return "[" + " ".join(_card(deal, c) for c in cards) + "]"


def _game_state(s: GameState) -> str:
    rules = s.rules
    piles = " ".join(f"{pile_name(rules, i)} {top}" for i, top in enumerate(s.tops))
    hands = " ".join(f"P{p + 1} {_cards(s.deal, s.hand(p))}" for p in range(s.players))
    if rules.turn_kind == "duel":
        draw = " ".join(f"P{p + 1} {s.stock_left(p)}" for p in range(s.players))
    else:
        draw = str(s.stock_left())
    head = f"turn {s.turn + 1}, player {s.current + 1}, {len(s.placed)} played"
    if s.over:
        head = f"over: {s.status.value}"
    return f"{head} | piles {piles} | hands {hands} | draw {draw}"


def _accepts_end(s: GameState) -> bool:
    """The engine accepts the end of the turn now (it may lose the game, X3)."""
    try:
        s.check_end_turn()
    except IllegalMoveError:
        return False
    return True


def _gap(s: GameState, play: Play) -> int:
    """How far a play moves its pile; a backward trick counts as negative."""
    top = s.tops[play.pile]
    if is_ascending(s.rules, play.pile):
        return play.card - top if play.card > top else -s.rules.step
    return top - play.card if play.card < top else -s.rules.step


GAME_POLICY = (
    "end the turn as soon as the rules allow it without losing; else the legal play"
    " that moves its pile least (a backward trick first), ties to the lowest card,"
    " then pile; else end the turn even if that loses"
)


def the_game(variant: str, players: int, seed: int) -> str:
    deal = Deal.from_seed(seed, get_rules(variant), players)
    s = GameState(deal)
    out = _header(
        f"The Game, {variant}, {players} player{'s' if players > 1 else ''}, seed {seed}",
        f"thegame deal --variant {variant} --players {players} --seed {seed}",
        GAME_POLICY,
    )
    step = 0
    while not s.over:
        step += 1
        before = _game_state(s)
        plays = s.legal_plays()
        can_end = bool(s.placed) and _accepts_end(s)
        loses = s.end_loses() if can_end else None
        legal = [f"{p.card} {pile_name(deal.rules, p.pile)}" for p in plays]
        legal += [f"end (loses: rule {loses})" if loses else "end"] if can_end else []
        if can_end and (loses is None or not plays):
            action = legal[-1]
            s.end_turn()
        elif plays:
            choice = min(plays, key=lambda p: (_gap(s, p), p.card, p.pile))
            action = f"{choice.card} {pile_name(deal.rules, choice.pile)}"
            s.play(choice.card, choice.pile)
        else:
            out += _step(step, before, legal, "none (no legal play, the turn cannot end)", "")
            out.append("stuck: the policy has no action left")
            break
        out += _step(step, before, legal, action, _game_state(s))
    out.append(f"result: {s.status.value}, {s.cards_left()} cards left")
    if s.reason:
        out.append(f"reason: {s.reason}")
    if deal.rules.turn_kind == "duel":
        returns = [1 if s.winner == p + 1 else -1 for p in range(players)]
        out.append(f"returns: {_returns(returns)} (+1 the winner, -1 the other)")
    else:
        out.append(f"returns: {_returns([-s.cards_left()] * players)} (minus the cards left, each)")
    return _text(out)


# -- The Mind -------------------------------------------------------------------------


# How slowly each seat counts: unequal paces make the collisions of rule M3.
PACE = (10, 7, 13, 9)


def mind(players: int, level: int, seed: int) -> str:
    deal = MindDeal.from_seed(seed, players, level)
    s = MindState(deal)
    out = _header(
        f"The Mind, {players} players, level {level}, seed {seed}",
        f"thegame mind deal --players {players} --level {level} --seed {seed}",
        "each player waits (its lowest card - the pile's top) times its pace"
        f" ({', '.join(f'P{p + 1} {k}' for p, k in enumerate(PACE[:players]))});"
        " the first to finish waiting plays its lowest card (the lower seat on a tie);"
        " no star is thrown",
    )

    def state() -> str:
        hands = " ".join(f"P{p + 1} [{' '.join(map(str, h))}]" for p, h in enumerate(s.hands))
        top = s.pile[-1] if s.pile else "-"
        return (
            f"{s.status.value} | hands {hands} | pile top {top}"
            f" | lives lost {s.lives_lost} | stars used {s.stars_used}"
        )

    step = 0
    while any(s.hands):
        step += 1
        before = state()
        legal = [f"{p + 1} {c}" for p, h in enumerate(s.hands) for c in h] + ["star"]
        top = s.pile[-1] if s.pile else 0
        waits = [((h[0] - top) * PACE[p % len(PACE)], p) for p, h in enumerate(s.hands) if h]
        seat = min(waits)[1]
        card = s.hands[seat][0]
        collision = s.play(seat + 1, card)
        action = f"{seat + 1} {card}"
        if collision is not None:
            lost = ", ".join(f"P{p} {c}" for p, c in collision.discarded)
            action += f" (rule M3: a life lost, discarded {lost})"
        out += _step(step, before, legal, action, state())
    out.append(f"result: {s.status.value}, lives lost {s.lives_lost}, stars used {s.stars_used}")
    out.append(f"returns: {_returns([-s.lives_lost] * players)} (minus the lives lost, each)")
    return _text(out)


# -- 6 nimmt! -------------------------------------------------------------------------


def _nimmt_card(hand: list[int], rows: Rows) -> int:
    """The card that lands closest above a row's end without being its sixth
    card; else the lowest card."""
    best: tuple[int, int] | None = None
    for card in hand:
        ends = [(card - r[-1], len(r)) for r in rows if r[-1] < card]
        if not ends:
            continue
        gap, length = min(ends)
        if length < ROW_LIMIT and (best is None or gap < best[0]):
            best = (gap, card)
    return best[1] if best is not None else min(hand)


def _nimmt_row(rows: Rows) -> int:
    return min(range(len(rows)), key=lambda i: (row_heads(rows[i]), i))


def nimmt(players: int, seed: int) -> str:
    deal = NimmtDeal.from_seed(seed, players)
    out = _header(
        f"6 nimmt!, {players} players, one round, seed {seed}",
        f"thegame nimmt deal --players {players} --seed {seed}",
        "each player plays the card that lands closest above a row's end without being"
        " its sixth card, else its lowest; a card below every row takes the row with"
        " the fewest heads (the first on a tie)",
    )
    hands = [sorted(h) for h in deal.hands]
    rows: Rows = tuple((c,) for c in deal.rows)
    heads = [0] * players
    turns: list[NimmtTurn] = []

    def state() -> str:
        shown = " ".join(f"R{i + 1} [{' '.join(map(str, r))}]" for i, r in enumerate(rows))
        held = " ".join(f"P{p + 1} [{' '.join(map(str, h))}]" for p, h in enumerate(hands))
        taken = " ".join(f"P{p + 1} {h}" for p, h in enumerate(heads))
        return f"rows {shown} | hands {held} | heads {taken}"

    for step in range(1, len(hands[0]) + 1):
        before = state()
        legal = [f"P{p + 1}: {' '.join(map(str, h))}" for p, h in enumerate(hands)]
        cards = tuple(_nimmt_card(hands[p], rows) for p in range(players))
        choices: dict[int, int] = {}

        def choose(player: int, table: Rows, choices: dict[int, int] = choices) -> int:
            choices[player] = _nimmt_row(table)
            return choices[player]

        rows, placed = place_trick(rows, cards, choose)
        for pl in placed:
            hands[pl.player].remove(pl.card)
            heads[pl.player] += row_heads(pl.taken)
        turns.append(NimmtTurn(cards, choices))
        action = " ".join(f"P{p + 1} {c}" for p, c in enumerate(cards))
        action += "".join(f", P{p + 1} takes row {r + 1}" for p, r in sorted(choices.items()))
        out += _step(step, before, legal, action, state())
    result = nimmt_replay(NimmtRecord(deal, tuple(turns)))
    assert result.error is None and result.heads == heads, "the referee disagrees"
    out.append("result: " + ", ".join(f"P{p + 1} {h} heads" for p, h in enumerate(heads)))
    out.append(f"returns: {_returns([-h for h in heads])} (minus the heads taken)")
    return _text(out)


# -- Cento game 2 ---------------------------------------------------------------------


def _cento_steps(b: TurnBuilder) -> list[tuple[str, Callable[[TurnBuilder], object]]]:
    """Every step the engine accepts now, in the policy's order of preference:
    number cards (lowest first), the free card (lowest name), Treat, end, draw,
    Trick."""
    steps: list[tuple[str, Callable[[TurnBuilder], object]]] = []
    for card in sorted(set(b.hand) - {FREE}):
        steps.append((f"play {card_text(card)}", lambda t, c=card: t.play(c)))
    if FREE in b.hand:
        steps += [(f"play free as {n}", lambda t, n=n: t.play(FREE, n)) for n in range(1, 100)]
    steps.append(("treat", lambda t: t.treat()))
    steps.append(("end", lambda t: t.finish()))
    steps.append(("draw", lambda t: t.draw()))
    steps.append(("trick", lambda t: t.trick()))
    legal = []
    for name, step in steps:
        try:
            step(b.copy())
        except IllegalMoveError:
            continue
        legal.append((name, step))
    return legal


def _free_names(names: list[str]) -> list[str]:
    """``play free as 3, 13, 30-39``: the names of the free card as ranges."""
    values = [int(n.rsplit(" ", 1)[1]) for n in names if n.startswith("play free as ")]
    if not values:
        return names
    runs: list[str] = []
    start = prev = values[0]
    for v in [*values[1:], -1]:
        if v == prev + 1:
            prev = v
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = v
    rest = [n for n in names if not n.startswith("play free as ")]
    at = next(i for i, n in enumerate(names) if n.startswith("play free as "))
    return [*rest[:at], "play free as " + ", ".join(runs), *rest[at:]]


def cento(players: int, seed: int) -> str:
    deal = CentoDeal.from_seed(seed, players)
    out = _header(
        f"Cento game 2, {players} player{'s' if players > 1 else ''}, seed {seed}",
        f"thegame cento deal --players {players} --seed {seed}",
        "the first step the engine accepts in this order: a number card (lowest),"
        " the free card (lowest name), Treat, end the turn, draw, Trick",
    )
    state = None
    b = TurnBuilder(deal, initial_state(deal))

    def shown(t: TurnBuilder) -> str:
        hands = " ".join(
            f"P{p + 1} [{' '.join(card_text(c) for c in sorted(h))}]" for p, h in enumerate(t.hands)
        )
        return (
            f"player {t.player + 1}, {t.phase.name.lower()} | open {t.open} | hands {hands}"
            f" | draw {len(deal.draw) - t.pos}"
        )

    step = 0
    while True:
        step += 1
        before = shown(b)
        legal = _cento_steps(b)
        name, act = legal[0]
        if name == "end":
            state = b.finish()
            after = f"{state.status.value} | open {state.open}" + (
                f" | winners {' '.join(f'P{w + 1}' for w in state.winners)}"
            )
            if not state.over:
                b = TurnBuilder(deal, state)
                after = shown(b) + (" | bound (rule Z2)" if b.bound else "")
        else:
            act(b)
            after = shown(b)
        out += _step(step, before, _free_names([n for n, _ in legal]), name, after)
        if state is not None and state.over:
            break
    out.append(f"result: {state.status.value}")
    returns = [1 if p in state.winners else -1 for p in range(players)]
    out.append(f"returns: {_returns(returns)} (+1 each winner, -1 each other player)")
    return _text(out)


# -- the files ------------------------------------------------------------------------


def _header(title: str, command: str, policy: str) -> list[str]:
    return [
        f"# {title}",
        f"# the deal: {command}",
        f"# policy: {policy}",
        f"# regenerate: {REGENERATE}",
        "",
    ]


def _step(step: int, before: str, legal: list[str], action: str, after: str) -> list[str]:
    lines = [f"step {step}", f"  before: {before}", f"  legal:  {', '.join(legal)}"]
    lines.append(f"  action: {action}")
    if after:
        lines.append(f"  after:  {after}")
    return lines


def _returns(values: list[int]) -> str:
    return " ".join(f"P{p + 1} {v:+d}" for p, v in enumerate(values))


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


# One entry per file: name -> how to write it.
PLAYTHROUGHS: dict[str, Callable[[], str]] = {
    "the_game_classic_solo": lambda: the_game("classic", 1, 1),
    "the_game_classic_3p": lambda: the_game("classic", 3, 1),
    "the_game_extreme_solo": lambda: the_game("extreme", 1, 1),
    "the_game_face_to_face": lambda: the_game("face-to-face", 2, 1),
    "mind_3p_level_6": lambda: mind(3, 6, 1),
    "nimmt_4p": lambda: nimmt(4, 1),
    "cento_solo": lambda: cento(1, 1),
    "cento_2p": lambda: cento(2, 1),
}


def path_of(name: str) -> Path:
    return OUT / f"{name}.txt"


def main(argv: list[str]) -> int:
    OUT.mkdir(exist_ok=True)
    for name, make in PLAYTHROUGHS.items():
        path = path_of(name)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(make(), encoding="utf-8")
        tmp.replace(path)  # whole or not at all
        print(f"wrote {path.relative_to(ROOT)}")
    if "--explain" in argv:
        env = {**os.environ, "THEGAME_UPDATE_GOLDEN": "1", "PYTHONPATH": str(ROOT)}
        test = ROOT / "tests" / "the_game" / "test_explain.py"
        return subprocess.call(
            [sys.executable, "-m", "pytest", "-q", str(test), "-k", "golden"], cwd=ROOT, env=env
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
