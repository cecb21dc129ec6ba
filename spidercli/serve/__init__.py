"""The HTTP service (spidercli serve), beside the command line, above the front door."""
