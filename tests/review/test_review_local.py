"""`jamgate review` on loopback: a one-time sign-in URL, then the session cookie."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx2

from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings


def test_the_one_time_url_signs_in_once(jamgate_home: Path) -> None:
    app = open_app(load_settings())
    app.save(SaveRequest(text="I live in Oslo", subject="home city", source="user-explicit"))
    app.save(SaveRequest(text="The user lives in Lisbon", subject="home city"))
    app.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "jamgate_core", "review", "--no-browser"],
        stderr=subprocess.PIPE, text=True, env={**os.environ})
    try:
        assert process.stderr is not None
        url = ""
        deadline = time.monotonic() + 30
        while not url and time.monotonic() < deadline:
            line = process.stderr.readline()
            found = re.search(r"http://127\.0\.0\.1:\d+/review/login\?once=\S+", line)
            url = found.group(0) if found else ""
        assert url, "jamgate review printed no sign-in URL"
        base = url.split("/review", 1)[0]
        with httpx2.Client(timeout=10, follow_redirects=True) as http:
            assert http.get(base + "/review").status_code == 401
            signed = http.get(url)
            assert signed.status_code == 200 and "The user lives in Lisbon" in signed.text
            assert "HttpOnly" in signed.history[0].headers["set-cookie"]
            assert "SameSite=strict" in signed.history[0].headers["set-cookie"]
        with httpx2.Client(timeout=10) as other:
            assert other.get(url).status_code == 401  # the code was used
            assert other.get(base + "/review", headers={"Host": "evil.example"}
                             ).status_code == 400
    finally:
        process.terminate()
        process.wait(timeout=10)
