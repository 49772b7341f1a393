"""The optional compiled kernels, as C extensions (everything else is in
pyproject.toml):

- ``thegame.solver.the_game._ckernel``: the search kernel, from the files of
  ``thegame/solver/the_game/csrc/`` (kernel, memo, turns, search, bindings);
- ``thegame.analysis.the_game._crollout``: the blind policy's playouts, from
  ``thegame/analysis/the_game/csrc/`` (blind policy, turn cycle, bindings);
- ``thegame.solver.the_game.duel._cduel``: the duel search's node expansion
  and its proof-number search, from ``thegame/solver/the_game/duel/csrc/``
  (turns, expansion, df-pn, bindings);
- ``thegame.analysis.nimmt._cplayout``: the 6 nimmt! players' playouts;
- ``thegame.solver.cento._ctable``: the Cento table search (turns and
  df-pn), from ``thegame/solver/cento/csrc/`` (needs a 128-bit integer type:
  GCC or Clang).

The first three include the shared headers of ``thegame/csrc/`` (card
masks and placement, hash tables); docs/c-kernels.md describes the layout.
All are ``optional=True``: where no C compiler (or no Python headers) is
found, the package still installs and runs on the pure-Python reference
kernels (``thegame --version`` says which are in use).
"""

import platform
import sys
from glob import glob

from setuptools import Extension, setup

SHARED = "thegame/csrc"
KERNEL = "thegame/solver/the_game/csrc"
ROLLOUT = "thegame/analysis/the_game/csrc"
DUEL = "thegame/solver/the_game/duel/csrc"
CENTO = "thegame/solver/cento/csrc"

# -fvisibility=hidden: each extension's functions are called across its
# files; hidden, they bind inside the module (no interposition, no PLT call),
# and only its PyInit_ function (PyMODINIT_FUNC marks it) is exported. The C
# compiles clean with -Wall -Wextra.
common = ["-std=gnu11", "-fvisibility=hidden", "-Wall", "-Wextra"]
kernel_flags = ["-O3", *common]
# The hardware popcount (every x86-64 CPU since 2008): card counts are the
# searches' most frequent operation (about 10% faster; without it the
# playouts call a library routine, a third of their time). Each module
# refuses to load on a CPU without it.
popcnt = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []
kernel_flags += popcnt

# The playouts must add and multiply doubles exactly as Python does, so a
# multiply-add must not be fused into one rounding (GCC and Clang would do
# that on targets with FMA instructions).
rollout_flags = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off", *common, *popcnt]

shared_headers = sorted(glob(f"{SHARED}/*.h"))

setup(
    ext_modules=[
        Extension(
            "thegame.solver.the_game._ckernel",
            sources=sorted(glob(f"{KERNEL}/*.c")),
            include_dirs=[SHARED, KERNEL],
            depends=shared_headers + sorted(glob(f"{KERNEL}/*.h")),
            extra_compile_args=kernel_flags,
            optional=True,
        ),
        Extension(
            "thegame.analysis.the_game._crollout",
            sources=sorted(glob(f"{ROLLOUT}/*.c")),
            include_dirs=[SHARED, ROLLOUT],
            depends=shared_headers + sorted(glob(f"{ROLLOUT}/*.h")),
            extra_compile_args=rollout_flags,
            optional=True,
        ),
        Extension(
            "thegame.solver.the_game.duel._cduel",
            sources=sorted(glob(f"{DUEL}/*.c")),
            include_dirs=[SHARED, DUEL],
            depends=shared_headers + sorted(glob(f"{DUEL}/*.h")),
            extra_compile_args=kernel_flags,
            optional=True,
        ),
        Extension(
            "thegame.solver.cento._ctable",
            sources=sorted(glob(f"{CENTO}/*.c")),
            include_dirs=[SHARED, CENTO],
            depends=shared_headers + sorted(glob(f"{CENTO}/*.h")),
            extra_compile_args=kernel_flags,
            optional=True,
        ),
        Extension(
            "thegame.analysis.nimmt._cplayout",
            sources=["thegame/analysis/nimmt/_cplayout.c"],
            include_dirs=[SHARED],
            depends=shared_headers,
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            optional=True,
        ),
    ]
)
