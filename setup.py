"""Build of the optional compiled playouts (thegame.analysis.the_game._crollout).

Everything else is in pyproject.toml. The extension is optional: without a
C compiler the install still succeeds and rollout.py uses its Python
reference.
"""

import sys

from setuptools import Extension, setup

# The playouts must add and multiply doubles exactly as Python does, so a
# multiply-add must not be fused into one rounding (GCC and Clang would do
# that on targets with FMA instructions).
_ARGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "thegame.analysis.the_game._crollout",
            sources=["thegame/analysis/the_game/_crollout.c"],
            extra_compile_args=_ARGS,
            optional=True,
        )
    ]
)
