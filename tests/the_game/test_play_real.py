"""``thegame play`` for real games: the draw pile face down, hot seat, --save,
hint and solve that respect what is hidden, Ctrl-C and the end of input.

Every game here is scripted through click's CliRunner on small generalised
deals (rule C10), so the searches are tiny.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import thegame.cli.the_game.play as play_module
from tests.support.cli import run_main
from thegame.analysis.the_game.blind import choose_turn
from thegame.cli.main import cli
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, pile_name
from thegame.solver.the_game.api import solve

SMALL = "classic 1p first=1 high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
# Made by hand so that the cards come in the order the piles want them.
EASY = SMALL + " : 2 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"
SMALL2 = "classic 2p first=1 high=24 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
DUO = SMALL2 + " : 2 24 5 23 3 21 4 22 6 20 7 19 8 18 9 17 10 16 11 15 12 14 13"


def invoke(args: list[str], lines: list[str] | None = None) -> Result:
    text = None if lines is None else "\n".join(lines) + "\n"
    return CliRunner().invoke(cli, ["play", *args], input=text)


def deal_file(tmp_path: Path, text: str, name: str = "deal.txt") -> Path:
    path = tmp_path / name
    path.write_text(text + "\n")
    return path


def script_of(deal: Deal, turns: list[Turn]) -> list[str]:
    """What a player types to play ``turns`` (hot seat: Enter after each
    turn's end, when the next player has the keyboard)."""
    lines = []
    for turn in turns:
        lines += [f"{p.card} {pile_name(deal.rules, p.pile)}" for p in turn.plays]
        lines.append("end")
        if deal.players > 1:
            lines.append("")
    return lines


def policy_turns(deal: Deal) -> tuple[list[Turn], GameState]:
    """The game the blind policy plays on ``deal`` (to the end)."""
    state = GameState(deal)
    turns = []
    while not state.over:
        player = state.current + 1
        plays = choose_turn(state)
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(player, tuple(plays)))
        if not state.over:
            state.end_turn()
    return turns, state


def check_json(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["check", str(path), "--json"])
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# -- a whole game, saved, checked and analysed -----------------------------------------


