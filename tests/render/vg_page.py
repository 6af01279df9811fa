"""A tiny test page that loads the shared scripts of ``player/assets/vg`` as ES modules.

Chromium loads no module from ``file://``, so the page and the modules are served from
an origin of their own (``http://vg.test/``) by Playwright's request routing: no server,
no network. ``page.evaluate("async () => { const m = await import('/vg/table.js'); … }")``
then runs a module's functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import vizgrad

VG = Path(vizgrad.__file__).parent / "player" / "assets" / "vg"
ORIGIN = "http://vg.test"
PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>vg</title>
<style>#box { width: 400px; height: 300px; overflow: auto; } #box svg { display: block; }
.fit svg { width: 100%; }</style></head>
<body><div id="box"></div><table id="nodes"><tbody></tbody></table>
<input id="find"><output id="found"></output><div id="over"></div></body></html>"""


def open_vg(browser: Any) -> tuple[Any, Any, list[str]]:
    """(context, page, problems) of the test page, with the modules at ``/vg/``."""
    context = browser.new_context(viewport={"width": 800, "height": 600})
    problems: list[str] = []

    def serve(route: Any) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path == "/index.html":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=PAGE)
        elif path.startswith("/vg/") and (VG / path[4:]).is_file():
            route.fulfill(status=200, content_type="text/javascript; charset=utf-8",
                          body=(VG / path[4:]).read_text(encoding="utf-8"))
        else:
            problems.append(f"404 {path}")
            route.fulfill(status=404, body="")

    context.route(f"{ORIGIN}/**", serve)
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{ORIGIN}/index.html")
    return context, page, problems
