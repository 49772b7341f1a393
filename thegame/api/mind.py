"""The Mind (rules M1-M6) for programs: deals, level records, the gap model,
exact odds and the best star policy.

    >>> from thegame import mind
    >>> deal = mind.Deal.from_seed(1, players=3, level=4)
    >>> [mind.solve(deal, tolerance=d).lives_lost for d in (1, 6, 14)]
    [0, 1, 2]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..models.check import CheckResult
from ..models.jsonio import load_json
from ..models.mind import HIGH, State
from ..models.mind import Deal as LevelDeal
from ..models.mind import Record as LevelRecord
from ..models.mind import Rules as MindRules
from ..models.mind import check as check_level

if TYPE_CHECKING:
    from ..analysis.mind.analyze import LevelAnalysis
    from ..solver.mind.campaign import CampaignSolution
    from ..solver.mind.gap import GapResult
    from ..solver.mind.odds import LevelOdds

__all__ = ["Deal", "Odds", "Record", "analyze", "check", "load", "odds", "solve"]

Deal = LevelDeal
"""One level's deal: ``Deal.from_seed(seed, players, level)`` (rule M2)."""

Record = LevelRecord
"""A level's deal and its events (cards laid, stars thrown)."""


def load(path: str | Path) -> LevelRecord:
    """A level record from a JSON file (what ``thegame mind check`` reads)."""
    return LevelRecord.from_dict(load_json(Path(path).read_text(encoding="utf-8-sig"), str(path)))


def check(record: LevelRecord) -> CheckResult[State]:
    """Replay a level record: legal or not, lives lost, cards discarded (M2-M4)."""
    return check_level(record)


def solve(deal: LevelDeal, tolerance: int, *, star: bool = False) -> GapResult:
    """The level played under the gap model with tolerance ``tolerance`` (rule
    M6), with one star at the start when ``star``: its events and collisions."""
    from ..solver.mind.gap import check_tolerance, play_gap

    check_tolerance(tolerance)
    return play_gap(deal, tolerance, star)


@dataclass(frozen=True)
class Odds:
    """Exact odds of a whole campaign under the gap model (``thegame mind odds``)."""

    levels: dict[int, tuple[LevelOdds, LevelOdds]]
    """Per level: the lives-lost distribution without and with a star."""
    campaign: CampaignSolution
    """The chance to win with the best star policy and without stars, and the policy."""


def odds(players: int, tolerance: int, *, high: int = HIGH) -> Odds:
    """Every level's exact odds and the best star policy for ``players`` (M1, M5, M6)."""
    from ..solver.mind.campaign import solve_campaign
    from ..solver.mind.gap import check_tolerance
    from ..solver.mind.odds import campaign_odds

    check_tolerance(tolerance)
    rules = MindRules(players, high)
    levels = campaign_odds(rules, tolerance)
    tables = {n: (a.probabilities(), b.probabilities()) for n, (a, b) in levels.items()}
    return Odds(levels, solve_campaign(rules, tables))


def analyze(record: LevelRecord, tolerances: tuple[int, ...] = (2, 3, 5)) -> LevelAnalysis:
    """Each life lost in a level (who laid too early, what was discarded), and
    what a star at the start would have saved under the gap model."""
    from ..analysis.mind.analyze import analyze_level

    return analyze_level(record, tolerances)
