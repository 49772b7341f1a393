"""``thegame serve``: the daily puzzle, real games, the solver and the review
in a browser, on the same library the command line uses."""
