"""The command line: its frame, options, terminal lines, help, and one module a command."""
