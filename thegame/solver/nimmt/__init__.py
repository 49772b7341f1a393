"""6 nimmt!: the exact best response of one player to the others' recorded cards."""
