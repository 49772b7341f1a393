"""The Game: Extreme (rules X1-X6), 1-5 players: the search's Extreme parts.

``kernel`` (``ExtremeKernel``: the classic kernel taught the commands; the
reference for the compiled kernel's Extreme mode), ``beam``
(``ExtremeBeamSearcher``: the beam over whole turns, then the complete
search, and its settings).
"""
