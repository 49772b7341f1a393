"""The library's front door: one module per game, the same verbs in each.

``thegame`` re-exports :mod:`thegame.api.the_game` (The Game family) at the
top of the package; :mod:`thegame.mind`, :mod:`thegame.nimmt` and
:mod:`thegame.cento` re-export the other games' modules of this package.
Everything here is a thin wrapper over the library's own functions, so the
internal layout may move while these names stay.
"""
