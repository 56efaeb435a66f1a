"""Run the README's run command verbatim as an MCP client would, over stdio, and use it.

The SDK's own client starts `bash -c "<command>"` as the server, in both protocol eras, and
saves, recalls, lists and forgets on the default store in a fresh JAMGATE_HOME.
"""

import os
import sys
import tempfile

import anyio
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation

TOOLS = {"save_memory", "check_memory", "recall_memory", "forget_memory", "list_memories"}


async def drive(command: str, mode: str, home: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env["JAMGATE_HOME"] = home
    params = StdioServerParameters(command="bash", args=["-c", command], env=env)
    async with Client(params, mode=mode, client_info=Implementation(name=f"ci-{mode}",
                                                                    version="1")) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == TOOLS, names
        saved = (await client.call_tool("save_memory", {
            "text": f"Jam lives in Athens ({mode})", "subject": "location"})).structured_content
        assert saved["decision"] in {"saved", "superseded"}, saved
        assert saved["memory"]["client"]["name"] == f"ci-{mode}", saved
        found = (await client.call_tool("recall_memory", {"query": "Athens"})).structured_content
        assert saved["id"] in [m["id"] for m in found["memories"]], found
        listed = (await client.call_tool("list_memories", {})).structured_content
        assert saved["id"] in [m["id"] for m in listed["memories"]], listed
        gone = (await client.call_tool("forget_memory", {"id": saved["id"]})).structured_content
        assert gone == {"forgotten": saved["id"]}, gone
    print(f"README run command answered the MCP client in {mode} mode: five tools; save, "
          "recall, list and forget worked; provenance recorded.")


async def main() -> None:
    command = sys.argv[1]
    with tempfile.TemporaryDirectory() as home:
        for mode in ("legacy", "auto"):
            with anyio.fail_after(600):
                await drive(command, mode, home)
        assert os.path.isfile(os.path.join(home, "memory.db")), "no memory.db was created"


anyio.run(main)
