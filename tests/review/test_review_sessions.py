"""The review page's sessions and redirects, without a browser."""

from __future__ import annotations

import pytest

from jamgate_server.review.site import Sessions, _local_path


def test_a_session_is_signed_and_expires() -> None:
    sessions = Sessions("a-token-of-enough-entropy")
    cookie = sessions.issue()
    assert sessions.valid(cookie)
    expiry, nonce, mac = cookie.split(".")
    assert not sessions.valid(f"{int(expiry) + 3600}.{nonce}.{mac}")  # a longer life is forged
    assert not sessions.valid(f"{expiry}.{nonce}.{'0' * len(mac)}")
    assert not Sessions("another-token").valid(cookie)
    assert not Sessions("a-token-of-enough-entropy", seconds=-1).valid(
        Sessions("a-token-of-enough-entropy", seconds=-1).issue())
    assert sessions.csrf(cookie) != sessions.csrf(sessions.issue())


def test_a_one_time_code_signs_in_once() -> None:
    sessions = Sessions("x" * 40)
    code = sessions.one_time_code()
    assert sessions.redeem(code) and not sessions.redeem(code)
    assert not sessions.redeem("guessed")


@pytest.mark.parametrize(("target", "kept"), [
    ("/review/memories?q=tea", True), ("/review", True), ("/review/due", True),
    ("http://evil.example/review", False), ("//evil.example/review", False),
    ("/\\evil.example/review", False), ("/v1/memory", False), ("", False),
])
def test_redirects_stay_on_the_page(target: str, kept: bool) -> None:
    assert (_local_path(target) == target) is kept
