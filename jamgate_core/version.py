"""The version of the jamgate distribution."""

__version__ = "0.1.0"
