"""The supabase store (`jamgate.stores` entry point `supabase`) and its `jamgate supabase`
command (`jamgate.plugins` entry point `supabase` = the `cli` module).

`SupabaseStore` loads on first use: every start imports `cli` (a plugin), which must not pull
the store and its dependencies in with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jamgate_adapters.stores.supabase.store import SupabaseStore, migration_sql

__all__ = ["SupabaseStore", "migration_sql"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from jamgate_adapters.stores.supabase import store

        value = getattr(store, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
