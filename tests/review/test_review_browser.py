"""The review page end to end: a real server and store, a real headless Chromium."""

from __future__ import annotations

import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx2
import pytest
from live_server import Running
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from jamgate_commands.gatelog import read_entries
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, utcnow
from jamgate_server.review.queue import pending
from jamgate_server.review.site import PATHS

pytestmark = pytest.mark.slow
DOCS = Path(__file__).resolve().parents[2] / "docs"


def sign_in(page: Any, server: Running, path: str = "/review") -> None:
    page.get(server.base + path)
    assert page.find_element(By.TAG_NAME, "h1").text == "Sign in"
    page.find_element(By.ID, "token").send_keys(server.token)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form.signin button"))
    if path != "/review":
        page.get(server.base + path)


def save(server: Running, **body: Any) -> dict[str, Any]:
    with server.client() as http:
        answer = http.post("/v1/memory", json=body, headers=server.auth())
    assert answer.status_code in (200, 201), answer.text
    return dict(answer.json())


def conflict(server: Running) -> tuple[str, str]:
    old = save(server, text="I live in Oslo", subject="home city", source="user-explicit")
    held = save(server, text="The user lives in Lisbon", subject="home city",
                source="agent-inferred")
    assert held["decision"] == "conflict"
    assert any(n.startswith("Waiting for review") for n in held["notices"])
    return str(old["id"]), held["notices"][-1].rsplit(" ", 1)[-1]


def active_texts(server: Running) -> list[str]:
    return sorted(m.text for m in server.app.list(status="active").memories)


def click_and_wait(page: Any, element: Any, confirm: bool = False) -> None:
    """Click, accept the page's confirmation if it asks, and wait for the next page."""
    old = page.find_element(By.TAG_NAME, "html")
    element.click()
    if confirm:
        page.switch_to.alert.accept()  # review.js asks before a destructive action
    WebDriverWait(page, 10).until(lambda _: left_the_document(old))
    WebDriverWait(page, 10).until(
        lambda driver: driver.execute_script("return document.readyState") == "complete")


def left_the_document(element: Any) -> bool:
    """Whether the page holding `element` has been replaced. Mid-navigation chromedriver may
    answer "node does not belong to the document" instead of a stale reference: gone too."""
    try:
        element.is_enabled()
    except WebDriverException:  # StaleElementReferenceException among them
        return True
    return False


def absent(page: Any, by: str, value: str) -> bool:
    """Whether the page (already loaded) has no such element, without the implicit wait."""
    page.implicitly_wait(0)
    try:
        return page.find_elements(by, value) == []
    finally:
        page.implicitly_wait(5)


def press(page: Any, container: str, action: str, confirm: bool = False) -> None:
    click_and_wait(page, page.find_element(
        By.CSS_SELECTOR, f'{container} button[data-action="{action}"]'), confirm)


def undo(page: Any) -> None:
    click_and_wait(page, page.find_element(By.ID, "undo"))


def log_reasons(server: Running) -> list[str]:
    path = server.app.settings.gate_log_path(server.app.store_dir())
    assert path is not None
    return [str(e.get("reason")) for e in read_entries(path)]


