"""The stdio front end (issue 21): the session's first answers before the SDK is imported,
from the replies the SDK gave an earlier run. Real `jamgate serve` processes, raw JSON lines
and the SDK's own client, in both protocol eras; every read has a deadline."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation

from jamgate_commands.stdio_client import server_env
from jamgate_server import shipped
from jamgate_server.reply_cache import FILE_NAME, ReplyCache, fingerprint

READ_SECONDS = 60
FROM_CACHE = "from the start-up replies"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "front-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}


def initialize(request_id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "front-test", "version": "1"}}}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
# The two eras' openings: (messages, the ids that get an answer).
LEGACY = [initialize(1), INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
MODERN = [{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": ENVELOPE}},
          {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": ENVELOPE}}]
ERAS = {"legacy": LEGACY, "modern": MODERN}


def call(request_id: int, tool: str, arguments: dict[str, Any],
         meta: dict[str, Any] | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


class Server:
    """`jamgate serve` with its own user cache folder, diagnostics at debug level in a file.
    The store is named (its default), so the replies shipped with the package are not used
    (D-227) and these tests see the user's cache alone (`test_shipped_replies.py` covers them,
    with `store=""`: a setting given as "" is left out)."""

    def __init__(self, tmp: Path, cache: Path, **settings: str) -> None:
        named = {name: value for name, value in {"store": "sqlite", **settings}.items() if value}
        env = server_env(tmp / "home", **named)
        env.update(XDG_CACHE_HOME=str(cache), JAMGATE_LOG_LEVEL="debug")
        self.log = tmp / f"stderr-{len(list(tmp.glob('stderr-*')))}.txt"
        with self.log.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jamgate_core.cli", "serve"], env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)

    def send(self, *messages: dict[str, Any]) -> None:
        """All at once, in one write (a pipelined client)."""
        assert self.process.stdin is not None
        self.process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], READ_SECONDS)
        if not ready:
            pytest.fail(f"no answer within {READ_SECONDS} s")
        line = self.process.stdout.readline()
        assert line, f"the server closed stdout: {self.errors()}"
        message: dict[str, Any] = json.loads(line)
        return message

    def finish(self) -> list[dict[str, Any]]:
        """Close stdin; everything else the server writes, then its exit code checked."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        rest = [json.loads(line) for line in self.process.stdout.read().splitlines()]
        assert self.process.wait(timeout=READ_SECONDS) == 0, self.errors()
        return rest

    def errors(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def answered_early(self) -> int:
        return self.errors().count(FROM_CACHE)


def session(tmp: Path, cache: Path, messages: list[dict[str, Any]],
            **settings: str) -> tuple[list[dict[str, Any]], Server]:
    """One session: each request sent after the previous answer (as clients do); the answers."""
    server = Server(tmp, cache, **settings)
    answers = []
    for message in messages:
        server.send(message)
        if "id" in message:
            answers.append(server.read())
    assert server.finish() == []
    return answers, server


@pytest.mark.parametrize("era", list(ERAS))
def test_the_front_ends_answers_equal_the_sdks(era: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    from_sdk, first = session(tmp_path, cache, ERAS[era])
    assert first.answered_early() == 0  # nothing stored yet: the SDK answered
    assert (cache / "jamgate" / FILE_NAME).is_file()
    from_cache, second = session(tmp_path, cache, ERAS[era])
    assert second.answered_early() == len(from_cache)
    assert from_cache == from_sdk
    assert {t["name"] for t in from_cache[-1]["result"]["tools"]} >= {"save_memory",
                                                                     "recall_memory"}
    assert "differed" not in second.errors()


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_sdk_client_sees_the_same_server_from_the_cache(mode: str,
                                                                  tmp_path: Path) -> None:
    env = server_env(tmp_path / "home")
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), JAMGATE_LOG_LEVEL="debug")
    seen = []
    for run in range(2):
        log = tmp_path / f"stderr-{run}.txt"
        command = f"exec {sys.executable} -m jamgate_core.cli serve 2>{log}"
        params = StdioServerParameters(command="bash", args=["-c", command], env=env)
        async with Client(params, mode=mode,  # type: ignore[arg-type]
                          client_info=Implementation(name=f"front-{mode}", version="1")) as c:
            tools = (await c.list_tools()).model_dump(mode="json")
            saved = (await c.call_tool("save_memory", {"text": f"Jam lives in Oslo ({run})"})
                     ).structured_content
            assert saved is not None and saved["decision"] in {"saved", "superseded"}
            assert saved["memory"]["client"]["name"] == f"front-{mode}"  # the replayed handshake
            seen.append((tools, c.server_capabilities.model_dump(mode="json"),
                         c.instructions, c.protocol_version))
        assert (FROM_CACHE in log.read_text()) == (run == 1)
        # The first start: the SDK's own client is answered by the shipped replies (D-225).
        if shipped.made_with_these_versions():
            assert ("from the shipped opening replies" in log.read_text()) == (run == 0)
        assert "differed" not in log.read_text()
    assert seen[0] == seen[1]


