"""Face to Face (rules D1-D7): the exact duel solver.

``position`` (the compact state; the only code that lists whole turns),
``search`` (the depth-first AND-OR search with a transposition table: the
reference, and the pieces both searches share), ``pns`` (proof-number
search over the same pieces: what ``decide`` runs), ``race`` (each player's
race alone and the bounds from it), ``survival`` (how many more turns each
player can take, and the bounds from that), ``engine`` (Monte-Carlo tree
search over whole turns with the exact search inside: plays and estimates
any position, proves where it reaches), ``api`` (``solve_duel``,
``solve_duel_at``, ``decide``, ``engine_answer``, the replay check).
"""
