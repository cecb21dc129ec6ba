"""Logs read and written, and files: the YAML readers, the deal: block, the schemas."""
