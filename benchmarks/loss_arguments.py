"""Two more loss arguments for the classic family, measured.

Usage (from the repository root, after ``pip install -e .``):

    python benchmarks/loss_arguments.py --set lost-60 --deals 20
    python benchmarks/loss_arguments.py --set lost-50 --deals 20
    python benchmarks/loss_arguments.py --lines 108,526,817
    python benchmarks/loss_arguments.py --lines 28,179,316 --lines-players 3
    python benchmarks/loss_arguments.py --players-set mp3 --deals 20
    python benchmarks/loss_arguments.py --horizon 28 --players 3 --line-nodes 100000000
    python benchmarks/loss_arguments.py --horizon 28 --players 3 --solver --time-limit 120
    python benchmarks/loss_arguments.py --horizon 108 --players 1 --from-turn 7 --memory 20480
    python benchmarks/loss_arguments.py --horizon 28 --players 4 \
        --line-from findings/results.jsonl.gz --search-nodes 30000000 --time-limit 1e6
    python benchmarks/loss_arguments.py --in-search 108 --players 1 --max-nodes 4000000

Three arguments were named that could prove a lost deal lost without
searching it out: too many cards held at once, a value region the draw pile
reaches too late, and dominance between positions. The first two are one
argument here (``held_cards_loss``, ``thegame/solver/the_game/held.py``),
a prototype over the Python reference kernel, sound (argued there, and
checked against the engine-only brute force in
``tests/the_game/test_loss_arguments.py``) but not part of the solver. The
solver has dominance between positions (``dfs.Searcher._is_dead``, in C
too) and, for several players, ``Kernel.stuck_ahead``; this script
measures what each saves.

``--set`` runs the solo decision search (``TurnSearcher``, the solver's own
search for solo deals) on each deal of a fixed set three times: without
dominance, as the solver runs it (with dominance), and with held cards as
well. It prints the verdict,
nodes and seconds of each. The sets are generalised solo deals (rule C10)
built from ``random.Random(i)`` for i = 1..N, step 10, one pile each way:
``lost-60`` cards 2..60, hand 5, three plays a turn; ``lost-50`` cards
2..50, hand 4, two plays a turn. Most of them are lost, and proving a loss
is what the arguments are for.

``--lines`` walks the best line the solver finds in 10 million nodes for
profi-hard seeds (``--lines-players``, default solo) and prints the first
turn at which each argument proves the position lost: the dead-card bound,
this prototype's held cards, and the solver's loss arguments
(``arguments.turn_start_bound``: dead cards, held cards with order pairs,
and with several players a player stuck in this round): the deals the
survey leaves unknown.

``--players-set`` measures the arguments of the solver for several
players the same way: the play-level decision search (``Searcher``, the
complete search of several players) with neither, with
``Kernel.stuck_ahead`` (a later player of the round cannot make their
minimum), and with dominance too, as the solver runs it, on
generalised deals of one pile each way: ``mp3`` cards 2..40, 3 players,
hand 4, three plays a turn; ``mp4`` cards 2..40, 4 players, hand 3, two
plays a turn.

``--in-search SEED`` measures the solver's turn-start arguments
(``arguments.turn_start_bound``: held cards with order pairs solo, a
player of this round stuck with the pairs with several players) as cuts
inside the complete play-level search (``Searcher``, the Python
reference), which has only the dead-card bound and ``stuck_ahead`` there:
from the turn starts along the best line ``api.search_position`` finds in
10 million nodes (player 1 first), latest first, the search without and
with the cut (``ArgumentKernel``), until one needs more than
``--max-nodes``; it prints the nodes of each, how often the cut fired by
proof kind, and the CPU seconds. The verdicts must agree.

``--horizon SEED`` asks how far from a whole-deal loss proof the solver is,
for a profi-hard deal of ``--players`` players that ends ``unknown``: it
takes the best line ``api.solve`` finds within ``--line-nodes`` nodes (a
node budget, so that the line does not depend on the machine), then runs
the complete play-level search (the compiled one when built) from the turn
starts along it, latest first, ``--time-limit`` seconds each, until one
does not finish. With ``--solver`` it runs the solver's own decision
search there instead (the beam over turns, then the limited-discrepancy
iterations; compiled), as ``thegame solve`` would from that position.
``--line-from findings/results.jsonl.gz`` walks the best line the survey
keeps instead of finding one; ``--search-nodes N`` gives each search a node
budget as well (the first to run out ends the walk, whatever the machine's
speed). ``--from-turn N`` starts at turn N instead of the last; ``--memory MIB``
gives the searches' tables that much (``Limit.memory``, ``--memory`` of
``thegame solve``); each line also prints the peak memory so far.
"""

