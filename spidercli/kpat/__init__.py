"""Other programs' files: KDE KPatience's saved games."""
