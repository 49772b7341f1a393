"""rl-6-nimmt's MCSAgent behind a pipe, for ``nimmt_peer.py``.

Run by ``nimmt_peer.py`` with the Python of the peer's own virtual
environment (torch, numpy below 1.24, gym, numba: see the peers' README),
never imported by the package. The peer's code runs unmodified: its
observation is built by its own environment (``SechsNimmtEnv``), its card by
``MCSAgent`` called as its ``GameSession`` calls it, and its row, when its card
is below every row, by its environment's own rule (``_pick_row_to_replace``).

One JSON object a line on stdin, one answer a line on stdout. Cards are
1..104 on the pipe and 0..103 inside the peer.

- ``{"op": "game", "seed": S, "players": N, "mc_max": M, "seats": [..]}``:
  a fresh agent for each seat listed, numpy seeded with S.
- ``{"op": "card", "seat": P, "hand": [..], "rows": [[..], ..]}``:
  ``{"card": C, "cpu": seconds of CPU the agent spent}``.
- ``{"op": "row", "seat": P, "rows": [[..], ..]}``: ``{"row": R, "cpu": seconds}``
  (R 0-based).
"""

from __future__ import annotations

import json
import os
import sys
import time
import warnings
from typing import Any

# The peer is written for numpy 1.23 (np.int): keep its deprecation notes off stderr.
warnings.simplefilter("ignore")
sys.path.insert(0, os.environ.get("NIMMT_PEER", "/work/shared/peers/rl-6-nimmt"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from rl_6_nimmt.agents import MCSAgent  # noqa: E402
from rl_6_nimmt.env import SechsNimmtEnv  # noqa: E402

torch.set_num_threads(1)


def _env(players: int, hand: list[int], rows: list[list[int]]) -> SechsNimmtEnv:
    """The peer's environment set to this seat's hand and the rows (0-based)."""
    env = SechsNimmtEnv(players, verbose=False)
    hands = [[c - 1 for c in hand]] + [[] for _ in range(players - 1)]
    env.reset_to([[c - 1 for c in row] for row in rows], hands)
    return env


class Bridge:
    def __init__(self) -> None:
        self.agents: dict[int, Any] = {}
        self.players = 0

    def game(self, msg: dict[str, Any]) -> dict[str, Any]:
        np.random.seed(msg["seed"] % (1 << 32))
        self.players = msg["players"]
        self.agents = {}
        for seat in msg["seats"]:
            agent = MCSAgent(env=SechsNimmtEnv(self.players, verbose=False), mc_max=msg["mc_max"])
            self.agents[seat] = agent.to(torch.device("cpu"), torch.float)
        return {"ok": True}

    def card(self, msg: dict[str, Any]) -> dict[str, Any]:
        env = _env(self.players, msg["hand"], msg["rows"])
        states, legal = env._create_states()
        state = torch.tensor(states[0]).to(torch.device("cpu"), torch.float)
        start = time.process_time()
        tries = 0
        while True:
            tries += 1
            try:
                action, _ = self.agents[msg["seat"]](state, legal_actions=legal[0])
                break
            except IndexError:
                # Its log line reads the first rollout of every card, so a
                # card that drew none (few rollouts, many cards) raises: ask
                # again, as a fresh decision, and count the CPU of both.
                if tries == 100:
                    raise
        cpu = time.process_time() - start
        return {"card": int(action) + 1, "cpu": cpu, "tries": tries}

    def row(self, msg: dict[str, Any]) -> dict[str, Any]:
        start = time.process_time()
        env = _env(self.players, [], msg["rows"])
        row = int(env._pick_row_to_replace())
        return {"row": row, "cpu": time.process_time() - start}


def main() -> None:
    bridge = Bridge()
    for line in sys.stdin:
        msg = json.loads(line)
        answer = getattr(bridge, msg["op"])(msg)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
