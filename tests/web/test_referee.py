"""The JavaScript referee of the web pages (thegame/web/referee.js) against
the Python rules engine: random games of the classic family (classic, Profi,
Profi hard, On Fire, Extreme; 1-5 players) driven by random legal and
illegal plays, turn ends and take-backs, each answer (the rule id and the
message of a refusal) and the position after it compared under Node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from thegame.models.errors import IllegalMoveError
from thegame.models.the_game import Deal, GameState, get_rules, pile_name
from thegame.puzzles.site import referee_spec

HERE = Path(__file__).resolve().parent
REFEREE = HERE.parents[1] / "thegame" / "web" / "referee.js"
VARIANTS = ("classic", "profi", "profi-hard", "on-fire", "extreme")
PLAYS = 10_000  # plays (legal and illegal) compared, at least


def snapshot(s: GameState) -> dict[str, Any]:
    r = s.rules
    return {
        "status": str(s.status),
        "reason": s.reason,
        "tops": list(s.tops),
        "hand": s.hand(),
        "current": s.current + 1,
        "turn": s.turn,
        "minimum": s.turn_min,
        "cards_left": s.cards_left(),
        "can_end": False if s.over else s.can_end_turn(),
        "end_loses": None if s.over else s.end_loses(),
        "legal": [f"{p.card} {pile_name(r, p.pile)}" for p in s.legal_plays()],
        "losing": [f"{p.card} {pile_name(r, p.pile)}" for p in s.losing_plays()],
    }


def act(s: GameState, a: dict[str, Any]) -> dict[str, Any] | None:
    try:
        if a["do"] == "play":
            s.play(
                a["card"],
                next(i for i in range(s.rules.n_piles) if pile_name(s.rules, i) == a["pile"]),
            )
        elif a["do"] == "end":
            s.end_turn()
        else:
            s.undo_play()
    except IllegalMoveError as e:
        return {"rule": e.rule, "message": e.message}
    return None


def choose(s: GameState, rng: random.Random) -> dict[str, Any]:
    """A random action: mostly legal plays, also command-breaking ones,
    refused plays (a card elsewhere, a pile that refuses it), turn ends
    (early ones too) and take-backs."""
    r = s.rules
    names = [pile_name(r, i) for i in range(r.n_piles)]
    roll = rng.random()
    legal = s.legal_plays()
    losing = s.losing_plays()
    if roll < 0.45 and legal:
        p = rng.choice(legal)
        return {"do": "play", "card": p.card, "pile": names[p.pile]}
    if roll < 0.5 and losing:
        p = rng.choice(losing)
        return {"do": "play", "card": p.card, "pile": names[p.pile]}
    if roll < 0.68:
        hand = s.hand()
        card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.randint(r.low, r.high)
        return {"do": "play", "card": card, "pile": rng.choice(names)}
    if roll < 0.92:
        return {"do": "end"}
    return {"do": "undo"}


def make_cases(rng: random.Random) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    cases: list[dict[str, Any]] = []
    expected: list[list[dict[str, Any]]] = []
    plays = 0
    while plays < PLAYS:
        rules = get_rules(rng.choice(VARIANTS))
        players = rng.randint(1, 5)
        deal = Deal.from_seed(rng.randrange(1 << 32), rules, players)
        s = GameState(deal)
        steps = [snapshot(s)]
        actions = []
        for _ in range(rng.randint(20, 120)):
            a = choose(s, rng)
            plays += a["do"] == "play"
            actions.append(a)
            steps.append({"error": act(s, a), **snapshot(s)})
            if s.over and rng.random() < 0.5:
                break
        cases.append({"spec": referee_spec(deal), "actions": actions})
        expected.append(steps)
    return cases, expected


@pytest.mark.skipif(shutil.which("node") is None, reason="node is absent (apt-get install nodejs)")
def test_the_javascript_referee_answers_as_the_python_one(tmp_path: Path) -> None:
    cases, expected = make_cases(random.Random(54))
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    run = subprocess.run(
        ["node", str(HERE / "referee_cases.js"), str(REFEREE), str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert len(got) == len(expected)
    played = refused = lost = won = 0
    for k, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        for j, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a == b, (
                k,
                j,
                cases[k]["spec"]["rules"]["name"],
                cases[k]["actions"][j - 1] if j else None,
            )
        for step, a in zip(theirs[1:], cases[k]["actions"], strict=True):
            if a["do"] == "play":
                played += 1
                refused += step["error"] is not None
        lost += theirs[-1]["status"] == "lost"
        won += theirs[-1]["status"] == "won"
    # The cases reach what they are meant to: many plays, refusals, games lost.
    assert played >= PLAYS and refused > 1000 and lost > 20, (played, refused, lost, won)
