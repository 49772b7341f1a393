"""The findings: per variant and player count, the share of perfect clears,
the proven losses, the unknowns, the blind policy beside them, a histogram."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

from ..models.outcome import Verdict
from ..models.the_game.notation import plural
from .store import Store
from .svg import Panel, histogram

# Blind win rates published elsewhere, as the README cites them.
PUBLISHED_BLIND = {("classic", 1): "11.77% (best public heuristic the README cites)"}
Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (stays inside [0, 1] and
    is honest near 0 and 1, where most of these shares are)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 or k = n one end is exactly 0 or 1 (rounding would miss it).
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


@dataclass
class Group:
    """What the database holds for one (variant, players)."""

    variant: str
    players: int
    seeds: list[int] = field(default_factory=list)
    wins: int = 0
    losses: list[tuple[int, int, bool]] = field(default_factory=list)  # seed, left, proven
    unknown: list[tuple[int, int, int]] = field(default_factory=list)  # seed, best, bound
    seconds: list[float] = field(default_factory=list)
    budgets: set[float | None] = field(default_factory=set)
    # Unknowns by the budget that cut them (every stored unknown spent its
    # whole budget: a search stopped any other way is not stored).
    cut: Counter[float | None] = field(default_factory=Counter)
    versions: set[str] = field(default_factory=set)
    fewest_left: Counter[int] = field(default_factory=Counter)  # decided deals
    blind_n: int = 0  # blind games on seeds decided here
    blind_wins: int = 0
    blind_left: Counter[int] = field(default_factory=Counter)
    exact_wins_on_blind_seeds: int = 0
    # The strong blind player's games on decided seeds, per budget
    # (playouts, turn time, sample seed): [games, wins, the blind policy's
    # wins on the same seeds, the seeds it played].
    strong: dict[tuple[int, float, int], list[int]] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.seeds)

    @property
    def exact(self) -> bool:
        return not self.unknown


def collect(store: Store) -> list[Group]:
    groups = []
    for variant, players in store.groups():
        g = Group(variant, players)
        won: dict[int, bool] = {}
        blind_won: dict[int, int] = {}
        for r in store.deals(variant, players):
            g.seeds.append(r["seed"])
            g.seconds.append(r["seconds"])
            g.budgets.add(r["time_limit"])
            g.versions.add(r["version"])
            verdict = Verdict(r["verdict"])
            if verdict is Verdict.WIN:
                g.wins += 1
                g.fewest_left[0] += 1
                won[r["seed"]] = True
            elif verdict is Verdict.LOSS:
                g.losses.append((r["seed"], r["cards_left"], bool(r["cards_left_proven"])))
                g.fewest_left[r["cards_left"]] += 1
                won[r["seed"]] = False
            else:
                g.unknown.append((r["seed"], r["cards_left"], r["lower_bound"]))
                g.cut[r["time_limit"]] += 1
        for b in store.blinds(variant, players):
            if b["seed"] in won:  # the same seeds as the exact table, decided ones
                blind_won[b["seed"]] = b["won"]
                g.blind_n += 1
                g.blind_wins += b["won"]
                g.blind_left[b["cards_left"]] += 1
                g.exact_wins_on_blind_seeds += won[b["seed"]]
        for b in store.strongs(variant, players):
            if b["seed"] in won:
                key = (b["playouts"], b["turn_time"], b["sample_seed"])
                cell = g.strong.setdefault(key, [0, 0, 0, 0])
                cell[0] += 1
                cell[1] += b["won"]
                if b["seed"] in blind_won:
                    cell[2] += blind_won[b["seed"]]
                    cell[3] += 1
        groups.append(g)
    return groups


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _seeds(seeds: list[int]) -> str:
    """Ascending seeds written compactly: ``1-3, 7``."""
    runs: list[list[int]] = []
    for s in seeds:
        if runs and runs[-1][1] == s - 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _budget(budgets: set[float | None]) -> str:
    shown = sorted("none" if b is None else f"{b:g} s" for b in budgets)
    return " / ".join(shown)


def markdown(groups: list[Group], db_name: str, svg_name: str | None) -> str:
    """The findings page: the exact table, the losses and unknowns, the blind
    policy beside the exact shares, and the fewest cards left."""
    lines = (
        _exact_section(groups, db_name)
        + _losses_section(groups)
        + _blind_section(groups)
        + _fewest_section(groups, svg_name)
    )
    return "\n".join(lines) + "\n"


def _exact_section(groups: list[Group], db_name: str) -> list[str]:
    lines = [
        "# Findings: how often can a deal of The Game be cleared?",
        "",
        f"Generated by `thegame survey report --db {db_name}` from the rows the exact solver "
        "(`thegame.solver.the_game.api.solve`) stored with `thegame survey run`. A deal is "
        "a seed (`Deal.from_seed`); the order of the draw pile is known to the solver and "
        "the starting player is free (rule C3). *Perfect clear* = every card played. A win "
        "is a line replayed through the rules engine, a loss a completed proof; *unknown* "
        "means the budget ran out. A table is called **exact** only when nothing in it is "
        "unknown; otherwise the true share lies between the clears found and the clears "
        "plus the unknowns, and its interval runs from the lower end for the first to the "
        "upper end for the second.",
        "",
        "| variant | players | seeds | deals | perfect clears | share | 95% interval (Wilson) "
        "| proven losses | unknown | median s | max s | budget per deal | table |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_exact_row(g) for g in groups]
    versions = sorted({v for g in groups for v in g.versions})
    return [*lines, "", f"Rows written by thegame {', '.join(versions) or '-'}.", ""]


def _exact_row(g: Group) -> str:
    # Not exact: the unknowns may go either way, so the interval runs
    # from the lower end for the clears found to the upper end for the
    # clears plus the unknowns.
    lo = wilson(g.wins, g.n)[0]
    hi = wilson(g.wins + len(g.unknown), g.n)[1]
    share = (
        _pct(g.wins / g.n)
        if g.exact
        else (f"{_pct(g.wins / g.n)}-{_pct((g.wins + len(g.unknown)) / g.n)}")
    )
    return (
        f"| {g.variant} | {g.players} | {min(g.seeds)}-{max(g.seeds)} | {g.n} | {g.wins} "
        f"| {share} | {_pct(lo)}-{_pct(hi)} | {len(g.losses)} | {len(g.unknown)} "
        f"| {statistics.median(g.seconds):.3f} | {max(g.seconds):.2f} "
        f"| {_budget(g.budgets)} | {'exact' if g.exact else 'not exact'} |"
    )


def _cut(cut: Counter[float | None]) -> str:
    """How many unknowns each budget cut: ``cut by a budget: 40 at 10 s, 3 at 60 s``."""
    parts = [
        f"{n} with no budget stored" if b is None else f"{n} at {b:g} s"
        for b, n in sorted(cut.items(), key=lambda bn: (bn[0] is None, bn[0] or 0.0))
    ]
    return f"cut by a budget: {', '.join(parts)} (a rerun with --retry-unknown and a " \
        "larger --time-limit decides them again)"


def _losses_section(groups: list[Group]) -> list[str]:
    lines = ["## Proven losses and unknowns", ""]
    for g in groups:
        head = f"- {g.variant}, {plural(g.players, 'player')}: "
        if g.losses:
            items = [
                f"seed {s} ({left} left{'' if ok else ', not proven fewest'})"
                for s, left, ok in g.losses
            ]
            lines.append(head + f"{len(g.losses)} proven loss(es): " + "; ".join(items))
        else:
            lines.append(head + "no proven loss")
        if g.unknown:
            seeds = [s for s, _, _ in g.unknown]
            lines.append(f"  - unknown ({len(seeds)}): seeds {_seeds(seeds)}")
            lines.append(f"  - {_cut(g.cut)}")
    return lines


def _blind_section(groups: list[Group]) -> list[str]:
    lines = [
        "",
        "## Against the blind policy",
        "",
        "What a player who cannot see the draw pile achieves: the blind policy "
        "(`thegame.analysis.the_game.blind.play_out`, player 1 first, played by "
        "`thegame survey blind`) on the same decided seeds, beside the exact share of "
        "perfect clears on those seeds.",
        "",
        "| variant | players | games | blind wins | blind rate | 95% interval | exact clears "
        "on these seeds | published blind rate | strong blind player |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for g in groups:
        pub = PUBLISHED_BLIND.get((g.variant, g.players), "-")
        strong = _strong_cell(g)
        if g.blind_n == 0:
            lines.append(f"| {g.variant} | {g.players} | 0 | - | - | - | - | {pub} | {strong} |")
            continue
        lo, hi = wilson(g.blind_wins, g.blind_n)
        lines.append(
            f"| {g.variant} | {g.players} | {g.blind_n} | {g.blind_wins} "
            f"| {_pct(g.blind_wins / g.blind_n)} | {_pct(lo)}-{_pct(hi)} "
            f"| {_pct(g.exact_wins_on_blind_seeds / g.blind_n)} | {pub} | {strong} |"
        )
    return lines


def _strong_cell(g: Group) -> str:
    """The strong player's rate per budget (``thegame survey blind --strength
    strong``): rate, interval and games; '-' when none was played."""
    cells = []
    for (playouts, turn_time, _), (n, wins, base, paired) in sorted(g.strong.items()):
        lo, hi = wilson(wins, n)
        budget = f"{playouts} playouts" if playouts else f"{turn_time:g} s"
        # The policy on the very same seeds: a few seeds can be easier or
        # harder than the whole range.
        same = f", the policy {_pct(base / paired)} on these seeds" if paired else ""
        cells.append(f"{_pct(wins / n)} ({_pct(lo)}-{_pct(hi)}) of {n}, {budget} a turn{same}")
    return "; ".join(cells) or "-"


def _fewest_section(groups: list[Group], svg_name: str | None) -> list[str]:
    lines = ["", "## Fewest cards left", ""]
    if svg_name:
        lines += [f"![fewest cards left per deal]({svg_name})", ""]
    lines += [
        "Decided deals by the fewest cards left with the order known (0 = perfect clear), "
        "and the blind policy's cards left on the same seeds:",
        "",
        "| variant | players | exact: cards left (deals) | blind: cards left (games) |",
        "|---|---|---|---|",
    ]
    for g in groups:
        lines.append(
            f"| {g.variant} | {g.players} | {_counts(g.fewest_left)} | {_counts(g.blind_left)} |"
        )
    return lines


def _counts(c: Counter[int]) -> str:
    return ", ".join(f"{k}: {c[k]}" for k in sorted(c)) or "-"


def histogram_svg(groups: list[Group]) -> str:
    panels = [
        Panel(
            f"{g.variant}, {plural(g.players, 'player')}: "
            f"{plural(g.n - len(g.unknown), 'decided deal')}"
            + (f" ({len(g.unknown)} unknown, not shown)" if g.unknown else ""),
            g.fewest_left,
            g.blind_left,
        )
        for g in groups
    ]
    return histogram(panels)
