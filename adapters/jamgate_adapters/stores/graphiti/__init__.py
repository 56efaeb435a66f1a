"""The Graphiti store (`jamgate.stores` entry point `graphiti`); graphiti-core is imported on
`open`."""

from jamgate_adapters.stores.graphiti.store import GraphitiStore

__all__ = ["GraphitiStore"]
