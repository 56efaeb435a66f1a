"""The version of the jamgate distribution, and how to add an extra to this install."""

import json
import sys
from importlib import metadata, util
from pathlib import Path
from urllib.parse import unquote, urlsplit

__version__ = "0.1.0"


def install_command(extras: str, reinstall: bool = False) -> str:
    """The command adding `extras` here, from the clone or wheel Jamgate came from (PEP 610),
    else PyPI: pip, or pipx's / uv's own where the environment has no pip (D-174)."""
    try:
        record = json.loads(metadata.distribution("jamgate").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):  # pragma: no cover - not installed
        record = {}
    url, edit = urlsplit(str(record.get("url", ""))), record.get("dir_info", {}).get("editable")
    source = unquote(url.path) if url.scheme == "file" else "jamgate"
    flags = ("--force-reinstall " if reinstall else "") + ("-e " if edit else "")
    pipx = Path(sys.prefix) / "pipx_metadata.json"  # pipx and `uv tool` envs have no pip
    installer = (f"{sys.executable} -m pip install" if util.find_spec("pip") else
                 f"pipx runpip {pipx.parent.name} install" if pipx.is_file() else
                 f"uv pip install --python {sys.executable}")
    return f"{installer} {flags}'{source}[{extras}]'"
