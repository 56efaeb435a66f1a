"""Write the opening replies shipped with the package (D-225):

    .venv/bin/python scripts/make_opening_replies.py

Run it after changing anything `jamgate_server.shipped.SHAPING_FILES` names (tools, schemas,
resources, instructions, the version), the built-in `jamgate.plugins` entry points, or the
SDK's pinned versions; `tests/server/test_shipped_replies.py` fails until it is run. The
replies are the real SDK server's, in process, with the built-in plugins and no configuration
(every `JAMGATE_*` variable removed, an empty home); they hold no user data.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main() -> int:
    for name in list(os.environ):
        if name.upper().startswith("JAMGATE_"):
            del os.environ[name]
    with tempfile.TemporaryDirectory(prefix="jamgate-opening-") as home:
        os.environ["JAMGATE_HOME"] = home
        os.environ["JAMGATE_EMBEDDER"] = "none"  # the replies do not depend on it (D-227)
        from jamgate_core.app import open_app
        from jamgate_core.loader import PLUGINS, discover
        from jamgate_server.opening_build import build_document, dumps
        from jamgate_server.shipped import FILE

        app = open_app()
        try:
            document = build_document(app, discover(PLUGINS))
        finally:
            app.close()
    if document["digest"] is None:
        print("a jamgate.plugins entry point is not Jamgate's own: uninstall it first",
              file=sys.stderr)
        return 1
    Path(FILE).write_text(dumps(document), encoding="utf-8")
    print(f"{FILE}: {len(document['replies'])} replies, {len(document['bodies'])} distinct")
    return 0


if __name__ == "__main__":
    sys.exit(main())
