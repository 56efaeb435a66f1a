"""Settings: `$JAMGATE_HOME/jamgate.toml`, overridden by `JAMGATE_*` variables.

Every key of the TOML file can also come from the variable `JAMGATE_<KEY>` (upper case).
Relative paths in the file resolve against `$JAMGATE_HOME`. The predecessor's names keep
working: `JAMGATE_STORE` may be a path (`*.json` selects the `file` store, `*.db` the
`sqlite` store) and `JAMGATE_EMBEDDINGS=off` means `JAMGATE_EMBEDDER=none`.
"""

from __future__ import annotations

import json
import math
import os
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from jamgate_core.errors import ConfigError

BUILTIN = "@builtin"
# The default stage list, cheapest first; stateful stages last.
BUILTIN_STAGES: tuple[str, ...] = (
    "validation", "prefilter", "credentials", "injection", "chatter", "junk", "granularity",
    "source-strictness", "subject", "classifier", "dedup", "supersede", "near-duplicate",
    "change", "ttl",
)
# Stages that may be left out only with `allow_unsafe_stage_list = true`.
MANDATORY_STAGES: tuple[str, ...] = ("validation", "credentials")
DEFAULT_TTL_DAYS: dict[str, float | None] = {
    "identity": None, "preference": None, "project": 90.0, "state": 2.0,
}
_NEVER = {"never", "none", "off"}
_OFF = {"off", "none", "0", "false", ""}


def default_home() -> Path:
    return Path(os.environ.get("JAMGATE_HOME") or Path.home() / ".jamgate").expanduser()