from __future__ import annotations

import argparse
import random
import resource
import time
from collections import Counter
from collections.abc import Iterator

from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game import api, ckernel
from thegame.solver.the_game.arguments import turn_start_bound
from thegame.solver.the_game.beam import TurnSearcher
from thegame.solver.the_game.dfs import Searcher
from thegame.solver.the_game.held import ArgumentKernel, HeldKernel, held_cards_loss
from thegame.solver.the_game.kernel import END, Kernel
from thegame.survey.store import open_for_reading
from thegame.survey.work import line_turns

SETS = {
    # name: (high card, hand, minimum per turn)
    "lost-60": (60, 5, 3),
    "lost-50": (50, 4, 2),
}
# name: (high card, hand, minimum per turn, players)
PLAYER_SETS = {
    "mp3": (40, 4, 3, 3),
    "mp4": (40, 3, 2, 4),
}


class NoCutKernel(Kernel):
    """The reference kernel without the turn-start cut the search has since
    (``arguments.turn_cut``, near the end): ``--in-search``'s baseline."""

    turn_cuts = False


class PlainKernel(Kernel):
    """The reference kernel without dominance between positions (which the
    solver has built in since, ``Searcher._is_dead``): the baseline."""

    tops_dominate = False


class NoStuckKernel(PlainKernel):
    """The reference kernel without ``stuck_ahead`` or dominance: the baseline."""

    def stuck_ahead(self) -> bool:
        return False


class StuckKernel(PlainKernel):
    """The reference kernel with ``stuck_ahead`` and without dominance."""


def players_deal(name: str, i: int) -> Deal:
    high, hand, minimum, players = PLAYER_SETS[name]
    rules = get_rules("classic").with_changes(
        high=high, hand_sizes=(hand,) * 5, min_play=minimum, asc_piles=1, desc_piles=1
    )
    deck = list(rules.cards)
    random.Random(i).shuffle(deck)
    return Deal.create(rules, players, [deck], first=1)


def compare(
    deals: list[Deal], modes: dict[str, type[Kernel]], searcher: type[Searcher], limit: Limit
) -> None:
    """Each deal searched once per mode (a kernel class): verdicts must agree;
    nodes and seconds per deal and in total, against the first mode."""
    names = list(modes)
    print("deal verdict | nodes " + " / ".join(names) + " | seconds the same")
    totals = {m: [0, 0.0] for m in names}
    lost = 0
    for i, deal in enumerate(deals, 1):
        rows = {}
        for m, cls in modes.items():
            k = cls.from_state(GameState(deal, first=1))
            t0 = time.perf_counter()
            res = searcher(k, limit, limit.deadline()).run()
            verdict = "win" if res.win else "loss" if res.proven else "unknown"
            rows[m] = (verdict, res.stats.nodes, time.perf_counter() - t0)
        verdicts = {r[0] for r in rows.values()}
        if "unknown" in verdicts:
            continue
        if len(verdicts) > 1:
            raise SystemExit(f"deal {i}: the verdicts differ: {rows}")
        lost += rows[names[0]][0] == "loss"
        for m in names:
            totals[m][0] += rows[m][1]
            totals[m][1] += rows[m][2]
        print(
            f"{i:4} {rows[names[0]][0]:7} | "
            + " / ".join(f"{rows[m][1]:>9,}" for m in names)
            + " | "
            + " / ".join(f"{rows[m][2]:6.2f}" for m in names),
            flush=True,
        )
    base_nodes, base_seconds = totals[names[0]]
    print(f"{lost} of the decided deals lost")
    for m, (nodes, seconds) in totals.items():
        print(
            f"total {m:9}: {nodes:,} nodes ({nodes / max(base_nodes, 1):.1%}), "
            f"{seconds:.1f} s ({seconds / max(base_seconds, 1e-9):.1%})"
        )