def test_a_hidden_game_played_to_a_win_is_saved_checked_and_analysed(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    sol = solve(deal)
    assert sol.verdict == "win"
    save = tmp_path / "game.json"
    args = ["--deal", str(deal_file(tmp_path, EASY)), "--save", str(save)]
    result = invoke([*args, "--analysis-time", "0.5"], script_of(deal, sol.turns))
    assert result.exit_code == 0, result.output
    assert "won: a perfect clear!" in result.output
    assert "face down" in result.output
    assert "Fair review" in result.output and "Hindsight analysis" in result.output
    assert "every action kept the best result reachable" in result.output
    # The saved record is exactly the game played, and check and analyze take it.
    record = Record.from_json(save.read_text())
    assert list(record.turns) == sol.turns
    assert record.deal == deal
    assert check_json(save) == {
        "legal": True,
        "status": "won",
        "cards_left": 0,
        "reason": "all cards played: a perfect clear (rule C7)",
        "error": None,
    }
    analysis = CliRunner().invoke(cli, ["analyze", str(save), "--json", "--samples", "8"])
    assert analysis.exit_code == 0, analysis.output
    review = json.loads(analysis.stdout)
    assert review["hindsight"]["mistakes"] == [] and review["cards_left"] == 0


def test_a_hot_seat_game_to_its_end_keeps_each_draw_to_its_player(tmp_path: Path) -> None:
    deal = Deal.from_text(DUO)
    turns, final = policy_turns(deal)
    save = tmp_path / "duo.json"
    args = ["--deal", str(deal_file(tmp_path, DUO)), "--save", str(save), "--no-review"]
    result = invoke(args, script_of(deal, turns))
    assert result.exit_code == 0, result.output
    text = result.output
    assert "player 2's hand: 3 cards (hidden)" in text
    assert "player 1 ended the turn and drew 2 cards" in text
    assert "--- player 2's turn: pass the keyboard ---" in text
    assert "press Enter when only player 2 looks at the screen" in text
    assert "turn ended; drew" not in text  # hot seat: the drawn cards are not shown
    assert "Hindsight analysis" not in text  # --no-review
    data = check_json(save)
    assert data["legal"] and data["status"] == final.status
    assert data["cards_left"] == final.cards_left()
    assert Record.from_json(save.read_text()).turns == tuple(turns)


def test_a_saved_lost_game_is_checked_as_lost(tmp_path: Path) -> None:
    # Small seed 2: the blind policy's game loses with 13 cards left (C8).
    text = SMALL + " : 5 14 10 3 7 8 2 9 15 20 19 13 12 18 17 6 11 16 4"
    deal = Deal.from_text(text)
    turns, final = policy_turns(deal)
    assert final.status == Status.LOST and final.cards_left() == 13
    save = tmp_path / "g.json"
    result = invoke(
        ["--deal", str(deal_file(tmp_path, text)), "--save", str(save), "--analysis-time", "1"],
        script_of(deal, turns),
    )
    assert result.exit_code == 0, result.output
    assert "lost: player 1 cannot play 2 cards (rule C8); 13 cards left" in result.output
    assert "Hindsight analysis" in result.output
    assert check_json(save) == {
        "legal": True,
        "status": "lost",
        "cards_left": 13,
        "reason": "player 1 cannot play 2 cards (rule C8)",
        "error": None,
    }
    # The last turn's end left player 1 without 2 playable cards: it is saved.
    assert Record.from_json(save.read_text()).turns == tuple(turns)


# -- what is hidden stays hidden ---------------------------------------------------------


def _permuted(text: str) -> str:
    """The same deal with the hidden cards (the draw pile, and the hands of
    players 2..n) in reverse order: what player 1 sees is unchanged."""
    head, cards = text.split(" : ")
    deck = cards.split()
    hand = 3
    hidden = deck[hand:]
    return f"{head} : {' '.join(deck[:hand] + hidden[::-1])}"


@pytest.mark.parametrize(("text", "players"), [(EASY, 1), (DUO, 2)])
def test_nothing_printed_before_a_draw_depends_on_the_hidden_order(
    tmp_path: Path, text: str, players: int
) -> None:
    """The strongest form of "the draw pile is never shown": the whole output
    up to the first draw, hints and undo included, is the same for two orders
    of the hidden cards. (A card number alone could appear legitimately, as a
    room count or a pile top, so the test compares whole outputs.)"""
    other = _permuted(text)
    assert Deal.from_text(other).deck != Deal.from_text(text).deck
    assert GameState(Deal.from_text(other)).hand(0) == GameState(Deal.from_text(text)).hand(0)
    state = GameState(Deal.from_text(text))
    first, second = choose_turn(state)[:2]
    rules = state.rules
    lines = [
        "hint",
        "solve",
        f"{first.card} {pile_name(rules, first.pile)}",
        "undo",
        f"{first.card} {pile_name(rules, first.pile)}",
        "hint",
        f"{second.card} {pile_name(rules, second.pile)}",
        "help",
        "end",
        "quit",
    ]
    outputs = []
    for i, t in enumerate((text, other)):
        path = deal_file(tmp_path, t, f"d{i}.txt")
        result = invoke(["--deal", str(path), "--hint-time", "600", "--no-review"], lines)
        assert result.exit_code == 0, result.output
        marker = "turn ended; drew" if players == 1 else "ended the turn and drew"
        before, sep, _ = result.output.partition(marker)
        assert sep, result.output
        outputs.append(before)
    assert outputs[0] == outputs[1]
    assert "hint (from what you can see; the strong blind player" in outputs[0]
    assert "the draw pile is hidden" in outputs[0]
    # The draw pile's size is shown, and the other hands' sizes.
    assert f"draw pile: {len(state.draw_pile())} cards (face down)" in outputs[0]
    assert players == 1 or "player 2's hand: 3 cards (hidden)" in outputs[0]


def test_undo_stays_inside_the_turn_when_the_draw_pile_is_hidden(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    plays = script_of(deal, turns[:1])
    nxt = script_of(deal, turns[1:2])[0]
    lines = [*plays, "undo", nxt, "undo", "undo", "quit"]
    result = invoke(["--deal", str(deal_file(tmp_path, EASY)), "--no-review"], lines)
    assert result.exit_code == 0, result.output
    assert "nothing to undo in this turn: a turn that ended stays ended" in result.output
    assert f"took back {nxt}" in result.output
    assert result.output.count("nothing to undo in this turn") == 2


def test_solve_spoiler_says_only_whether_a_clear_exists(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    result = invoke(
        ["--deal", str(deal_file(tmp_path, EASY)), "--no-review"], ["solve spoiler", "quit"]
    )
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if "spoiler:" in x)
    assert line.endswith("spoiler: with the real draw order a perfect clear still exists")
    # No line of play: no card of the draw pile is named.
    hidden = GameState(deal).draw_pile()
    assert not any(str(c) in line for c in hidden)


def test_the_piles_are_drawn_as_cards_with_their_room(tmp_path: Path) -> None:
    # EASY: hand 2 3 20, one pile each way. 20 on A1 leaves A1 room for one
    # card only, the backward trick 10 (rule C5); D1 takes all 18 cards out.
    result = invoke(["--deal", str(deal_file(tmp_path, EASY)), "--no-review"], ["20 A1", "quit"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert " room 19    room 19 " in lines
    assert " room 1     room 18 " in lines
    card = lines.index(" room 1     room 18 ") - 2
    assert lines[card] == "│  20   │  │  21   │"
    assert lines[card - 1] == "│ A1 up │  │D1 down│"


def test_a_game_lost_inside_a_turn_is_saved_with_that_turn(tmp_path: Path) -> None:
    # Extreme (X3a): a card after a stop card loses at once, inside the turn.
    text = (
        "extreme 1p high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
        " : 2=stop 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"
    )
    save = tmp_path / "x.json"
    args = ["--deal", str(deal_file(tmp_path, text)), "--save", str(save), "--no-review"]
    result = invoke(args, ["2 A1", "3 A1", "!"])
    assert result.exit_code == 0, result.output
    # Asked once, then played when the player insists.
    assert "3 A1 loses the game: 3 played after a stop card had ended the turn (rule X3a)" in (
        result.output
    )
    assert "lost: 3 played after a stop card had ended the turn (rule X3a)" in result.output
    record = Record.from_json(save.read_text())
    assert [[(p.card, p.pile) for p in t.plays] for t in record.turns] == [[(2, 0), (3, 0)]]
    data = CliRunner().invoke(cli, ["check", str(save), "--json"])
    assert json.loads(data.stdout)["status"] == "lost"
    assert "X3a" in json.loads(data.stdout)["reason"]


# -- variants without a solver for the question -----------------------------------------

# Extreme with a fire card (an On Fire + Extreme mix): the engine plays it, the
# solver does not cover it, and the blind policy does not model commands.
MIX = (
    "extreme 1p high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3 fire_cards=11"
    " : 2 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"
)


def test_hint_and_solve_in_extreme_say_not_available_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    path = deal_file(tmp_path, MIX)
    lines = ["hint", "solve spoiler", "2 A1", "hint", "3 A1", "end", "quit"]
    result = invoke(["--deal", str(path), "--no-review"], lines)
    assert result.exit_code == 0, result.output
    assert result.output.count("hint: not available for this variant (extreme)") == 2
    assert "solve: not available for this variant (extreme)" in result.output
    assert "turn ended; drew" in result.output
    # Played as a puzzle (the record's position, everything in view): the same,
    # and the closing review says so instead of failing.
    record = tmp_path / "mix.json"
    record.write_text(Record(Deal.from_text(MIX)).to_json())
    result = CliRunner().invoke(
        cli, ["play", str(record)], input="hint\nsolve\n2 A1\n3 A1\nend\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "hint: not available for this variant (extreme)" in result.output
    assert "solve: not available for this variant (extreme)" in result.output
    assert "the closing review: not available for this variant (extreme)" in result.output


def test_hint_in_a_face_to_face_game_answers_from_what_the_player_sees(
    tmp_path: Path,
) -> None:
    lines = ["hint", "hint", "quit"]
    args = ["--seed", "3", "--variant", "face-to-face", "--no-review", "--hint-time", "0.5"]
    result = invoke(args, lines)
    assert result.exit_code == 0, result.output
    assert result.output.count("hint (from what you can see): play ") == 2
    assert "not available" not in result.output
    assert "player 2's draw pile: 52 cards (face down)" in result.output
    assert "quit with 116 cards left" in result.output


def test_a_small_duel_solve_spoiler_says_who_wins_and_nothing_more(tmp_path: Path) -> None:
    text = "face-to-face 2p first=1 high=9 : 2 3 4 5 6 7 8 9 / 2 3 4 5 6 7 8 9"
    result = invoke(
        ["--deal", str(deal_file(tmp_path, text)), "--no-review"],
        ["solve", "solve spoiler", "quit"],
    )
    assert result.exit_code == 0, result.output
    assert "'solve spoiler' tells only who wins with best play" in result.output
    assert "spoiler: with best play from here you win\n" in result.output


def test_a_full_extreme_game_by_seed_shows_the_commands(tmp_path: Path) -> None:
    result = invoke(["--seed", "3", "--variant", "extreme", "--players", "2"], ["hint", "quit"])
    assert result.exit_code == 0, result.output
    assert "55[S]" in result.output  # a stop card in player 1's hand (seed 3)
    assert "[S] stop" in result.output
    assert "player 2's hand: 7 cards (hidden)" in result.output
    assert "draw pile: 84 cards (face down)" in result.output


# -- stopping: quit, end of input, Ctrl-C ----------------------------------------------


def _scripted(lines: list[str], then: type[BaseException]) -> Iterator[str]:
    yield from lines
    raise then


@pytest.mark.parametrize(
    ("then", "code"), [(KeyboardInterrupt, 130), (EOFError, 0)], ids=["ctrl-c", "eof"]
)
def test_ctrl_c_and_end_of_input_stop_cleanly_and_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, then: type[BaseException], code: int
) -> None:
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    lines = script_of(deal, turns[:2])
    lines.append(script_of(deal, turns[2:3])[0])
    feed = _scripted(lines, then)
    monkeypatch.setattr(play_module, "read_line", lambda prompt: next(feed))
    save = tmp_path / "g.json"
    args = ["--deal", str(deal_file(tmp_path, EASY)), "--save", str(save), "--no-review"]
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, KeyboardInterrupt | EOFError)
    # Two whole turns saved; the play of the third turn in progress is not.
    assert Record.from_json(save.read_text()).turns == tuple(turns[:2])
    assert check_json(save)["status"] == "in_progress"
    if code == 130:
        assert "interrupted; the game so far is saved to" in result.output
    else:
        assert "the turn in progress (1 play) is not in the record" in result.output


def test_the_save_file_exists_from_the_start(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = invoke(["--seed", "1", "--save", str(save), "--no-review"], ["quit"])
    assert result.exit_code == 0, result.output
    assert Record.from_json(save.read_text()).turns == ()
    assert f"saved to {save}" in result.output


# -- bad options: one line, exit 2 -------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["PUZZLE", "--seed", "1"], "--seed goes with a real game, not with a puzzle or record"),
        (["--daily", "--seed", "1"], "--seed goes with a real game, not with --daily"),
        (["PUZZLE", "--variant", "profi"], "--variant goes with a real game"),
        ([], "give a puzzle or record FILE, --daily, or a deal"),
        (["--variant", "profi"], "no deal given"),
        (["--seed", "1", "--deck", "2 3"], "give one deal source"),
        (["--seed", "1", "--variant", "nope"], "'nope' is not one of 'classic'"),
        (["--seed", "1", "--players", "9"], "9 is not in the range 1<=x<=5"),
        (["--seed", "1", "--date", "2025-01-01"], "--date goes with --daily"),
        (["--seed", "1", "--save", "NODIR/x/g.json"], "no folder"),
        (["--deal", "-"], "play reads its commands from stdin"),
        (["-"], "play reads its commands from stdin"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    puzzle = tmp_path / "p.json"
    puzzle.write_text(Record(Deal.from_text(EASY)).to_json())
    args = [
        str(puzzle) if a == "PUZZLE" else str(tmp_path / a) if a.startswith("NODIR") else a
        for a in args
    ]
    code, out, err = run_main(capsys, "play", *args)
    assert code == 2, out + err
    assert out == "" and err.startswith("error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_real_ctrl_c_exits_130_without_a_traceback_and_saves(tmp_path: Path) -> None:
    """The real signal, in a child process waiting for the next command."""
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    save = tmp_path / "g.json"
    command = "from thegame.cli.main import main; main()"
    args = ["play", "--deal", str(deal_file(tmp_path, EASY)), "--save", str(save), "--no-review"]
    child = subprocess.Popen(
        [sys.executable, "-c", command, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None
    child.stdin.write("\n".join(script_of(deal, turns[:1])) + "\n")
    child.stdin.flush()
    # Wait (up to 60 s on a loaded machine) for the turn to be saved: then
    # the child is waiting for the next command.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if save.exists() and Record.from_json(save.read_text()).turns:
            break
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert "interrupted; the game so far is saved to" in stderr
    assert Record.from_json(save.read_text()).turns == tuple(turns[:1])


def test_first_names_the_starting_player(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["--seed", "1", "--players", "3", "--first", "2", "--save", str(save), "--no-review"]
    result = invoke(args, ["quit"])
    assert result.exit_code == 0, result.output
    assert "classic, 3 players, seed 1 - player 2 starts" in result.output
    assert "turn 1 - player 2 to move" in result.output
    assert (
        "player 2's hand: " in result.output
        and "player 1's hand: 6 cards (hidden)" in result.output
    )
    assert Record.from_json(save.read_text()).deal.first == 2


def test_a_fire_card_on_top_is_marked_until_covered() -> None:
    # Seed 0, on-fire (F1): 44 and 55 in the first hand; 55 on A1 must be
    # covered in the next turn (F2).
    result = invoke(
        ["--seed", "0", "--variant", "on-fire", "--no-review"], ["44 A1", "55 A1", "end"]
    )
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    turn2 = lines.index("turn 2 - played 0 this turn, minimum 2")
    assert "fire" in lines[:turn2] and "cover!" not in lines[:turn2]
    assert "cover!" in lines[turn2:]
    assert "│  55*  │  │   1   │  │  100  │  │  100  │" in lines


def test_save_in_a_puzzle_keeps_the_opening(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    puzzle = tmp_path / "p.json"
    puzzle.write_text(Record(deal, tuple(turns[:1])).to_json())
    save = tmp_path / "g.json"
    result = invoke(
        [str(puzzle), "--save", str(save), "--no-review"], [*script_of(deal, turns[1:2]), "quit"]
    )
    assert result.exit_code == 0, result.output
    assert "top first:" in result.output  # a puzzle shows its draw pile
    assert Record.from_json(save.read_text()).turns == tuple(turns[:2])


# -- a game-losing move is asked for again; the last card announces the win -------------


def test_end_with_a_fire_card_uncovered_is_asked_for_again() -> None:
    # Seed 0, on-fire: 55 on A1 in turn 1 must be covered in turn 2 (F2).
    lines = ["44 A1", "55 A1", "end", "63 A2", "74 A2", "end", "end"]
    result = invoke(["--seed", "0", "--variant", "on-fire", "--no-review"], lines)
    assert result.exit_code == 0, result.output
    warning = (
        "ending the turn now loses the game: fire card 55 on A1 is not covered and this "
        "turn is its last (rule F2)"
    )
    assert result.output.count(warning) == 1  # once; 'end' again ends it
    assert "lost: fire card 55 on A1 was not covered in time (rule F2)" in result.output


def test_a_losing_move_not_confirmed_is_not_played(tmp_path: Path) -> None:
    text = (
        "extreme 1p high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3"
        " : 2=stop 3 20 4 19 5 18 6 17 7 16 8 15 9 14 10 13 11 12"
    )
    lines = ["2 A1", "3 A1", "end", "quit"]
    result = invoke(["--deal", str(deal_file(tmp_path, text)), "--no-review"], lines)
    assert result.exit_code == 0, result.output
    assert "3 A1 loses the game" in result.output
    assert "lost:" not in result.output and "quit with 18 cards left" in result.output


def test_the_last_card_announces_the_win(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    lines = script_of(deal, turns)[:-1]  # no 'end' after the last card
    save = tmp_path / "g.json"
    args = ["--deal", str(deal_file(tmp_path, EASY)), "--save", str(save), "--no-review"]
    result = invoke(args, lines)
    assert result.exit_code == 0, result.output
    last = turns[-1].plays[-1]
    assert f"{last.card} {pile_name(deal.rules, last.pile)} was the last card" in result.output
    assert "won: a perfect clear!" in result.output
    assert check_json(save)["status"] == "won"


# -- hot seat: the screen is cleared, and the next hand waits for Enter ------------------


def test_hot_seat_clears_the_screen_and_waits_for_enter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deal = Deal.from_text(DUO)
    turns, _ = policy_turns(deal)
    script = iter([*script_of(deal, turns[:1]), "quit"])
    seen: list[tuple[str, str]] = []  # (prompt, what was printed since the last read)
    clears: list[int] = []

    def read(prompt: str) -> str:
        seen.append((prompt, capsys.readouterr().out))
        return next(script)

    monkeypatch.setattr(play_module, "read_line", read)
    monkeypatch.setattr(play_module.out, "clear", lambda *a, **k: clears.append(len(seen)))
    code, _, _ = run_main(capsys, "play", "--deal", str(deal_file(tmp_path, DUO)), "--no-review")
    assert code == 0
    enter = next(i for i, (prompt, _) in enumerate(seen) if prompt.startswith("press Enter"))
    before, after = seen[enter][1], seen[enter + 1][1]
    assert clears == [enter]  # cleared once, before the hand-over prompt
    assert "player 1 ended the turn" in before and "pass the keyboard" in before
    assert "player 2's hand: " not in before
    assert "player 2's hand: " in after and "player 1's hand: 3 cards (hidden)" in after


# -- files that are not a game to play say what they are --------------------------------


def test_play_of_a_deal_file_points_to_deal(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(Deal.from_text(EASY).to_json())
    result = invoke([str(path)], ["quit"])
    assert result.exit_code == 2
    assert f"play it with 'thegame play --deal {path}'" in result.stderr


def test_play_of_a_finished_or_illegal_record_says_which(tmp_path: Path) -> None:
    deal = Deal.from_text(EASY)
    turns = solve(deal).turns
    done = tmp_path / "done.json"
    done.write_text(Record(deal, tuple(turns)).to_json())
    result = invoke([str(done)], ["quit"])
    assert result.exit_code == 2
    assert "the game is already over (won: all cards played" in result.stderr
    bad = tmp_path / "bad.json"
    first = turns[0].plays[0]
    broken = Turn(1, (Play(first.card, 1), *turns[0].plays[1:]))  # 2 on D1: 20 cannot follow
    bad.write_text(Record(deal, (broken, *turns[1:])).to_json())
    result = invoke([str(bad)], ["quit"])
    assert result.exit_code == 2 and "illegal: turn 2, play 2: rule C5" in result.stderr


def test_a_duel_position_title_counts_its_turns(tmp_path: Path) -> None:
    text = "face-to-face 2p first=1 high=9 : 2 3 4 5 6 7 8 9 / 2 3 4 5 6 7 8 9"
    deal = Deal.from_text(text)
    state = GameState(deal)
    plays = []
    while not state.can_end_turn():
        p = state.legal_plays()[0]
        state.play(p.card, p.pile)
        plays.append(p)
    path = tmp_path / "duel.json"
    path.write_text(Record(deal, (Turn(1, tuple(plays)),)).to_json())
    result = invoke([str(path), "--no-review"], ["quit"])
    assert result.exit_code == 0, result.output
    assert "face-to-face, 1 turn already played; player 2 to move" in result.output
    assert "turns already" not in result.output and "clear the last" not in result.output
