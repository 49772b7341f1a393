"""6 nimmt! (rules S1-S6): cards, rows, the seeded deal, round records and the referee."""
