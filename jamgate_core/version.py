"""The version of the jamgate distribution, and how to add an extra to this install."""

import json
import sys
from importlib import metadata
from urllib.parse import unquote, urlsplit

__version__ = "0.1.0"


def install_command(extras: str, reinstall: bool = False) -> str:
    """pip adding `extras` here: from the clone or wheel Jamgate came from (PEP 610), else PyPI."""
    try:
        record = json.loads(metadata.distribution("jamgate").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):  # pragma: no cover - not installed
        record = {}
    url, edit = urlsplit(str(record.get("url", ""))), record.get("dir_info", {}).get("editable")
    source = unquote(url.path) if url.scheme == "file" else "jamgate"
    flags = ("--force-reinstall " if reinstall else "") + ("-e " if edit else "")
    return f"{sys.executable} -m pip install {flags}'{source}[{extras}]'"
