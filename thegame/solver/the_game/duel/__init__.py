"""Face to Face (rules D1-D7): the exact duel solver.

``position`` (the compact state; the only code that lists whole turns),
``search`` (the AND-OR search with a transposition table), ``race`` (each
player's race alone and the bounds from it), ``api`` (``solve_duel``,
``decide``, the replay check).
"""
