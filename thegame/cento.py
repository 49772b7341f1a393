"""The library API of Cento (game 2): see :mod:`thegame.api.cento`."""

from .api.cento import *  # noqa: F403
from .api.cento import __all__ as __all__
