"""The library API of The Mind: see :mod:`thegame.api.mind`."""

from .api.mind import *  # noqa: F403
from .api.mind import __all__ as __all__
