"""The layout shows the architecture (D-116): a small core, plugins on its public API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import jamgate_core

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "jamgate_core"
PUBLIC_API_USERS = [*sorted((ROOT / "plugins" / "jamgate_stages").rglob("*.py")),
                    ROOT / "examples" / "jamgate-stage-example" / "jamgate_no_shouting.py"]
LONG_REASON = "Longer than 500 lines by design"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_core_stays_under_4000_lines() -> None:
    assert sum(lines(path) for path in CORE.glob("*.py")) < 4000


@pytest.mark.parametrize("path", sorted(p for base in ("jamgate_core", "plugins", "adapters")
                                        for p in (ROOT / base).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_long_without_saying_why(path: Path) -> None:
    if lines(path) > 550:
        assert LONG_REASON in path.read_text(encoding="utf-8"), f"{path}: {lines(path)} lines"


@pytest.mark.parametrize("path", PUBLIC_API_USERS, ids=lambda p: p.name)
def test_stages_and_the_example_import_only_the_public_api(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("jamgate_core"):
            assert node.module == "jamgate_core", f"{path.name} imports {node.module}"
            names = {alias.name for alias in node.names}
            assert names <= set(jamgate_core.__all__), names - set(jamgate_core.__all__)
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("jamgate_core.") for a in node.names)


def test_every_public_name_resolves() -> None:
    for name in jamgate_core.__all__:
        assert getattr(jamgate_core, name) is not None
