"""Helpers shared by the tests: references, deals and drivers, one module a
concern, imported as ``tests.support.<module>`` (never from a test module).

- ``the_game``: rule presets, hand-made deals, the independent legality
  oracle and the random playout driver for The Game family (duel included);
- ``brute``: the engine-only brute forces (perfect clear, fewest cards left)
  and the checks of a solver's answer against them;
- ``deals``: random small deals (hypothesis strategies and seeded ones);
- ``kernels``: walks and path counts that hold a search kernel against the
  rules engine (and the compiled kernel against the Python one);
- ``duel_brute``: the engine-only minimax of a duel;
- ``nimmt``: random 6 nimmt! players and records;
- ``cli``: running ``thegame`` in-process.
"""

from __future__ import annotations

from pathlib import Path

# tests/data: the pinned inputs and golden files
DATA = Path(__file__).resolve().parent.parent / "data"