def test_keep_and_retire_then_undo(page: Any, server: Running) -> None:
    old_id, item_id = conflict(server)
    sign_in(page, server)
    item = page.find_element(By.ID, f"item-{item_id}")
    assert "The user lives in Lisbon" in item.find_element(By.CSS_SELECTOR, ".new").text
    assert "I live in Oslo" in item.find_element(By.CSS_SELECTOR, ".old").text
    press(page, f"#item-{item_id}", "keep_retire")
    assert "Done: keep and retire the other" in page.find_element(By.ID, "flash").text
    assert active_texts(server) == ["The user lives in Lisbon"]
    [new] = server.app.list(status="active").memories
    assert new.source == "user-confirmed" and new.subject == "home-city"
    assert server.app.store.get("default", old_id).status == "superseded"  # type: ignore[union-attr]
    assert pending(server.app) == []
    assert absent(page, By.CSS_SELECTOR, "li.item")

    undo(page)
    assert "Undone: keep and retire the other" in page.find_element(By.ID, "flash").text
    assert active_texts(server) == ["I live in Oslo"]
    restored = server.app.store.get("default", old_id)
    assert restored is not None and restored.status == "active"
    assert server.app.store.get("default", new.id) is None
    assert [h.item.id for h in pending(server.app)] == [item_id]
    assert page.find_element(By.ID, f"item-{item_id}")

    reasons = log_reasons(server)
    assert reasons.index("review.keep_retire") < reasons.index("review.undo")
    page.get(server.base + "/review/record")
    shown = [e.get_attribute("data-reason")
             for e in page.find_elements(By.CSS_SELECTOR, "li.entry")]
    assert "review.keep_retire" in shown and "review.undo" in shown
    assert not [line for line in page.get_log("browser") if "Content Security Policy" in
                line["message"]]


def test_keep_as_new_merge_and_discard(page: Any, server: Running) -> None:
    _old, item_id = conflict(server)
    sign_in(page, server)
    press(page, f"#item-{item_id}", "keep_new")
    assert active_texts(server) == ["I live in Oslo", "The user lives in Lisbon"]
    undo(page)
    page.find_element(By.CSS_SELECTOR, f"#item-{item_id} details.merge summary").click()
    box = page.find_element(By.ID, f"merge-{item_id}")
    box.clear()
    box.send_keys("I lived in Oslo and moved to Lisbon in 2026")
    press(page, f"#item-{item_id} details.merge", "merge")
    assert active_texts(server) == ["I lived in Oslo and moved to Lisbon in 2026"]
    undo(page)
    press(page, f"#item-{item_id}", "discard")
    assert active_texts(server) == ["I live in Oslo"] and pending(server.app) == []
    assert {"review.keep_new", "review.merge", "review.discard"} <= set(log_reasons(server))


def test_forget_leaves_the_page_and_recall(page: Any, server: Running) -> None:
    kept = save(server, text="I play the cello on Sundays", source="user-explicit")
    gone = save(server, text="I am allergic to walnuts", source="user-explicit")
    sign_in(page, server, "/review/memories")
    assert page.find_element(By.ID, f"memory-{gone['id']}")
    press(page, f"#memory-{gone['id']}", "forget", confirm=True)
    assert "Done: forget" in page.find_element(By.ID, "flash").text
    assert absent(page, By.ID, f"memory-{gone['id']}")
    assert page.find_element(By.ID, f"memory-{kept['id']}")
    assert server.app.recall("walnuts").memories == []
    page.find_element(By.ID, "q").send_keys("cello\n")
    assert page.find_element(By.ID, f"memory-{kept['id']}")


def test_confirm_and_extend_on_due(page: Any, server: Running) -> None:
    inferred = save(server, text="Jam uses a standing desk at work", source="agent-inferred",
                    type="preference")
    now = utcnow()
    soon = MemoryRecord(id=new_id(), text="Jam's project Tern ships its beta in March",
                        type="project", source="user-explicit", created_at=now, updated_at=now,
                        expires_at=now + timedelta(days=3))
    server.app.store.write(WritePlan(scope="default", now=now, insert=soon),
                           Preconditions(scope="default"))
    sign_in(page, server, "/review/due")
    press(page, f"#memory-{soon.id}", "extend")
    extended = server.app.store.get("default", soon.id)
    assert extended is not None and extended.expires_at is not None
    assert extended.expires_at > now + timedelta(days=80)
    assert absent(page, By.ID, f"memory-{soon.id}")  # no longer due
    undo(page)
    back = server.app.store.get("default", soon.id)
    assert back is not None and back.expires_at == soon.expires_at
    press(page, f"#memory-{inferred['id']}", "confirm")
    record = server.app.store.get("default", inferred["id"])
    assert record is not None and record.source == "user-confirmed"
    assert {"review.extend", "review.undo", "review.confirm"} <= set(log_reasons(server))


