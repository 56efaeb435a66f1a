"""The one-click install files: the MCP registry's server.json and the Render blueprint."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def registry_schema(url: str) -> dict[str, object]:
    """The released server.json schema `url` names, as skillsaw (dev extra) ships it."""
    released = url.split("/schemas/")[1].split("/")[0]  # e.g. 2025-12-11
    folder = resources.files("skillsaw") / "schemas" / "mcp_registry"
    path = folder / f"v{released.replace('-', '_')}" / "server.schema.json"
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def test_server_json_is_valid_and_matches_the_package() -> None:
    document = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, registry_schema(document["$schema"]))
    assert document["version"] == PROJECT["version"]
    (package,) = document["packages"]
    assert (package["identifier"], package["version"]) == (PROJECT["name"], PROJECT["version"])
    assert [a["value"] for a in package["packageArguments"]] == ["serve"]
    # PyPI ownership: the README carries the registry name as an `mcp-name:` marker.
    assert f"mcp-name: {document['name']}" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_render_blueprint_serves_http_with_a_generated_token() -> None:
    blueprint = yaml.safe_load((ROOT / "render.yaml").read_text(encoding="utf-8"))
    (service,) = blueprint["services"]
    assert service["type"] == "web" and service["runtime"] == "docker"
    assert service["healthCheckPath"] == "/healthz"
    env = {item["key"]: item for item in service["envVars"]}
    assert env["JAMGATE_TOKEN"].get("generateValue") is True  # never a literal secret
    assert env["JAMGATE_HOST"]["value"] == "0.0.0.0"
    assert service["disk"]["mountPath"] == env["JAMGATE_HOME"]["value"]
