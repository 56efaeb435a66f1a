"""The SQLite store, the default (`jamgate.stores` entry point `sqlite`)."""

from jamgate_adapters.stores.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