def run_players_set(name: str, count: int, limit: Limit) -> None:
    high, hand, minimum, players = PLAYER_SETS[name]
    print(f"set {name}: cards 2..{high}, {players} players, hand {hand}, minimum {minimum}")
    deals = [players_deal(name, i) for i in range(1, count + 1)]
    modes = {"plain": NoStuckKernel, "stuck": StuckKernel, "solver": Kernel}
    compare(deals, modes, Searcher, limit)


def horizon(
    seed: int,
    players: int,
    line_nodes: int,
    limit: Limit,
    solver: bool = False,
    from_turn: int | None = None,
    line_from: str | None = None,
) -> None:
    deal = Deal.from_seed(seed, get_rules("profi-hard"), players)
    if line_from is not None:
        store = open_for_reading(line_from)  # the survey's database or its export
        row = next((r for r in store.deals("profi-hard", players) if r["seed"] == seed), None)
        store.close()
        if row is None:
            raise SystemExit(f"no profi-hard {players}-player row for seed {seed} in {line_from}")
        turns = line_turns(deal.rules, row["line"])
        first = turns[0].player
        line = [[(p.card, p.pile) for p in t.plays] for t in turns]
        print(
            f"profi-hard {players} players seed {seed}: the stored best line, "
            f"{len(line)} turns, start {first}"
        )
    else:
        sol = api.solve(deal, Limit(None, line_nodes))
        print(
            f"profi-hard {players} players seed {seed}: {sol.verdict}, best line "
            f"{sol.cards_left} cards left, start {sol.first}"
        )
        if sol.verdict != "unknown":
            return
        first = sol.first
        line = [[(p.card, p.pile) for p in t.plays] for t in sol.turns]
    last = len(line) if from_turn is None else min(from_turn, len(line))
    for at in range(last - 1, -1, -1):
        state = GameState(deal, first=first)
        for plays in line[:at]:
            for card, pile in plays:
                state.play(card, pile)
            state.end_turn()
        k = Kernel.from_state(state)
        t0 = time.perf_counter()
        if ckernel.use_compiled(k):
            # [0]: the dead set goes at once, not kept (tables and all) through
            # the next position's search, whose peak it would swell
            res = ckernel.search(k, limit, limit.deadline(), play_level=not solver)[0]
        else:
            res = Searcher(k, limit, limit.deadline()).run()
        verdict = "win" if res.win else "loss" if res.proven else "unknown"
        print(
            f"from turn {at + 1}: {verdict}, {res.stats.nodes:,} nodes, "
            f"{res.stats.dead_positions:,} dead in the memo, {time.perf_counter() - t0:.1f} s, "
            f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10:,} MiB",
            flush=True,
        )
        if verdict == "unknown":
            return


def set_deal(name: str, i: int) -> Deal:
    high, hand, minimum = SETS[name]
    rules = get_rules("classic").with_changes(
        high=high, hand_sizes=(hand,) * 5, min_play=minimum, asc_piles=1, desc_piles=1
    )
    deck = list(rules.cards)
    random.Random(i).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


def run_set(name: str, count: int, limit: Limit) -> None:
    print(f"set {name}: cards 2..{SETS[name][0]}, hand {SETS[name][1]}, minimum {SETS[name][2]}")
    deals = [set_deal(name, i) for i in range(1, count + 1)]
    modes = {"plain": PlainKernel, "dominance": Kernel, "both": HeldKernel}
    compare(deals, modes, TurnSearcher, limit)


def line_positions(seed: int, players: int = 1) -> Iterator[tuple[int, Kernel]]:
    """Turn starts along the best line the solver finds in 10 million nodes
    (profi-hard, player 1 first)."""
    deal = Deal.from_seed(seed, get_rules("profi-hard"), players)
    res = api.search_position(GameState(deal, first=1), Limit(None, 10_000_000), optimize=False)
    k = HeldKernel.from_state(GameState(deal, first=1))
    turn = 1
    for action in res.actions:
        if action == END:
            k.end_turn()
            turn += 1
            if k.t == 0 and not k.won():
                yield turn, k
        else:
            k.play(*action)


