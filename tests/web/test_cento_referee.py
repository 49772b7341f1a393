"""The JavaScript Cento referee (thegame/web/cento.js) against the Python
rules engine (thegame.models.cento.state): random games of Cento game 2
(1-4 players, small and full decks, free cards, the 100 as Trick/Treat or
plain, chain_all) driven by random legal and illegal steps (Trick, Treat,
draw, plays with free cards named any value, ending the turn), every answer
compared under Node: a refusal's rule id, message and play; an accepted
step's draw, hand, open card and whether the turn can go on; a finished
turn's whole position."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from thegame.models.cento import Deal, Rules
from thegame.models.cento.rules import FREE, fits
from thegame.models.cento.state import Phase, State, TurnBuilder, TurnError, initial_state

HERE = Path(__file__).resolve().parent
CENTO = HERE.parents[1] / "thegame" / "web" / "cento.js"
STEPS = 20_000  # steps (legal and illegal) compared, at least


def summary(s: State) -> dict[str, Any]:
    return {
        "hands": [["free" if c == FREE else str(c) for c in h] for h in s.hands],
        "open": s.open,
        "draw_pos": s.draw_pos,
        "to_move": s.to_move + 1,
        "obliged": s.obliged,
        "immune": list(s.immune),
        "passes": s.passes,
        "status": str(s.status),
        "winners": [w + 1 for w in s.winners],
    }


def random_deal(rng: random.Random) -> Deal | None:
    high = rng.choice([12, 30, 60, 100, 100])
    rules = Rules(
        low=1,
        high=high,
        hand_size=rng.randint(2, 7),
        free_cards=rng.randint(0, 4),
        penalty=rng.randint(0, 3),
        trick_draw=rng.randint(0, 3),
        hundred=rng.choice(["trick_treat", "plain"]),  # type: ignore[arg-type]
        chain_all=rng.random() < 0.2,
    )
    try:
        return Deal.from_seed(rng.randrange(10**9), rng.randint(1, 4), rules)
    except Exception:  # too many hands for the deck
        return None


def random_step(rng: random.Random, b: TurnBuilder) -> dict[str, Any]:
    x = rng.random()
    if x < 0.05:
        return {"kind": rng.choice(["trick", "treat"])}
    if x < 0.15 or (b.phase == Phase.START and not b.can_play() and x < 0.6):
        return {"kind": "draw"}
    if x < 0.3 or not b.can_continue():
        return {"kind": "finish"}
    hand = b.hand
    good = [c for c in hand if c == FREE or fits(c, b.open)]
    card = rng.choice(good if good and rng.random() < 0.7 else [*hand, rng.randint(1, 100)])
    if card != FREE:
        step: dict[str, Any] = {"kind": "play", "card": card}
        if rng.random() < 0.03:  # a number card named: refused (Z4)
            step["as"] = rng.randint(0, 100)
        return step
    named = rng.choice([v for v in range(1, 100) if fits(v, b.open)] + [rng.randint(0, 100)])
    return {"kind": "play", "card": "free", "as": None if rng.random() < 0.03 else named}


def python_answer(b: TurnBuilder, step: dict[str, Any]) -> Any:
    kind = step["kind"]
    if kind == "trick":
        b.trick()
    elif kind == "treat":
        b.treat()
    elif kind == "draw":
        drew = b.draw()
    else:
        b.play(FREE if step["card"] == "free" else step["card"], step.get("as"))
    answer: dict[str, Any] = {"ok": True, "can_continue": b.can_continue()}
    answer.update(hand=["free" if c == FREE else str(c) for c in b.hand], open=b.open)
    if kind == "draw":
        answer["drew"] = drew
    return answer


def random_game(rng: random.Random, deal: Deal) -> tuple[list[dict[str, Any]], list[Any]]:
    """A game's steps and the Python engine's answers."""
    steps: list[dict[str, Any]] = []
    answers: list[Any] = []
    state = initial_state(deal)
    for _ in range(80):
        if state.over:
            break
        b = TurnBuilder(deal, state)
        for _ in range(30):
            step = random_step(rng, b)
            steps.append(step)
            try:
                if step["kind"] == "finish":
                    state = b.finish()
                    answers.append({"ok": summary(state)})
                    break
                answers.append(python_answer(b, step))
            except TurnError as e:
                answers.append({"rule": e.rule, "message": e.message, "play": e.play})
        else:
            break  # a turn that never ended: the game's script stops here
    return steps, answers


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_js_cento_referee_answers_every_step_as_the_python_engine() -> None:
    rng = random.Random(20261207)
    games: list[dict[str, Any]] = []
    expected: list[list[Any]] = []
    total = 0
    while total < STEPS:
        deal = random_deal(rng)
        if deal is None:
            continue
        steps, answers = random_game(rng, deal)
        games.append({"deal": deal.to_dict(), "steps": steps})
        expected.append(answers)
        total += len(steps)
    out = subprocess.run(
        ["node", str(HERE / "cento_replay.js"), str(CENTO)],
        input=json.dumps(games),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    got = json.loads(out.stdout)
    for g, (theirs, mine) in enumerate(zip(expected, got, strict=True)):
        for k, (a, b) in enumerate(zip(theirs, mine, strict=True)):
            assert a == b, (g, k, games[g]["steps"][k], a, b)
    # The random games met every kind of answer.
    flat = [a for game in expected for a in game]
    rules = {a["rule"] for a in flat if "rule" in a}
    assert {"Z1", "Z2", "Z3", "Z4", "Z5"} <= rules, rules
    statuses = {a["ok"]["status"] for a in flat if isinstance(a.get("ok"), dict)}
    assert {"won", "blocked", "in_progress"} <= statuses, statuses
