"""The full flow with the MCP SDK's own OAuth client against a live server.

`OAuthClientProvider` discovers the metadata, registers, sends the "browser" to the consent
page (here: an HTTP client that submits the form with the instance token), exchanges the code
with PKCE and retries the MCP request with the issued token.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from flow import form_fields
from live_server import Running
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

REDIRECT = "http://127.0.0.1:47001/callback"


class MemoryTokens(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class ConsentingBrowser:
    """Stands in for the person: opens the consent page and approves with the token."""

    def __init__(self, server: Running, instance_token: str) -> None:
        self.server = server
        self.instance_token = instance_token
        self.result: AuthorizationCodeResult | None = None
        self.pages = 0
        self.status: int | None = None

    async def open(self, url: str) -> None:
        async with httpx2.AsyncClient(timeout=30) as http:
            page = await http.get(url)
            assert page.status_code == 200, page.text
            self.pages += 1
            answer = await http.post(f"{self.server.base}/authorize", data={
                **form_fields(page.text), "instance_token": self.instance_token,
                "decision": "approve"})
        self.status = answer.status_code
        if answer.status_code != 302:
            raise RuntimeError(f"the consent page answered {answer.status_code}")
        location = answer.headers["location"]
        assert location.startswith(REDIRECT)
        got = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
        self.result = AuthorizationCodeResult(code=got["code"], state=got.get("state"))

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_oauth_client_end_to_end(server: Running, mode: str) -> None:
    browser = ConsentingBrowser(server, server.token)
    storage = MemoryTokens()
    oauth = OAuthClientProvider(
        server_url=server.mcp_url,
        client_metadata=OAuthClientMetadata(redirect_uris=[REDIRECT], scope="jamgate",
                                            client_name="sdk-test"),
        storage=storage, redirect_handler=browser.open, callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=oauth, timeout=httpx2.Timeout(30, read=60)) as http:
        transport = streamable_http_client(server.mcp_url, http_client=http)
        async with Client(transport, mode=mode) as client:  # type: ignore[arg-type]
            result = await client.call_tool(
                "save_memory", {"text": f"Jam prefers window seats ({mode} client)"})
            assert not result.is_error, result
            assert result.structured_content is not None
            assert result.structured_content["decision"] == "saved"
            recalled = await client.call_tool("recall_memory", {"query": "window seats"})
            assert not recalled.is_error
    assert browser.pages == 1  # the owner was asked once
    assert storage.client is not None and storage.tokens is not None
    assert storage.tokens.refresh_token
    # The tokens the SDK holds are live on the REST side too, and belong to its client.
    found = server.app.store.oauth_get  # type: ignore[attr-defined]
    from jamgate_server.oauth import digest
    access = found("access", digest(storage.tokens.access_token))
    assert access is not None and access.client_id == storage.client.client_id


@pytest.mark.anyio
async def test_sdk_client_with_a_wrong_instance_token_gets_no_code(server: Running) -> None:
    browser = ConsentingBrowser(server, "not-the-instance-token")
    oauth = OAuthClientProvider(
        server_url=server.mcp_url,
        client_metadata=OAuthClientMetadata(redirect_uris=[REDIRECT]),
        storage=MemoryTokens(), redirect_handler=browser.open, callback_handler=browser.callback,
    )
    async with httpx2.AsyncClient(auth=oauth, timeout=30) as http:
        with pytest.raises(BaseException) as caught:
            async with Client(streamable_http_client(server.mcp_url, http_client=http),
                              mode="legacy") as client:  # type: ignore[arg-type]
                await client.call_tool("recall_memory", {"query": "x"})
    assert "consent page answered 401" in repr(caught.value)
    assert browser.status == 401 and browser.result is None