def run_lines(seeds: list[int], players: int = 1) -> None:
    for seed in seeds:
        first_dead = first_held = first_pairs = None
        turns = 0
        for turn, k in line_positions(seed, players):
            turns = turn
            if first_dead is None and Kernel.dead_card(k):
                first_dead = turn
            if first_held is None and held_cards_loss(k):
                first_held = turn
            if first_pairs is None and turn_start_bound(k) is not None:
                first_pairs = turn
        print(
            f"profi-hard {players}p seed {seed} ({turns} turns): the dead-card bound first "
            f"proves the line lost at turn {first_dead}, the held-cards argument at turn "
            f"{first_held}, "
            f"the solver's loss arguments (dead cards, order pairs, held cards) at turn "
            f"{first_pairs}"
        )


def in_search(seed: int, players: int, max_nodes: int) -> None:
    """Without and with the turn-start arguments as a cut, from the turn
    starts of the best line, latest first (module notes)."""
    line = [(turn, k.snapshot()) for turn, k in line_positions(seed, players)]
    deal = Deal.from_seed(seed, get_rules("profi-hard"), players)
    print(f"profi-hard {players}p seed {seed}: {len(line)} turn starts on the line")
    for turn, snap in reversed(line):
        rows = []
        for cls in (NoCutKernel, ArgumentKernel):
            k = cls.from_state(GameState(deal, first=1))
            k.restore(snap)
            ArgumentKernel.fired = Counter()
            t0 = time.process_time()
            res = Searcher(k, Limit(None, max_nodes), None).run()
            verdict = "win" if res.win else "loss" if res.proven else "unknown"
            rows.append((verdict, res.stats.nodes, time.process_time() - t0))
        (v0, n0, s0), (v1, n1, s1) = rows
        if "unknown" not in (v0, v1) and v0 != v1:
            raise SystemExit(f"turn {turn}: the verdicts differ: {rows}")
        fired = ", ".join(f"{kind} {n:,}" for kind, n in sorted(ArgumentKernel.fired.items()))
        print(
            f"from turn {turn}: {v0} / {v1}, nodes {n0:,} / {n1:,} ({n1 / max(n0, 1):.1%}), "
            f"cut fired {fired or 'never'}, CPU {s0:.1f} / {s1:.1f} s",
            flush=True,
        )
        if "unknown" in (v0, v1):
            return


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS))
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per search")
    ap.add_argument("--lines", help="profi-hard seeds, comma-separated")
    ap.add_argument("--lines-players", type=int, default=1, help="--lines: players")
    ap.add_argument("--players-set", choices=sorted(PLAYER_SETS))
    ap.add_argument("--horizon", type=int, help="a profi-hard seed that ends unknown")
    ap.add_argument(
        "--solver", action="store_true", help="--horizon: the solver's search, not the plain one"
    )
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--line-nodes", type=int, default=100_000_000)
    ap.add_argument("--from-turn", type=int, help="--horizon: start at this turn, not the last")
    ap.add_argument("--in-search", type=int, help="a profi-hard seed: the arguments as a cut")
    ap.add_argument("--max-nodes", type=int, default=4_000_000, help="--in-search: per search")
    ap.add_argument("--memory", type=int, help="MiB for the search's tables (Limit.memory)")
    ap.add_argument(
        "--line-from", metavar="EXPORT", help="--horizon: the best line a survey export keeps"
    )
    ap.add_argument("--search-nodes", type=int, help="--horizon: a node budget per search")
    args = ap.parse_args(argv)
    limit = Limit(args.time_limit, args.search_nodes, None, args.memory)
    if args.set:
        run_set(args.set, args.deals, limit)
    if args.lines:
        run_lines([int(s) for s in args.lines.split(",")], args.lines_players)
    if args.players_set:
        run_players_set(args.players_set, args.deals, limit)
    if args.horizon is not None:
        horizon(
            args.horizon,
            args.players,
            args.line_nodes,
            limit,
            args.solver,
            args.from_turn,
            args.line_from,
        )
    if args.in_search is not None:
        in_search(args.in_search, args.players, args.max_nodes)
    if not (args.set or args.lines or args.players_set) and (args.horizon, args.in_search) == (
        None,
        None,
    ):
        ap.error("give --set, --players-set, --lines, --horizon or --in-search")


if __name__ == "__main__":
    main()
