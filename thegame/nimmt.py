"""The library API of 6 nimmt!: see :mod:`thegame.api.nimmt`."""

from .api.nimmt import *  # noqa: F403
from .api.nimmt import __all__ as __all__
