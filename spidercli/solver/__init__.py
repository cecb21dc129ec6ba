"""The solver: the search, the beam pass, proofs, locks, bounds, lines and hints."""