# ---- the modes of what Jamgate creates (docs/security.md) ----------------------------------
# Folders Jamgate creates are 0700 and files 0600, set exactly (fchmod/chmod after creation),
# so no umask can widen or narrow them. Existing files and folders keep their mode: it is the
# user's choice, and `jamgate doctor` warns when it lets other users in.
class Settings(BaseSettings):
    """Every setting Jamgate reads. Field `x` is TOML key `x` and variable `JAMGATE_X`."""

    model_config = SettingsConfigDict(
        env_prefix="JAMGATE_", extra="forbid", case_sensitive=False, validate_default=True,
    )

    home: Path = Field(default_factory=default_home)
    store: str = "sqlite"
    store_options: dict[str, Any] = Field(default_factory=dict)
    embedder: str = "auto"
    embeddings: str | None = None
    embedder_options: dict[str, Any] = Field(default_factory=dict)
    stages: list[str] = Field(default_factory=lambda: [BUILTIN])
    stages_extra: list[str] = Field(default_factory=list)
    stage_options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    stage_errors: dict[str, Literal["fail_closed", "fail_open"]] = Field(default_factory=dict)
    allow_unsafe_stage_list: bool = False
    gate_log: str | None = None
    gate_log_max_bytes: int = Field(default=5 * 1024 * 1024, gt=0)
    ttl_identity_days: str | None = None
    ttl_preference_days: str | None = None
    ttl_project_days: str | None = None
    ttl_state_days: str | None = None
    compact_grace_days: float = Field(default=30.0, ge=0)
    review_hold_days: float = Field(default=14.0, gt=0)  # the review queue (D-155)
    # The predecessor's JAMGATE_DUP_THRESHOLD: when set, the semantic near-duplicate
    # threshold for every length (the stage's measured defaults otherwise).
    dup_threshold: float | None = Field(default=None, gt=0, le=1)
    store_timeout_seconds: float = Field(default=30.0, gt=0)
    http: bool = False
    host: str = "127.0.0.1"
    port: int | None = Field(default=None, ge=0, le=65535)
    token: str | None = Field(default=None, repr=False)
    # A comma-separated list in JAMGATE_ALLOWED_HOSTS (a JSON array also works).
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default_factory=list)
    oauth: bool = True
    http_stateless: bool = False
    http_max_body_bytes: int = Field(default=4 * 1024 * 1024, gt=0)

    @field_validator("ttl_identity_days", "ttl_preference_days", "ttl_project_days",
                     "ttl_state_days", mode="before")
    @classmethod
    def _ttl_text(cls, value: Any) -> Any:
        return None if value is None else str(value)

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _host_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlSource(settings_cls))

    # ---- derived values -------------------------------------------------------------------

    def store_choice(self) -> tuple[str, dict[str, Any]]:
        """The store plugin's name and options; a path selects `file` or `sqlite`."""
        name, options = self.store, dict(self.store_options)
        lowered = name.lower()
        if lowered.endswith(".json") or lowered.endswith(".db") or "/" in name:
            options["path"] = str(self.resolve(name))
            name = "file" if lowered.endswith(".json") else "sqlite"
        elif "path" in options:
            options["path"] = str(self.resolve(str(options["path"])))
        return name, options

    def embedder_choice(self) -> str:
        if self.embeddings is not None and self.embeddings.strip().lower() in _OFF:
            return "none"
        return self.embedder.strip().lower() or "auto"

    def resolve(self, path: str) -> Path:
        """A path from the settings: `~` expanded, relative ones under `home`."""
        candidate = Path(path).expanduser()
        return candidate if candidate.is_absolute() else self.home / candidate

    def ttl_days(self) -> dict[str, float | None]:
        """Days to live per type (None = never), defaults overridden by the settings."""
        days = dict(DEFAULT_TTL_DAYS)
        for memory_type in days:
            raw = getattr(self, f"ttl_{memory_type}_days")
            if raw is None:
                continue
            text = raw.strip().lower()
            if text in _NEVER:
                days[memory_type] = None
                continue
            try:
                value = float(text)
            except ValueError:
                value = -1.0
            if value < 0 or not math.isfinite(value):
                raise ConfigError(
                    f"ttl_{memory_type}_days = {raw!r} is not a number of days: use a "
                    "non-negative number, or 'never'."
                )
            days[memory_type] = value
        return days

    def gate_log_path(self, store_dir: Path | None) -> Path | None:
        """Where decisions are logged, or None when the log is off."""
        if self.gate_log is not None:
            if self.gate_log.strip().lower() in _OFF:
                return None
            return self.resolve(self.gate_log.strip())
        return (store_dir or self.home) / "gate.log"

    def stage_list(self) -> list[str]:
        """The configured stage names in order, `@builtin` expanded, `stages_extra` appended."""
        names: list[str] = []
        for name in [*self.stages, *self.stages_extra]:
            for expanded in (BUILTIN_STAGES if name == BUILTIN else (name,)):
                if expanded not in names:
                    names.append(expanded)
        missing = [name for name in MANDATORY_STAGES if name not in names]
        if missing and not self.allow_unsafe_stage_list:
            raise ConfigError(
                f"the stage list leaves out {', '.join(missing)}, which every gate needs. "
                f'Add "{BUILTIN}" to `stages` (or list them), or set '
                "allow_unsafe_stage_list = true if you really mean it."
            )
        return names


class _TomlSource(InitSettingsSource):
    """`$JAMGATE_HOME/jamgate.toml` (or the `home` given to Settings)."""

    def __init__(self, settings_cls: type[BaseSettings]) -> None:
        path = default_home() / "jamgate.toml"
        data: dict[str, Any] = {}
        if path.is_file():
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{path} is not valid TOML: {exc}. Fix or move it.") from exc
            except OSError as exc:
                raise ConfigError(f"cannot read {path}: {exc.strerror}.") from exc
        super().__init__(settings_cls, data)


def load_settings(**overrides: Any) -> Settings:
    """Read the settings, turning a validation failure into one ConfigError."""
    try:
        return Settings(**overrides)
    except SettingsError as exc:
        raise ConfigError(
            f"invalid settings: {exc}. A list or table from a JAMGATE_* variable is written "
            'as JSON, e.g. JAMGATE_STAGES=\'["@builtin", "my-stage"]\'.'
        ) from exc
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'settings'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ConfigError(
            f"invalid settings ({problems}). Check {default_home() / 'jamgate.toml'} "
            "and your JAMGATE_* variables."
        ) from exc