@pytest.mark.parametrize("era", list(ERAS))
def test_a_pipelined_opening_and_tool_calls_are_answered_once_each_in_order(
        era: str, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    session(tmp_path, cache, ERAS[era])  # the SDK's replies stored
    meta = ENVELOPE if era == "modern" else None
    listing = {**ERAS[era][-1], "id": 5}
    server = Server(tmp_path, cache)
    server.send(*ERAS[era], call(3, "save_memory", {"text": "Jam's cat is called Miso"}, meta),
                call(4, "list_memories", {}, meta), listing)
    answers = [server.read() for _ in range(5)]
    assert server.finish() == []  # and no reply twice
    assert [a["id"] for a in answers] == [1, 2, 3, 4, 5]
    assert answers[2]["result"]["structuredContent"]["decision"] == "saved"
    memories = answers[3]["result"]["structuredContent"]["memories"]
    assert [m["text"] for m in memories] == ["Jam's cat is called Miso"]
    assert answers[4]["result"]["tools"] == answers[1]["result"]["tools"]
    assert server.answered_early() == 2


def test_a_tool_call_right_after_initialize_waits_for_the_sdk(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    session(tmp_path, cache, LEGACY)
    server = Server(tmp_path, cache)
    server.send(initialize(7), INITIALIZED, call(8, "save_memory", {
        "text": "Jam prefers aisle seats", "type": "preference"}))
    first, second = server.read(), server.read()
    rest = server.finish()
    assert (first["id"], second["id"], rest) == (7, 8, [])
    assert second["result"]["structuredContent"]["decision"] == "saved"
    assert server.answered_early() == 1  # the initialize; the call was the SDK's


@pytest.mark.parametrize("stored", [False, True])
def test_a_client_leaving_at_once_gets_its_opening_answered(stored: bool,
                                                           tmp_path: Path) -> None:
    """Stored, the answers come from the front end and the process ends without the SDK;
    not stored, the SDK answers them after stdin closed, and stores them."""
    cache = tmp_path / "cache"
    if stored:
        session(tmp_path, cache, LEGACY)
    server = Server(tmp_path, cache)
    server.send(*LEGACY)
    answers = server.finish()  # the client hangs up at once and reads what comes
    assert [a["id"] for a in answers] == [1, 2]
    assert "save_memory" in {t["name"] for t in answers[1]["result"]["tools"]}
    assert ("the client left before the SDK was needed" in server.errors()) == stored
    assert (cache / "jamgate" / FILE_NAME).is_file()


def test_a_reply_stored_for_another_fingerprint_is_not_used(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    answers, _ = session(tmp_path, cache, LEGACY)
    path = cache / "jamgate" / FILE_NAME
    document = json.loads(path.read_text())
    (stored,) = document["sets"]
    stored["fingerprint"] = "another Jamgate, SDK or configuration"
    path.write_text(json.dumps(document))
    again, server = session(tmp_path, cache, LEGACY)
    assert server.answered_early() == 0 and again == answers


def test_another_configuration_does_not_use_the_stored_replies(tmp_path: Path) -> None:
    """A stored reply altered on disk stands for one that was right for another
    configuration: it is not served when a setting differs; served under its own, it is
    caught by the SDK's reply, logged and corrected for the next start."""
    cache = tmp_path / "cache"
    answers, _ = session(tmp_path, cache, LEGACY)
    path = cache / "jamgate" / FILE_NAME
    document = json.loads(path.read_text())
    for body in document["sets"][0]["replies"].values():
        if "tools" in body.get("result", {}):
            body["result"]["tools"] = body["result"]["tools"][:1]
    path.write_text(json.dumps(document))
    other, server = session(tmp_path, cache, LEGACY, stages_extra='["junk"]')
    assert other == answers and server.answered_early() == 0
    stale, server = session(tmp_path, cache, [*LEGACY, call(3, "list_memories", {})])
    assert len(stale[1]["result"]["tools"]) == 1 and "differed" in server.errors()
    healed, server = session(tmp_path, cache, LEGACY)
    assert healed == answers and server.answered_early() == 2


def test_a_corrupt_cache_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "jamgate" / FILE_NAME
    path.parent.mkdir(parents=True)
    for garbage in (b"\x00\xff not json", b'{"format": 1, "sets": [{"fingerprint": 3}]}'):
        path.write_bytes(garbage)
        answers, server = session(tmp_path, tmp_path / "cache", LEGACY)
        assert server.answered_early() == 0
        assert {t["name"] for t in answers[1]["result"]["tools"]} >= {"save_memory"}
        assert json.loads(path.read_text())["sets"], "the corrupt file was not replaced"
        assert (path.stat().st_mode & 0o777) == 0o600
    _, server = session(tmp_path, tmp_path / "cache", LEGACY)
    assert server.answered_early() == 2


def test_the_fingerprint_follows_the_settings_the_plugins_and_the_config_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "jamgate.toml"
    base = fingerprint(config, ["serve"])
    assert fingerprint(config, ["serve"]) == base
    assert fingerprint(config, ["serve", "extra-tools"]) != base
    monkeypatch.setenv("JAMGATE_STAGES_EXTRA", '["junk"]')
    with_stage = fingerprint(config, ["serve"])
    assert with_stage != base
    monkeypatch.setenv("JAMGATE_HOME", str(tmp_path / "elsewhere"))  # where, not what
    assert fingerprint(config, ["serve"]) == with_stage
    config.write_text('store = "memory"\n')
    assert fingerprint(config, ["serve"]) != with_stage


def test_secrets_never_reach_the_cache_file(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_TOKEN", "first-secret-token-value")
    config = tmp_path / "jamgate.toml"
    first = fingerprint(config, [])
    monkeypatch.setenv("JAMGATE_TOKEN", "second-secret-token-value")
    assert fingerprint(config, []) == first  # only the name counts
    cache = ReplyCache(tmp_path / FILE_NAME, first)
    cache.put("key", {"result": {}})
    cache.save()
    assert "secret" not in (tmp_path / FILE_NAME).read_text()
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_a_killed_writers_temporary_file_is_removed_by_the_next_save(tmp_path: Path) -> None:
    old, fresh = tmp_path / f".{FILE_NAME}.1.tmp", tmp_path / f".{FILE_NAME}.2.tmp"
    for leftover in (old, fresh):
        leftover.write_text("{")
    os.utime(old, (1_000_000_000, 1_000_000_000))
    cache = ReplyCache(tmp_path / FILE_NAME, "fingerprint")
    cache.put("key", {"result": {"tools": []}})
    cache.save()
    assert not old.exists() and fresh.exists()  # the fresh one may be a live writer's
    assert ReplyCache(tmp_path / FILE_NAME, "fingerprint").get("key") == {"result": {"tools": []}}


def test_a_client_that_sends_nothing_still_has_a_broken_configuration_reported(
        tmp_path: Path) -> None:
    env = server_env(tmp_path / "home", store="no-such-store")
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "serve"], env=env,
                          input=b"", capture_output=True, timeout=READ_SECONDS)
    assert done.returncode == 2 and b"no-such-store" in done.stderr
