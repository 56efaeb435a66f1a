"""The in-process memory store (`jamgate.stores` entry point `memory`)."""

from jamgate_adapters.stores.memory.store import MemoryStore

__all__ = ["MemoryStore"]
