"""A log played: its types, the refusals' sentences, the replay and its report."""
