"""The compiled search kernel (issue 16) as an optional C extension.

Everything else is in pyproject.toml. ``optional=True``: where no C compiler
(or no Python headers) is found, the package still installs and runs on the
pure-Python kernel (``thegame --version`` says which kernel is in use).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "thegame.solver.the_game._ckernel",
            ["thegame/solver/the_game/_ckernel.c"],
            extra_compile_args=["-O3", "-std=gnu11"],
            optional=True,
        )
    ]
)
