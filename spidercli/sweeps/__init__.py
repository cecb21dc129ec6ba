"""Many deals solved, and the table they settle."""
