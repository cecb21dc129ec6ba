"""The engine and its deals: cards, game codes, rulesets, the position, actions."""
