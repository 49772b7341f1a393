"""``thegame explain``: the reasons given for plays, the rendering (golden
files at width 100, no terminal), the JSON document, and one-line errors.

Golden files live in tests/data/golden; regenerate them after an intended
change with ``python tests/data/make_playthroughs.py --explain`` (it runs the
golden tests here with ``THEGAME_UPDATE_GOLDEN=1``) and review the diff. The
seed's line is pinned there as a record, so the golden output does not depend
on which winning line the solver finds.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from tests.support import DATA
from tests.support.the_game import EXTREME, extreme_deal
from thegame.analysis.the_game.explain import (
    NAMED_GAP,
    PlayExplanation,
    TurnExplanation,
    explain_record,
    jumped_over,
)
from thegame.cli.main import cli
from thegame.cli.the_game import explain as explain_cli
from thegame.models import InvalidInputError
from thegame.models.outcome import Status
from thegame.models.the_game import (
    Deal,
    GameState,
    Play,
    Record,
    Turn,
    get_rules,
    pile_index,
    small_rules,
)
from thegame.solver.the_game import portfolio
from thegame.solver.the_game.api import Solution

GOLDEN = DATA / "golden"
UPDATE = os.environ.get("THEGAME_UPDATE_GOLDEN") == "1"
FIRE_RECORD = GOLDEN / "fire_2p.record.json"  # hand-made: on-fire, 2 players, lost
SEED_RECORD = GOLDEN / "seed_2.record.json"  # the solver's win for --seed 2, pinned
COST_KINDS = {"trick", "gap", "extra", "opponent"}

# Width 100, no colour: whatever the terminal running the tests looks like.
PLAIN_ENV: dict[str, str | None] = {
    "COLUMNS": "100",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}


def invoke(*args: str) -> Result:
    return CliRunner(env=PLAIN_ENV).invoke(cli, list(args))


def load(path: Path) -> Record:
    return Record.from_json(path.read_text(encoding="utf-8"))


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing {path}: run with THEGAME_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; see the module docstring"


def record_of(deal: Deal, turns: list[tuple[int, list[tuple[int, str]]]]) -> Record:
    return Record(
        deal,
        tuple(
            Turn(p, tuple(Play(c, pile_index(deal.rules, name)) for c, name in plays))
            for p, plays in turns
        ),
    )


def explained(deal: Deal, turns: list[tuple[int, list[tuple[int, str]]]]) -> list[TurnExplanation]:
    return explain_record(record_of(deal, turns))


def kinds(play: PlayExplanation) -> list[str]:
    return [r.kind for r in play.reasons]


def small_deal(front: list[int], high: int = 30, hand: int = 4, players: int = 1) -> Deal:
    rules = small_rules(high=high, hand=hand)
    rest = [c for c in rules.cards if c not in front]
    return Deal.create(rules, players, [front + rest], first=1)


def fake_solver(sol: Solution) -> Any:
    def solve_with(deal: Deal, engine: str = "auto", *_: Any, **__: Any) -> Solution:
        assert engine == "auto"
        return sol

    return solve_with


def seed_2_solution(verdict: str = "win", turns: int | None = None) -> Solution:
    record = load(SEED_RECORD)
    line = list(record.turns[:turns])
    left = explain_record(Record(record.deal, tuple(line)))[-1].cards_left
    deal = Deal.from_seed(2, get_rules("classic"))
    return Solution(verdict, deal, record.first, line, left, None)


# -- reasons -----------------------------------------------------------------


def test_a_backward_trick_is_called_a_trick_and_was_prepared() -> None:
    t = explained(small_deal([25, 15, 3, 4]), [(1, [(25, "A1"), (15, "A1")])])[0]
    setup, trick = t.plays
    assert "setup" in kinds(setup)
    assert any("15 in hand can later go back onto it" in r.text for r in setup.reasons)
    assert trick.trick and trick.gap == 0
    assert trick.reasons[0].kind == "trick"
    assert trick.reasons[0].text == (
        "backward trick: 15 is exactly 10 below 25, the pile goes back down"
        " (room again for 9 cards)"
    )


def test_a_trick_on_a_descending_pile_goes_back_up() -> None:
    t = explained(small_deal([5, 15, 3, 4]), [(1, [(5, "D1"), (15, "D1")])])[0]
    text = t.plays[1].reasons[0].text
    assert text.startswith("backward trick: 15 is exactly 10 above 5, the pile goes back up")


def test_the_gap_counts_only_unplayed_cards() -> None:
    # 4 goes onto D1 first, so 9 on A1 jumps over 2, 3, 5, 6, 7, 8: six cards.
    t = explained(small_deal([4, 9, 20, 21]), [(1, [(4, "D1"), (9, "A1")])])[0]
    play = t.plays[1]
    assert play.gap == 6
    assert play.reasons[0].text == "gap of 6: skips 6 cards from 2 to 8"


def test_a_small_gap_names_its_cards_and_no_gap_says_so() -> None:
    t = explained(small_deal([2, 5, 20, 21]), [(1, [(2, "A1"), (5, "A1")])])[0]
    assert t.plays[0].reasons[0].text == "no gap"
    assert t.plays[1].gap == 2
    assert t.plays[1].reasons[0].text == "gap of 2: skips 3, 4"


def test_gap_names_up_to_the_limit() -> None:
    named = NAMED_GAP + 1  # the card NAMED_GAP + 2 on A1 (top 1) skips NAMED_GAP cards
    t = explained(small_deal([named + 1, 30, 20, 21]), [(1, [(named + 1, "A1"), (30, "D1")])])[0]
    assert t.plays[0].reasons[0].text == "gap of 4: skips 2, 3, 4, 5"
    t = explained(small_deal([7, 30, 20, 21]), [(1, [(7, "A1"), (30, "D1")])])[0]
    assert t.plays[0].reasons[0].text == "gap of 5: skips 5 cards from 2 to 6"


def test_jumped_over_lists_the_cards() -> None:
    state = GameState(small_deal([4, 9, 20, 21]))
    state.play(4, pile_index(state.rules, "D1"))
    assert jumped_over(state, 9, pile_index(state.rules, "A1")) == [2, 3, 5, 6, 7, 8]


def test_an_extra_card_without_a_gap_is_free() -> None:
    t = explained(small_deal([2, 3, 4, 21]), [(1, [(2, "A1"), (3, "A1"), (4, "A1")])])[0]
    assert kinds(t.plays[0]) == ["gap", "minimum"]
    assert t.plays[0].reasons[1].text == "required: the minimum is 2 cards this turn"
    assert t.plays[2].reasons == t.plays[2].reasons[:1]
    assert t.plays[2].reasons[0].text == "extra card, free: no gap"


def test_fire_cards_forced_plays_and_the_end_in_a_multiplayer_record() -> None:
    turns = explain_record(load(FIRE_RECORD))
    fire = turns[0].plays[0]
    assert fire.reasons[0].text == "fire card: must be covered by the end of the next turn"
    assert [n.text for n in turns[0].notes] == [
        "fire card 12 on D1 must be covered by the end of player 2's turn"
    ]
    assert turns[1].player == 2
    assert turns[1].plays[0].reasons[0].text == (
        "covers fire card 12, which had to be covered this turn"
    )
    assert turns[4].plays[0].reasons[0].kind == "trick"
    assert [n.kind for n in turns[4].notes] == ["draw-empty"]
    assert turns[4].notes[0].text.endswith("from now on a turn needs 1 card")
    assert all(t.drew == () and t.draw_before == 0 for t in turns[5:])
    assert turns[6].plays[0].reasons[0].text == "only legal play"
    assert turns[-1].notes[-1].kind == "end"
    assert turns[-1].notes[-1].text.startswith("game over: player 1 cannot play")


def test_a_fire_card_covered_in_the_same_turn() -> None:
    rules = get_rules("on-fire").with_changes(
        high=30, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5, fire_cards=frozenset({12})
    )
    front = [12, 11, 2, 3]
    deal = Deal.create(rules, 1, [front + [c for c in rules.cards if c not in front]], first=1)
    t = explained(deal, [(1, [(12, "D1"), (11, "D1")])])[0]
    assert t.plays[0].reasons[0].text == "fire card, covered again later this turn"
    assert "covers fire card 12, laid this turn" in [r.text for r in t.plays[1].reasons]
    assert not any(n.kind == "fire" for n in t.notes)


def test_the_last_card_is_a_perfect_clear() -> None:
    turns = explain_record(load(SEED_RECORD))
    last = turns[-1]
    assert last.plays[-1].reasons[0].text == "last card: a perfect clear"
    assert last.status == Status.WON and last.cards_left == 0
    assert last.notes[-1].text == "won: all cards played: a perfect clear (rule C7)"


def test_a_player_without_cards_is_skipped() -> None:
    deal = Deal.from_text(
        "classic 2p first=1 high=10 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3 :"
        " 7 3 6 10 5 2 8 4 9"
    )
    turns = explained(
        deal,
        [
            (1, [(3, "A1"), (6, "A1"), (7, "D1")]),
            (2, [(5, "D1")]),
            (1, [(8, "A1"), (4, "D1"), (9, "A1")]),
            (2, [(2, "D1")]),
            (2, [(10, "A1")]),
        ],
    )
    assert "last card in hand: player 1 is out" in [r.text for r in turns[2].plays[2].reasons]
    assert [n.text for n in turns[3].notes] == [
        "player 1 has no cards left and is skipped (rule C7)"
    ]
    assert turns[4].player == 2 and turns[4].status == Status.WON


def test_face_to_face_names_the_opponent_play_and_the_win() -> None:
    deal = Deal.from_text("face-to-face 2p first=1 high=7 : 4 7 2 5 3 6 / 3 6 2 7 4 5")
    turns = explained(
        deal,
        [
            (1, [(6, "A1"), (2, "D1"), (7, "A1")]),
            (2, [(6, "D2"), (7, "D1"), (3, "D2"), (4, "A2"), (2, "D2"), (5, "A2")]),
        ],
    )
    onto = turns[1].plays[1]
    assert onto.reasons[0].kind == "opponent"
    assert onto.reasons[0].text.startswith("onto player 1's pile: it gives them room (2 to 7)")
    assert turns[1].plays[-1].reasons[0].text == "last card: player 2 has played every card"
    assert turns[1].drew == () and turns[1].status == Status.WON


def test_extreme_commands_are_named() -> None:
    deal = extreme_deal([50, 3, 4, 5, 6, 7, 8, 9], {50: "stop"}, rules=EXTREME)
    t = explained(deal, [(1, [(50, "A1")])])[0]
    assert "Stop: ends the turn after this card (rule X3a)" in [r.text for r in t.plays[0].reasons]


def test_extreme_skull_names_its_cover_and_a_broken_command_loses() -> None:
    # rule X3b: the skull's cover is named; rule X2: a play that breaks a
    # command is explained as the move that lost the game.
    deal = extreme_deal([50, 60, 55, 70, 80, 90, 91, 92], {50: "skull", 60: "no-trick"})
    t = explained(deal, [(1, [(50, "A1"), (55, "A1")])])[0]
    texts = [r.text for p in t.plays for r in p.reasons]
    assert "skull: covered by 55 this turn (rule X3b)" in texts
    lost = explained(deal, [(1, [(60, "A1"), (50, "A1")])])[0]
    assert lost.plays[1].reasons[0].text == "breaks a command (rule X4a): the game is lost"


def test_each_play_has_one_cost_and_at_most_two_reasons() -> None:
    for path in (SEED_RECORD, FIRE_RECORD):
        for t in explain_record(load(path)):
            for p in t.plays:
                assert 1 <= len(p.reasons) <= 2
                assert sum(r.kind in COST_KINDS for r in p.reasons) == 1


def test_explaining_is_deterministic() -> None:
    record = load(SEED_RECORD)
    assert explain_record(record) == explain_record(record)


def test_an_illegal_record_names_the_first_illegal_play() -> None:
    record = load(FIRE_RECORD)
    bad = record_of(record.deal, [(1, [(12, "D1"), (3, "A1")]), (2, [(14, "D1")])])
    with pytest.raises(InvalidInputError) as info:
        explain_record(bad, "game.json")
    assert str(info.value) == (
        "game.json: illegal record: turn 2, play 1: rule C5:"
        " 14 D1: D1 shows 12; a card must be lower than 12"
    )


# -- rendering: golden files -------------------------------------------------


def test_golden_record_text() -> None:
    result = invoke("explain", str(FIRE_RECORD))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    check_golden("fire_2p.txt", result.stdout)


def test_golden_seed_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(portfolio, "solve_with", fake_solver(seed_2_solution()))
    result = invoke("explain", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("WIN - perfect clear\nclassic, 1 player, seed 2")
    check_golden("seed_2.txt", result.stdout)


def test_golden_record_json() -> None:
    result = invoke("explain", str(FIRE_RECORD), "--json")
    assert result.exit_code == 0
    check_golden("fire_2p.json", json.dumps(json.loads(result.stdout), indent=1) + "\n")


def test_plain_text_has_no_escapes_but_a_terminal_gets_colour() -> None:
    result = invoke("explain", str(FIRE_RECORD))
    assert "\x1b" not in result.stdout
    summary, turns = explain_cli.summary_of_record(load(FIRE_RECORD), "record")
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, color_system="standard", width=100)
    console.print(explain_cli.explain_view(summary, turns))
    assert "\x1b[" in buf.getvalue()
    assert "".join(c for c in buf.getvalue() if c != "\x1b")  # rendered something


def test_long_reasons_wrap_under_their_column() -> None:
    result = invoke("explain", str(SEED_RECORD))
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert all(line == line.rstrip() for line in lines)
    wrapped = [line for line in lines if line.startswith(" " * 24) and line.strip()]
    assert wrapped, "some reason wraps at width 100"


def test_loss_header_gives_the_best_possible_and_the_proof(tmp_path: Path) -> None:
    # A small deal without backward tricks (step 50) that the solver proves lost.
    deal = tmp_path / "deal.txt"
    deal.write_text(
        "classic 1p first=1 high=14 asc_piles=1 desc_piles=1 step=50 hand_sizes=3,3,3,3,3 :"
        " 13 7 4 10 2 11 5 14 12 8 3 9 6\n"
    )
    result = invoke("explain", "--deal", str(deal))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "LOSS - best possible: 3 cards left"
    assert lines[1].startswith("proof: no perfect clear: exhaustive search")
    data = json.loads(invoke("explain", "--deal", str(deal), "--json").stdout)
    assert (data["verdict"], data["cards_left"], data["status"]) == ("loss", 3, "lost")


def test_unknown_header_gives_the_best_found(monkeypatch: pytest.MonkeyPatch) -> None:
    sol = seed_2_solution("unknown", turns=5)
    monkeypatch.setattr(portfolio, "solve_with", fake_solver(sol))
    result = invoke("explain", "--seed", "2")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        f"UNKNOWN - best found: {sol.cards_left} cards left (no proof within the time)"
    )
    assert "turn 5 - player 1" in result.stdout and "turn 6 " not in result.stdout


# -- JSON --------------------------------------------------------------------


def replay_json(data: dict[str, Any]) -> tuple[list[Turn], GameState]:
    """Play the document's plays in order through the engine, checking every
    snapshot it states on the way."""
    deal = Deal.from_dict(data["deal"])
    rules = deal.rules
    state = GameState(deal)
    turns: list[Turn] = []
    for i, t in enumerate(data["turns"]):
        assert t["turn"] == i + 1 and t["player"] == state.current + 1
        player = state.current
        piles = {n: state.tops[pile_index(rules, n)] for n in t["before"]["piles"]}
        assert t["before"] == {"piles": piles, "hand": state.hand()}
        plays = []
        for p in t["plays"]:
            assert set(p) == {"card", "pile", "from", "reasons"}
            assert p["from"] == state.tops[pile_index(rules, p["pile"])]
            assert 1 <= len(p["reasons"]) <= 2
            assert all(set(r) == {"kind", "text"} for r in p["reasons"])
            plays.append(Play(p["card"], pile_index(rules, p["pile"])))
            state.play(plays[-1].card, plays[-1].pile)
        held = set(state.hand())
        state.end_turn()
        assert t["drew"] == sorted(set(state.hand(player)) - held)
        assert t["after"]["hand"] == state.hand(player)
        assert t["cards_left"] == state.cards_left()
        turns.append(Turn(player + 1, tuple(plays)))
    return turns, state


def test_json_replays_to_the_record() -> None:
    record = load(SEED_RECORD)
    result = invoke("explain", str(SEED_RECORD), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {
        "source",
        "verdict",
        "cards_left",
        "status",
        "reason",
        "proof",
        "optimal",
        "first",
        "deal",
        "turns",
    }
    assert (data["source"], data["verdict"], data["status"]) == ("record", "win", "won")
    assert data["cards_left"] == 0
    assert set(data["turns"][0]) >= {"turn", "player", "before", "plays", "drew", "after"}
    turns, state = replay_json(data)
    assert tuple(turns) == record.turns
    assert state.status == Status.WON


def test_json_of_a_solved_seed_is_a_replayable_win() -> None:
    # The real solver: seed 2 is won in well under a second.
    result = invoke("explain", "--seed", "2", "--time-limit", "30", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["source"], data["verdict"], data["cards_left"]) == ("solve", "win", 0)
    _, state = replay_json(data)
    assert state.status == Status.WON


# -- errors --------------------------------------------------------------------


def assert_one_line_error(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_an_illegal_record_is_one_line_and_exit_2(tmp_path: Path) -> None:
    data = json.loads(FIRE_RECORD.read_text(encoding="utf-8"))
    data["turns"][1]["plays"][0]["card"] = 14  # 14 on D1 (top 12): rule C5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_one_line_error(
        invoke("explain", str(path)),
        "illegal record: turn 2, play 1: rule C5",
    )
    data["turns"][1]["player"] = 1
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_one_line_error(invoke("explain", str(path)), "turn 2: rule C3", "C3")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["{missing}"], "No such file"),
        (["{malformed}"], "malformed.json"),
        (["{malformed}", "--seed", "1"], "a record FILE brings its own deal"),
        ([], "give a record FILE, or a deal"),
        (
            ["--seed", "1", "--variant", "face-to-face"],
            "for Face to Face, thegame solve --seed 1 --variant face-to-face shows",
        ),
        (["--record", "{missing}"], "No such file"),  # the old spelling still works
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], fragment: str) -> None:
    malformed = tmp_path / "malformed.json"
    malformed.write_text('{"deal": ', encoding="utf-8")
    paths = {"missing": str(tmp_path / "missing.json"), "malformed": str(malformed)}
    args = [a.format(**paths) for a in args]
    assert_one_line_error(invoke("explain", *args), fragment)


def test_reasons_line_up_when_cards_carry_command_markers() -> None:
    """Extreme plays such as ``81[D] D1 (on 83[S])`` are longer than the
    usual column: within a turn every play's reason still starts in one
    column, after at least one space."""
    import re

    res = invoke("explain", "--seed", "5", "--variant", "extreme", "--players", "2")
    assert res.exit_code == 0, res.output
    columns: list[int] = []
    marked = 0
    for line in res.output.splitlines():
        if line.startswith("turn "):
            assert len(set(columns)) <= 1, columns
            columns = []
        m = re.match(r"play    (\S+ \S+ \(on \S+\))( +)\S", line)
        if line.startswith("play"):
            assert m is not None, line
            columns.append(len(m.group(1)) + len(m.group(2)))
            marked += "[" in m.group(1)
    assert len(set(columns)) <= 1, columns
    assert marked > 0


def test_a_records_verdict_is_win_loss_or_unknown_and_its_status_says_how_it_ended(
    tmp_path: Path,
) -> None:
    """A record cut short (in progress) proves nothing about its position:
    ``verdict`` unknown, the status in ``status``."""
    record = load(SEED_RECORD)
    short = tmp_path / "short.json"
    short.write_text(Record(record.deal, record.turns[:3]).to_json())
    data = json.loads(invoke("explain", str(short), "--json").stdout)
    assert (data["verdict"], data["status"]) == ("unknown", "in_progress")
