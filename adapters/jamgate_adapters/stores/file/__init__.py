"""The JSON file store (`jamgate.stores` entry point `file`)."""

from jamgate_adapters.stores.file.store import FileStore

__all__ = ["FileStore"]
