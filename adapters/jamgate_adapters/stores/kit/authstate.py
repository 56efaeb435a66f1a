"""The auth-state contract (`jamgate_core.contracts.AuthState`) for the bundled stores.

Three mixins, one per store (the first two share the contract's operations on `AuthTables`,
`TablesAuthState`, and differ in how the tables are kept):

- `MemoryAuthState`: dicts behind a lock (gone with the process, like the memory store).
- `SidecarAuthState`: the file store's sidecar `<store stem>.oauth.json` beside the store,
  mode 0600, changed under its own cross-process lock and replaced atomically.
- `SqliteAuthState`: the `oauth_clients` and `oauth_secrets` tables (schema v3), each
  operation one transaction, so instances sharing the database share the state.

Only hashes of codes and tokens are ever handed to these classes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from jamgate_adapters.stores.kit.files import atomic_write, read_only_problem
from jamgate_adapters.stores.kit.locking import FileLock
from jamgate_core.contracts import AuthSecret, SecretKind
from jamgate_core.errors import StoreCorrupt, StoreUnavailable
from jamgate_core.files import PRIVATE_FILE_MODE

T = TypeVar("T")
SIDECAR_VERSION = 1
_FIELDS = ("kind", "key", "client_id", "grant_id", "expires_at", "data", "revoked_at")


@dataclasses.dataclass
class AuthTables:
    """The state as plain dicts, and the operations of the contract on them."""

    clients: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    secrets: dict[str, AuthSecret] = dataclasses.field(default_factory=dict)

    def save_client(self, client_id: str, document: str, now: float) -> None:
        self.clients[client_id] = {"document": document, "created_at": now, "authorized": False}

    def client(self, client_id: str) -> str | None:
        found = self.clients.get(client_id)
        return None if found is None else str(found["document"])

    def put(self, secret: AuthSecret) -> None:
        self.secrets[f"{secret.kind}:{secret.key}"] = secret
        if secret.kind == "code" and secret.client_id in self.clients:
            self.clients[secret.client_id]["authorized"] = True

    def get(self, kind: SecretKind, key: str) -> AuthSecret | None:
        return self.secrets.get(f"{kind}:{key}")

    def take(self, kind: SecretKind, key: str, now: float) -> AuthSecret | None:
        found = self.secrets.get(f"{kind}:{key}")
        if found is not None and found.revoked_at is None:
            self.secrets[f"{kind}:{key}"] = dataclasses.replace(found, revoked_at=now)
        return found

    def revoke_grant(self, grant_id: str, now: float) -> int:
        hits = [k for k, s in self.secrets.items()
                if s.grant_id == grant_id and s.revoked_at is None]
        for name in hits:
            self.secrets[name] = dataclasses.replace(self.secrets[name], revoked_at=now)
        return len(hits)

    def prune(self, now: float, unused_client_seconds: float) -> int:
        gone = [k for k, s in self.secrets.items() if s.expires_at < now]
        for name in gone:
            del self.secrets[name]
        unused = [c for c, row in self.clients.items()
                  if not row["authorized"] and row["created_at"] < now - unused_client_seconds]
        for client_id in unused:
            del self.clients[client_id]
        return len(gone) + len(unused)

    # ---- the sidecar's JSON ----------------------------------------------------------------

    def dumps(self) -> bytes:
        body = {"version": SIDECAR_VERSION, "clients": self.clients,
                "secrets": [dataclasses.asdict(s) for s in self.secrets.values()]}
        return (json.dumps(body, ensure_ascii=False, indent=1) + "\n").encode("utf-8")

    @classmethod
    def loads(cls, data: bytes, path: Path) -> AuthTables:
        if not data.strip():
            return cls()
        try:
            body = json.loads(data)
            if body.get("version") != SIDECAR_VERSION:
                raise ValueError(f"unknown version {body.get('version')!r}")
            secrets = [AuthSecret(**{k: row[k] for k in _FIELDS}) for row in body["secrets"]]
            clients = {str(k): dict(v) for k, v in body["clients"].items()}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreCorrupt(
                f"the OAuth state file {path} cannot be read ({exc}). Your memories are not "
                "affected. Move it aside (agents connected with OAuth then sign in again) "
                "and restart."
            ) from exc
        return cls(clients=clients, secrets={f"{s.kind}:{s.key}": s for s in secrets})


# ---- the contract over `AuthTables` (memory and file stores) -------------------------------

class TablesAuthState:
    """The contract's operations on `AuthTables`; a subclass says how the tables are read
    (`_auth_read`) and changed (`_auth_write`)."""

    def _auth_read(self, look: Callable[[AuthTables], T]) -> T:
        raise NotImplementedError

    def _auth_write(self, change: Callable[[AuthTables], T]) -> T:
        raise NotImplementedError

    def oauth_save_client(self, client_id: str, document: str, now: float) -> None:
        self._auth_write(lambda t: t.save_client(client_id, document, now))

    def oauth_client(self, client_id: str) -> str | None:
        return self._auth_read(lambda t: t.client(client_id))

    def oauth_put(self, secret: AuthSecret) -> None:
        self._auth_write(lambda t: t.put(secret))

    def oauth_get(self, kind: SecretKind, key: str) -> AuthSecret | None:
        return self._auth_read(lambda t: t.get(kind, key))

    def oauth_take(self, kind: SecretKind, key: str, now: float) -> AuthSecret | None:
        return self._auth_write(lambda t: t.take(kind, key, now))

    def oauth_revoke_grant(self, grant_id: str, now: float) -> int:
        return self._auth_write(lambda t: t.revoke_grant(grant_id, now))

    def oauth_prune(self, now: float, unused_client_seconds: float) -> int:
        return self._auth_write(lambda t: t.prune(now, unused_client_seconds))


# ---- the memory store ---------------------------------------------------------------------

_CREATE = threading.Lock()


class MemoryAuthState(TablesAuthState):
    """The contract over in-process dicts."""

    def _auth_write(self, change: Callable[[AuthTables], T]) -> T:
        with _CREATE:
            held = self.__dict__.setdefault("_auth_state", (threading.Lock(), AuthTables()))
        lock, tables = held
        with lock:
            return change(tables)

    def _auth_read(self, look: Callable[[AuthTables], T]) -> T:
        return self._auth_write(look)


# ---- the file store -----------------------------------------------------------------------

def sidecar_path(store: Path) -> Path:
    """`memory.json` → `memory.oauth.json`, in the same folder."""
    return store.with_name(f"{store.stem}.oauth.json")


class SidecarAuthState(TablesAuthState):
    """The contract in a JSON file beside the store (mode 0600, atomic replace, locked)."""

    path: Path

    def _sidecar(self) -> Path:
        return sidecar_path(self.path)

    def _read_tables(self) -> AuthTables:
        target = self._sidecar()
        try:
            data = target.read_bytes()
        except FileNotFoundError:
            return AuthTables()
        return AuthTables.loads(data, target)

    def _auth_read(self, look: Callable[[AuthTables], T]) -> T:
        return look(self._read_tables())

    def _auth_write(self, change: Callable[[AuthTables], T]) -> T:
        def changed() -> tuple[T, bytes]:
            tables = self._read_tables()
            result = change(tables)
            return result, tables.dumps()
        return change_sidecar(self._sidecar(), lock_timeout(self), "the OAuth state", changed)


def lock_timeout(store: object) -> float:
    """A store's `lock_timeout_seconds` option, else 30 s."""
    return float(getattr(getattr(store, "options", None), "lock_timeout_seconds", 30.0))


