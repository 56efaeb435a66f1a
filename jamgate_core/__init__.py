"""Jamgate: one memory for every agent, with a quality gate in the write path.

This module is the public API: everything a stage, store, embedder, format or hook plugin may
import is named in `__all__` and importable from here (`from jamgate_core import BaseStage,
StageResult`). Names load on first use, so importing the package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from jamgate_core.version import __version__

# Each public name's home module, one line of names a module.
_HOMES: dict[str, str] = {name: f"jamgate_core.{module}" for module, names in {
    "formats": "ExportMeta Format MalformedFile Reading",
    "contracts": "Application Register AuthState CROSS_PROCESS DURABLE EmbedKind Embedder "
        "KEYWORD_SEARCH LOCAL Preconditions Store VECTOR_SEARCH WritePlan check_contract",
    "hookspecs": "hookimpl",
    "stage": "BaseStage EMBEDDER Stage StageContext StoreView",
    "models": "Candidate ClientInfo MemoryRecord MemoryType Related SaveRequest TRUST "
        "ScoredMemory Source StageResult Verdict canonical_scope canonical_subject iso new_id "
        "parse_iso text_key utcnow",
    "errors": "ConfigError InvalidArgument JamgateError NotFound PreconditionFailed StoreCorrupt "
        "StoreError StoreTooNew StoreUnavailable",
    "text": "STOPWORDS fold folded_words is_cjk runs script_runs sentences stem tokens words",
    "writes": "apply_plan",
    "settings": "Settings",
}.items() for name in names.split()}


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
    "stem",
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
    from jamgate_core.hookspecs import hookimpl
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
    from jamgate_core.settings import Settings
    from jamgate_core.stage import EMBEDDER, BaseStage, Stage, StageContext, StoreView
    from jamgate_core.text import (
        STOPWORDS,
        fold,
        folded_words,
        is_cjk,
        runs,
        script_runs,
        sentences,
        stem,
        tokens,
        words,
    )
    from jamgate_core.writes import apply_plan


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'jamgate_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
