"""Logs judged: verify, tournaments, duels, record."""
