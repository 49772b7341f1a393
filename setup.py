"""The optional compiled kernels, as C extensions (everything else is in
pyproject.toml):

- ``thegame.solver.the_game._ckernel``: the search kernel, from the files of
  ``thegame/solver/the_game/csrc/`` (the plain C core: kernel, extreme,
  memo, turns, search, finish; and its CPython binding: core, module; the
  same core is built to WebAssembly by ``thegame/web/build-wasm.sh``, whose
  ``solver.wasm`` ships built);
- ``thegame.analysis.the_game._crollout``: the blind policy's playouts, from
  ``thegame/analysis/the_game/csrc/`` (blind policy, turn cycle, bindings);
- ``thegame.solver.the_game.duel._cduel``: the duel search's node expansion
  and its proof-number search, from ``thegame/solver/the_game/duel/csrc/``
  (turns, expansion, df-pn, bindings);
- ``thegame.analysis.nimmt._cplayout``: the 6 nimmt! players' playouts;
- ``thegame.solver.cento._ctable``: the Cento table search (turns and
  df-pn), from ``thegame/solver/cento/csrc/`` (needs a 128-bit integer type:
  GCC or Clang).

The first four include the shared headers of ``thegame/csrc/`` (card
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
# that on targets with FMA instructions). -O3 never reorders them either
# (only -ffast-math would): it unrolls the score's loops, about 5% fewer
# instructions than -O2.
rollout_flags = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off", *common, *popcnt]

shared_headers = sorted(glob(f"{SHARED}/*.h"))


def kernel(name: str, folder: str, flags: list[str]) -> Extension:
    """An optional extension built from every C file of ``folder``, with the
    shared headers."""
    return Extension(
        name,
        sources=sorted(glob(f"{folder}/*.c")),
        include_dirs=[SHARED, folder],
        depends=shared_headers + sorted(glob(f"{folder}/*.h")),
        extra_compile_args=flags,
        optional=True,
    )


setup(
    ext_modules=[
        kernel("thegame.solver.the_game._ckernel", KERNEL, kernel_flags),
        kernel("thegame.analysis.the_game._crollout", ROLLOUT, rollout_flags),
        kernel("thegame.solver.the_game.duel._cduel", DUEL, kernel_flags),
        kernel("thegame.solver.cento._ctable", CENTO, kernel_flags),
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
