"""The `AuthState` contract over the `jamgate_oauth_*` tables of a Supabase store.

Every instance sharing the database sees the same clients and secret hashes, so a token
issued through one instance works on the others and a revocation anywhere is honoured
everywhere. Single-use (`oauth_take`) is one RPC transaction with a row lock.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from jamgate_core.contracts import AuthSecret, SecretKind

_SECRETS = "jamgate_oauth_secrets"
_CLIENTS = "jamgate_oauth_clients"


def _secret(row: dict[str, Any] | None) -> AuthSecret | None:
    if row is None:
        return None
    return AuthSecret(kind=row["kind"], key=row["key"], client_id=row["client_id"],
                      grant_id=row["grant_id"], expires_at=float(row["expires_at"]),
                      data=row["data"],
                      revoked_at=None if row["revoked_at"] is None else float(row["revoked_at"]))


class SupabaseAuthState:
    """OAuth clients and secret hashes in Postgres, through PostgREST."""

    if TYPE_CHECKING:
        def _rpc(self, name: str, params: dict[str, Any]) -> Any: ...

        def _run(self, call: Any, what: str) -> Any: ...

    def oauth_save_client(self, client_id: str, document: str, now: float) -> None:
        row = {"client_id": client_id, "document": document, "created_at": now,
               "authorized": False}
        self._run(lambda c: c.table(_CLIENTS).upsert(row).execute(), "oauth_save_client")

    def oauth_client(self, client_id: str) -> str | None:
        rows = self._run(lambda c: c.table(_CLIENTS).select("document")
                         .eq("client_id", client_id).execute().data, "oauth_client")
        return str(rows[0]["document"]) if rows else None

    def oauth_put(self, secret: AuthSecret) -> None:
        self._rpc("jamgate_oauth_put", {"p_secret": asdict(secret)})

    def oauth_get(self, kind: SecretKind, key: str) -> AuthSecret | None:
        rows = self._run(lambda c: c.table(_SECRETS).select("*").eq("kind", kind)
                         .eq("key", key).execute().data, "oauth_get")
        return _secret(rows[0] if rows else None)

    def oauth_take(self, kind: SecretKind, key: str, now: float) -> AuthSecret | None:
        rows = self._rpc("jamgate_oauth_take", {"p_kind": kind, "p_key": key, "p_now": now})
        return _secret(rows[0] if rows else None)

    def oauth_revoke_grant(self, grant_id: str, now: float) -> int:
        return int(self._rpc("jamgate_oauth_revoke_grant", {"p_grant": grant_id, "p_now": now})
                   or 0)

    def oauth_prune(self, now: float, unused_client_seconds: float) -> int:
        return int(self._rpc("jamgate_oauth_prune",
                             {"p_now": now, "p_unused": unused_client_seconds}) or 0)