def change_sidecar(target: Path, timeout: float, what: str,
                   change: Callable[[], tuple[T, bytes]]) -> T:
    """Change a private JSON sidecar under its cross-process lock: `change()` reads it and
    returns (result, the new bytes), which replace the file atomically (mode 0600)."""
    with FileLock(target, timeout):
        problem = read_only_problem(target)
        if problem is not None:
            raise StoreUnavailable(f"cannot change {what}: {problem}. Nothing was "
                                   f"modified. Make it writable (chmod 600 {target}).")
        result, data = change()
        atomic_write(target, data)
        with contextlib.suppress(OSError):
            os.chmod(target, PRIVATE_FILE_MODE)
    return result


# ---- the sqlite store ---------------------------------------------------------------------

_SECRET_COLUMNS = ", ".join(_FIELDS)


def _secret(row: sqlite3.Row | None) -> AuthSecret | None:
    if row is None:
        return None
    return AuthSecret(kind=row["kind"], key=row["key"], client_id=row["client_id"],
                      grant_id=row["grant_id"], expires_at=row["expires_at"], data=row["data"],
                      revoked_at=row["revoked_at"])


class SqliteAuthState:
    """The contract over the `oauth_clients` and `oauth_secrets` tables."""

    if TYPE_CHECKING:
        def _db(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

        def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    def oauth_save_client(self, client_id: str, document: str, now: float) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO oauth_clients (client_id, document, created_at, "
                         "authorized) VALUES (?, ?, ?, 0)", (client_id, document, now))

    def oauth_client(self, client_id: str) -> str | None:
        with self._db() as conn:
            row = conn.execute("SELECT document FROM oauth_clients WHERE client_id = ?",
                               (client_id,)).fetchone()
        return None if row is None else str(row[0])

    def oauth_put(self, secret: AuthSecret) -> None:
        with self._transaction() as conn:
            conn.execute(f"INSERT INTO oauth_secrets ({_SECRET_COLUMNS}) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         tuple(getattr(secret, name) for name in _FIELDS))
            if secret.kind == "code":
                conn.execute("UPDATE oauth_clients SET authorized = 1 WHERE client_id = ?",
                             (secret.client_id,))

    def oauth_get(self, kind: SecretKind, key: str) -> AuthSecret | None:
        with self._db() as conn:
            return _secret(conn.execute(
                f"SELECT {_SECRET_COLUMNS} FROM oauth_secrets WHERE key = ? AND kind = ?",
                (key, kind)).fetchone())

    def oauth_take(self, kind: SecretKind, key: str, now: float) -> AuthSecret | None:
        with self._transaction() as conn:
            found = _secret(conn.execute(
                f"SELECT {_SECRET_COLUMNS} FROM oauth_secrets WHERE key = ? AND kind = ?",
                (key, kind)).fetchone())
            if found is not None and found.revoked_at is None:
                conn.execute("UPDATE oauth_secrets SET revoked_at = ? WHERE key = ? AND kind = ?",
                             (now, key, kind))
        return found

    def oauth_revoke_grant(self, grant_id: str, now: float) -> int:
        with self._transaction() as conn:
            return conn.execute("UPDATE oauth_secrets SET revoked_at = ? WHERE grant_id = ? "
                                "AND revoked_at IS NULL", (now, grant_id)).rowcount

    def oauth_prune(self, now: float, unused_client_seconds: float) -> int:
        with self._transaction() as conn:
            gone = conn.execute("DELETE FROM oauth_secrets WHERE expires_at < ?", (now,)).rowcount
            gone += conn.execute(
                "DELETE FROM oauth_clients WHERE authorized = 0 AND created_at < ?",
                (now - unused_client_seconds,)).rowcount
        return gone
