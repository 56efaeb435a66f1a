"""The two HTML pages of the OAuth server: the consent page and the error page.

Plain HTML and inline CSS: no JavaScript, no external assets, every value escaped, never
framed, never cached, never indexed.
"""

from __future__ import annotations

from html import escape

from starlette.responses import HTMLResponse

HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
# The request parameters a consent form carries back to POST /authorize.
CARRIED = ("client_id", "redirect_uri", "response_type", "code_challenge",
           "code_challenge_method", "state", "scope", "resource")
WRONG_TOKEN = "That token didn't match. Check your JAMGATE_TOKEN and try again."
LOCKED = ("Too many wrong tokens from your address: wait {seconds} s before the next try "
          "(the right token is always accepted).")

_STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;
color:#1d1d1f}
h1{font-size:1.4rem}.who{font-weight:600}.note{color:#555;font-size:.9rem}
.banner{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem .8rem;border-radius:6px}
input[type=password]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{padding:.5rem 1.2rem;font-size:1rem;margin:1rem .5rem 0 0}
"""


def _page(title: str, body: str, status: int) -> HTMLResponse:
    html = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=robots content="noindex,nofollow">'
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>{body}</body></html>"
    )
    return HTMLResponse(html, status_code=status, headers=HEADERS)


def error_page(title: str, message: str, status: int = 400) -> HTMLResponse:
    """A dead end shown instead of a redirect (unknown client, unregistered redirect URI)."""
    return _page(f"Jamgate: {title}",
                 f"<h1>{escape(title)}</h1><p>{escape(message)}</p>"
                 "<p class=note>Nothing was authorized. Start the connection again from "
                 "the application.</p>", status)


def consent_page(*, client_name: str | None, redirect_host: str, scopes: list[str],
                 carried: dict[str, str], wrong_token: bool = False,
                 locked_seconds: int = 0) -> HTMLResponse:
    """Ask the owner for the instance token once, to let a client in. After too many wrong
    tokens from one address (`locked_seconds`), the page says how long to wait (429)."""
    name = escape(client_name or "An application")
    hidden = "".join(
        f'<input type=hidden name="{escape(key)}" value="{escape(value)}">'
        for key, value in carried.items()
    )
    notice = LOCKED.format(seconds=locked_seconds) if locked_seconds else WRONG_TOKEN
    banner = f'<p class=banner role=alert>{escape(notice)}</p>' if wrong_token else ""
    body = (
        "<h1>Jamgate</h1>"
        "<p>This is your Jamgate instance — your shared, cross-agent memory.</p>"
        f"<p><span class=who>{name}</span> wants to connect. It will be able to read, save "
        "and forget memories.</p>"
        f"<p class=note>After you approve, you are sent back to "
        f"<b>{escape(redirect_host)}</b>. Access: {escape(' '.join(scopes))}.</p>"
        f"{banner}"
        '<form method=post action="/authorize">'
        f"{hidden}"
        '<label for=instance_token>Instance token (JAMGATE_TOKEN)</label>'
        '<input type=password id=instance_token name=instance_token autocomplete=off '
        "autofocus>"
        "<button type=submit name=decision value=approve>Approve</button>"
        "<button type=submit name=decision value=deny>Deny</button>"
        "</form>"
    )
    response = _page("Jamgate: connect an application", body, 401 if wrong_token else 200)
    if locked_seconds:
        response.status_code = 429
        response.headers["Retry-After"] = str(locked_seconds)
    return response
