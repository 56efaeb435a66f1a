"""The limits of HTTP mode: timeouts, the connection cap, rate limits and the wrong-token throttle.

Every limit has a default and a `JAMGATE_HTTP_*` variable (read when the server starts):

- `JAMGATE_HTTP_HEADER_TIMEOUT_SECONDS` (10): a connection must finish its request headers this
  long after it opens or after its previous response, else it is closed (408 if it began one);
- `JAMGATE_HTTP_BODY_TIMEOUT_SECONDS` (30): a body must arrive whole this long after its
  headers (408);
- `JAMGATE_HTTP_KEEPALIVE_TIMEOUT_SECONDS` (5): an idle keep-alive connection is closed;
- `JAMGATE_HTTP_MAX_CONNECTIONS` (256): open connections at most; at the cap the one waiting
  longest for its headers is closed to make room, 503 when every one is busy;
- `JAMGATE_HTTP_AUTH_FREE_FAILURES` (10): wrong tokens per client address before its wrong
  tokens are answered 429, for 1 s doubling up to `JAMGATE_HTTP_AUTH_LOCKOUT_MAX_SECONDS` (300);
- `JAMGATE_HTTP_REGISTER_BURST` (10) and `JAMGATE_HTTP_REGISTER_PER_HOUR` (30): OAuth client
  registrations per client address (ten times both over all addresses), then 429;
- `JAMGATE_HTTP_REGISTER_MAX_PENDING` (200): registered clients that never signed in kept per
  instance; a registration beyond it evicts the oldest.

The throttles key on the client address as uvicorn reports it (the `X-Forwarded-For` of a
trusted proxy, `FORWARDED_ALLOW_IPS`, 127.0.0.1 by default); an IPv6 address counts by its /64.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from jamgate_core.errors import ConfigError

if TYPE_CHECKING:  # the HTTP stack is imported in HTTP mode only (`serve --help` reads this)
    from starlette.types import Scope

ENV_PREFIX = "JAMGATE_HTTP_"
# Addresses remembered by one rate limiter or throttle; the least recently seen go first.
MAX_TRACKED = 10_000
Clock = Callable[[], float]


class HttpLimits(BaseSettings):
    """The limits, from `JAMGATE_HTTP_*` variables or given directly (tests, embedding)."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore",
                                      case_sensitive=False, frozen=True)

    header_timeout_seconds: float = Field(default=10.0, gt=0)
    body_timeout_seconds: float = Field(default=30.0, gt=0)
    keepalive_timeout_seconds: int = Field(default=5, ge=1)
    max_connections: int = Field(default=256, ge=8)
    auth_free_failures: int = Field(default=10, ge=1)
    auth_lockout_max_seconds: float = Field(default=300.0, gt=0)
    register_burst: int = Field(default=10, ge=1)
    register_per_hour: float = Field(default=30.0, gt=0)
    register_max_pending: int = Field(default=200, ge=1)

    @classmethod
    def load(cls, **overrides: object) -> HttpLimits:
        """The limits from the environment; ConfigError naming the variable when one is bad."""
        try:
            return cls(**overrides)  # type: ignore[arg-type]
        except ValidationError as exc:
            problems = "; ".join(
                f"{ENV_PREFIX}{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
                for err in exc.errors())
            raise ConfigError(f"invalid HTTP limits ({problems}).") from exc


def describe_limits() -> str:
    """The variables and their defaults, one per line (for `jamgate serve --help`)."""
    lines = []
    for name, field in HttpLimits.model_fields.items():
        lines.append(f"  {ENV_PREFIX}{name.upper()}={field.default:g}")
    return "\n".join(lines)


# ---- the client address -----------------------------------------------------------------------

def client_key(scope: Scope) -> str:
    """Who a request counts against: the client's IP address, an IPv6 one by its /64."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


# ---- a token bucket per address -----------------------------------------------------------------

@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """`burst` requests per key at once, refilled at `per_hour`; `take` says how long to wait."""

    def __init__(self, burst: int, per_hour: float, clock: Clock = time.monotonic) -> None:
        self.burst = float(burst)
        self.rate = per_hour / 3600.0
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def take(self, key: str) -> float:
        """0 when a request is allowed now (and counted), else the seconds until one is."""
        now = self.clock()
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        self._buckets[key] = bucket
        while len(self._buckets) > MAX_TRACKED:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


# ---- wrong tokens -------------------------------------------------------------------------------

@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class FailureThrottle:
    """Wrong credentials per address: after `free` of them, each further one locks the address
    for 1 s, 2 s, 4 s … up to `maximum`. While locked, a wrong credential is answered 429 at
    once; the right one is never looked at here, so it is never slowed. An address quiet for
    twice `maximum` starts again from zero."""

    def __init__(self, free: int, maximum: float, clock: Clock = time.monotonic) -> None:
        self.free = free
        self.maximum = maximum
        self.clock = clock
        self._seen: OrderedDict[str, _Failures] = OrderedDict()

    def _entry(self, key: str, now: float) -> _Failures:
        entry = self._seen.pop(key, None)
        if entry is None or now - entry.last > 2 * self.maximum:
            entry = _Failures()
        self._seen[key] = entry
        while len(self._seen) > MAX_TRACKED:
            self._seen.popitem(last=False)
        return entry

    def locked(self, key: str) -> float:
        """Seconds the address stays locked (0 when it is not)."""
        entry = self._seen.get(key)
        if entry is None:
            return 0.0
        return max(0.0, entry.locked_until - self.clock())

    def fail(self, key: str) -> tuple[float, bool]:
        """Count a wrong credential: (seconds now locked, whether this one started a lockout)."""
        now = self.clock()
        entry = self._entry(key, now)
        was_locked = entry.locked_until > now
        entry.count += 1
        entry.last = now
        if entry.count > self.free:
            exponent = min(entry.count - self.free - 1, 30)
            entry.locked_until = max(entry.locked_until,
                                     now + min(self.maximum, 2.0 ** exponent))
        remaining = max(0.0, entry.locked_until - now)
        return remaining, remaining > 0 and not was_locked


def retry_after(seconds: float) -> str:
    """A `Retry-After` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
