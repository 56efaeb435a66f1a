"""Jamgate: one memory for every agent, with a quality gate in the write path.

This module is the public API: everything a stage, store, embedder, format or hook plugin may
import is named in `__all__` and importable from here (`from jamgate_core import BaseStage,
StageResult`). Names load on first use, so importing the package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from jamgate_core.version import __version__

_HOMES: dict[str, str] = {
    "ExportMeta": "jamgate_core.formats",
    "Format": "jamgate_core.formats",
    "MalformedFile": "jamgate_core.formats",
    "Reading": "jamgate_core.formats",
    "Application": "jamgate_core.contracts",
    "Register": "jamgate_core.contracts",
    "hookimpl": "jamgate_core.hookspecs",
    "BaseStage": "jamgate_core.stage",
    "EMBEDDER": "jamgate_core.stage",
    "Stage": "jamgate_core.stage",
    "StageContext": "jamgate_core.stage",
    "StoreView": "jamgate_core.stage",
    "Candidate": "jamgate_core.models",
    "ClientInfo": "jamgate_core.models",
    "MemoryRecord": "jamgate_core.models",
    "MemoryType": "jamgate_core.models",
    "Related": "jamgate_core.models",
    "SaveRequest": "jamgate_core.models",
    "TRUST": "jamgate_core.models",
    "ScoredMemory": "jamgate_core.models",
    "Source": "jamgate_core.models",
    "StageResult": "jamgate_core.models",
    "Verdict": "jamgate_core.models",
    "canonical_scope": "jamgate_core.models",
    "canonical_subject": "jamgate_core.models",
    "iso": "jamgate_core.models",
    "new_id": "jamgate_core.models",
    "parse_iso": "jamgate_core.models",
    "text_key": "jamgate_core.models",
    "utcnow": "jamgate_core.models",
    "AuthState": "jamgate_core.contracts",
    "CROSS_PROCESS": "jamgate_core.contracts",
    "DURABLE": "jamgate_core.contracts",
    "EmbedKind": "jamgate_core.contracts",
    "Embedder": "jamgate_core.contracts",
    "KEYWORD_SEARCH": "jamgate_core.contracts",
    "LOCAL": "jamgate_core.contracts",
    "Preconditions": "jamgate_core.contracts",
    "Store": "jamgate_core.contracts",
    "VECTOR_SEARCH": "jamgate_core.contracts",
    "WritePlan": "jamgate_core.contracts",
    "check_contract": "jamgate_core.contracts",
    "ConfigError": "jamgate_core.errors",
    "InvalidArgument": "jamgate_core.errors",
    "JamgateError": "jamgate_core.errors",
    "NotFound": "jamgate_core.errors",
    "PreconditionFailed": "jamgate_core.errors",
    "StoreCorrupt": "jamgate_core.errors",
    "StoreError": "jamgate_core.errors",
    "StoreTooNew": "jamgate_core.errors",
    "StoreUnavailable": "jamgate_core.errors",
    "STOPWORDS": "jamgate_core.text",
    "fold": "jamgate_core.text",
    "folded_words": "jamgate_core.text",
    "is_cjk": "jamgate_core.text",
    "runs": "jamgate_core.text",
    "script_runs": "jamgate_core.text",
    "sentences": "jamgate_core.text",
    "tokens": "jamgate_core.text",
    "words": "jamgate_core.text",
    "apply_plan": "jamgate_core.writes",
    "Settings": "jamgate_core.settings",
}

__all__ = [
    "CROSS_PROCESS",
    "DURABLE",
    "EMBEDDER",
    "KEYWORD_SEARCH",
    "LOCAL",
    "STOPWORDS",
    "TRUST",
    "VECTOR_SEARCH",
    "Application",
    "AuthState",
    "BaseStage",
    "Candidate",
    "ClientInfo",
    "ConfigError",
    "EmbedKind",
    "Embedder",
    "ExportMeta",
    "Format",
    "InvalidArgument",
    "JamgateError",
    "MalformedFile",
    "MemoryRecord",
    "MemoryType",
    "NotFound",
    "PreconditionFailed",
    "Preconditions",
    "Reading",
    "Register",
    "Related",
    "SaveRequest",
    "ScoredMemory",
    "Settings",
    "Source",
    "Stage",
    "StageContext",
    "StageResult",
    "Store",
    "StoreCorrupt",
    "StoreError",
    "StoreTooNew",
    "StoreUnavailable",
    "StoreView",
    "Verdict",
    "WritePlan",
    "__version__",
    "apply_plan",
    "canonical_scope",
    "canonical_subject",
    "check_contract",
    "fold",
    "folded_words",
    "hookimpl",
    "is_cjk",
    "iso",
    "new_id",
    "parse_iso",
    "runs",
    "script_runs",
    "sentences",
    "text_key",
    "tokens",
    "utcnow",
    "words",
]

if TYPE_CHECKING:
    from jamgate_core.contracts import (
        CROSS_PROCESS,
        DURABLE,
        KEYWORD_SEARCH,
        LOCAL,
        VECTOR_SEARCH,
        Application,
        AuthState,
        Embedder,
        EmbedKind,
        Preconditions,
        Register,
        Store,
        WritePlan,
        check_contract,
    )
    from jamgate_core.errors import (
        ConfigError,
        InvalidArgument,
        JamgateError,
        NotFound,
        PreconditionFailed,
        StoreCorrupt,
        StoreError,
        StoreTooNew,
        StoreUnavailable,
    )
    from jamgate_core.formats import ExportMeta, Format, MalformedFile, Reading
    from jamgate_core.hookspecs import (
        hookimpl,
    )
    from jamgate_core.models import (
        TRUST,
        Candidate,
        ClientInfo,
        MemoryRecord,
        MemoryType,
        Related,
        SaveRequest,
        ScoredMemory,
        Source,
        StageResult,
        Verdict,
        canonical_scope,
        canonical_subject,
        iso,
        new_id,
        parse_iso,
        text_key,
        utcnow,
    )
    from jamgate_core.settings import (
        Settings,
    )
    from jamgate_core.stage import (
        EMBEDDER,
        BaseStage,
        Stage,
        StageContext,
        StoreView,
    )
    from jamgate_core.text import (
        STOPWORDS,
        fold,
        folded_words,
        is_cjk,
        runs,
        script_runs,
        sentences,
        tokens,
        words,
    )
    from jamgate_core.writes import (
        apply_plan,
    )


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'jamgate_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
