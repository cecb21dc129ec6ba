"""Text for people: messages made safe, the languages, card words, "did you mean"."""
