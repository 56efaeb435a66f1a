"""Jamgate: one memory for every agent, with a quality gate in the write path."""

__version__ = "0.1.0"