def test_without_auth_every_page_and_action_is_401(server: Running) -> None:
    with server.client() as http:
        for path in sorted(PATHS):
            if "/static/" in path:
                continue
            assert http.get(path).status_code in (401, 405), path
            assert http.post(path, data={"action": "forget"}).status_code in (401, 405), path
        with server.client(cookies={"jamgate_review": "1.2.3"}) as forged:
            assert forged.get("/review").status_code == 401
        assert http.post("/review/login", data={"token": "wrong"}).status_code == 401
        signed = http.get("/review", headers=server.auth())
        assert signed.status_code == 200 and "jamgate_review" in signed.cookies
        assert "script-src 'self'" in signed.headers["content-security-policy"]
        bare = server.client()
        bare.cookies.set("jamgate_review", signed.cookies["jamgate_review"])
        assert bare.post("/review/undo", data={"csrf": "forged"}).status_code == 403
        bare.close()


class _Attacker(BaseHTTPRequestHandler):
    target = ""

    def do_GET(self) -> None:
        body = (f'<form id="f" method="post" action="{self.target}/review/action">'
                '<input name="action" value="forget"><input name="scope" value="default">'
                f'<input name="id" value="{self.server.victim}"></form>'  # type: ignore[attr-defined]
                "<script>document.getElementById('f').submit()</script>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def test_a_cross_site_form_post_is_refused(page: Any, server: Running) -> None:
    victim = save(server, text="I keep bees on the roof", source="user-explicit")
    sign_in(page, server)  # the browser holds a live session
    handler = type("Handler", (_Attacker,), {"target": server.base})
    attacker = ThreadingHTTPServer(("127.0.0.2", 0), handler)
    attacker.victim = victim["id"]  # type: ignore[attr-defined]
    thread = threading.Thread(target=attacker.serve_forever, daemon=True)
    thread.start()
    try:
        page.get(f"http://127.0.0.2:{attacker.server_port}/")
        WebDriverWait(page, 10).until(lambda p: "/review/action" in p.current_url)
        assert "are not accepted" in page.page_source  # the Origin check answered 403
        assert server.app.store.get("default", victim["id"]) is not None
    finally:
        attacker.shutdown()
    with httpx2.Client(base_url=server.base) as http:
        forged = http.post("/review/action", headers={"Origin": "http://evil.example"},
                           data={"action": "forget", "id": victim["id"]})
        assert forged.status_code == 403
    assert server.app.store.get("default", victim["id"]) is not None


def test_screenshots_of_every_view(page: Any, server: Running, tmp_path: Path) -> None:
    """Each view at desktop and phone width; committed to docs/ with REVIEW_SCREENSHOTS=1."""
    conflict(server)
    save(server, text="Jam's project Tern ships its beta in March", type="project",
         source="agent-inferred")
    save(server, text="jam prefers a dark theme in all of his code editors")
    save(server, text="jam prefers dark theme in all his code editors")
    save(server, text="my api key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
         source="user-explicit")
    sign_in(page, server)
    target = DOCS if os.environ.get("REVIEW_SCREENSHOTS") else tmp_path
    for view in ("", "/memories", "/due", "/record"):
        for width, suffix in ((1280, ""), (390, "-phone")):
            page.set_window_size(width, 900)
            page.get(server.base + "/review" + view)
            overflow = page.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (view, width)
            name = f"review{view.replace('/', '-') or '-queue'}{suffix}.png"
            if suffix and target == DOCS:
                continue  # the phone shots are checked, not committed
            page.save_screenshot(str(target / name))
            assert (target / name).stat().st_size > 5000
    page.set_window_size(1280, 900)
    assert "sk-live" not in page.page_source  # the record shows the refusal redacted
