"""The mem0 store (`jamgate.stores` entry point `mem0`); mem0 itself is imported on `open`."""

from jamgate_adapters.stores.mem0.store import Mem0Store

__all__ = ["Mem0Store"]
