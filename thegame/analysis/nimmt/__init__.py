"""6 nimmt!: blind players that sample the unseen cards, and the review of a played round."""
