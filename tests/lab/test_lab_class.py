"""A class at once: workers share renders through a folder; the lab works behind a prefix."""

from __future__ import annotations

import os
import re
import time
import warnings

import pytest
from click.testing import CliRunner

from vizgrad.lab import create_app
from vizgrad.lab._disk import ENV_CACHE_DIR, DiskCache
from vizgrad.lab.cli import serve

with warnings.catch_warnings():
    from starlette.exceptions import StarletteDeprecationWarning

    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

FORK = {"example": "fork", "step": 3}


@pytest.fixture
def layouts(monkeypatch):
    """The layouts run (a list that grows by one per Graphviz run)."""
    from vizgrad.scene import make as scene

    runs: list[int] = []
    real = scene.run_layout

    def counted(*args, **kwargs):
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(scene, "run_layout", counted)
    return runs


def _worker(folder, **kw) -> TestClient:
    """One app, as one worker process of `vizgrad serve --workers N` has it."""
    return TestClient(create_app(cache_dir=folder, **kw), base_url="http://127.0.0.1:8000")


@pytest.mark.parametrize("path, body", [("/api/render", FORK),
                                        ("/api/scene", {"example": "fork"})])
def test_a_second_worker_reads_what_the_first_laid_out(tmp_path, layouts, path, body):
    first, second = _worker(tmp_path), _worker(tmp_path)
    a = first.post(path, json=body)
    assert a.status_code == 200 and a.headers["x-vizgrad-cache"] == "miss"
    assert len(layouts) == 1
    b = second.post(path, json=body)
    assert b.status_code == 200 and b.headers["x-vizgrad-cache"] == "hit"
    assert b.content == a.content
    assert len(layouts) == 1  # no second layout
    assert second.get("/api/health").json()["disk_cache"] == {"hits": 1, "misses": 0}
    other = second.post(path, json={**body, "theme": "dark"})
    assert other.headers["x-vizgrad-cache"] == "miss" and len(layouts) == 2


def test_without_a_folder_each_worker_lays_out(layouts):
    first, second = (TestClient(create_app(), base_url="http://127.0.0.1:8000")
                     for _ in range(2))
    assert first.post("/api/render", json=FORK).status_code == 200
    assert second.post("/api/render", json=FORK).headers["x-vizgrad-cache"] == "miss"
    assert len(layouts) == 2


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],                    # truncated
    lambda data: data.replace(b"<svg", b"<xvg", 1),           # corrupt body
    lambda data: b"not a cache entry at all",                # no header
    lambda data: b"",                                        # empty
    lambda data: b"\xff\xfe" + data,                         # garbage before the header
])
def test_a_damaged_entry_is_a_miss_not_an_error(tmp_path, layouts, damage):
    first = _worker(tmp_path)
    good = first.post("/api/render", json=FORK).content
    (entry,) = tmp_path.glob("*.entry")
    entry.write_bytes(damage(entry.read_bytes()))
    second = _worker(tmp_path)
    r = second.post("/api/render", json=FORK)
    assert r.status_code == 200 and r.headers["x-vizgrad-cache"] == "miss"
    assert r.content == good and len(layouts) == 2
    # laid out again and stored whole: a third worker reads it
    assert _worker(tmp_path).post("/api/render", json=FORK).headers["x-vizgrad-cache"] == "hit"


def test_the_bound_evicts_the_least_recently_used(tmp_path):
    disk = DiskCache(tmp_path, max_bytes=2000)
    for i in range(5):
        disk.store(("k", i), "x" * 900)
        time.sleep(0.02)  # file times may be as coarse as a few milliseconds
    kept = [i for i in range(5) if disk.lookup(("k", i)) is not None]
    assert kept == [3, 4]  # entries of 985 bytes (900 and the header) in 2000: two fit
    assert sum(p.stat().st_size for p in tmp_path.glob("*.entry")) <= 2000
    assert not list(tmp_path.glob(".tmp-*"))  # no temporary file is left behind


def test_a_hit_keeps_an_entry_from_eviction(tmp_path):
    disk = DiskCache(tmp_path, max_bytes=2500)
    disk.store(("k", 0), "x" * 900)
    disk.store(("k", 1), "x" * 900)
    os.utime(disk.path(("k", 1)), ns=(1, 1))  # k1 looks older than k0 ...
    os.utime(disk.path(("k", 0)), ns=(2, 2))
    assert disk.lookup(("k", 1)) is not None  # ... until it is read
    disk.store(("k", 2), "x" * 900)
    assert disk.lookup(("k", 0)) is None and disk.lookup(("k", 1)) is not None


def test_serve_shares_a_temporary_folder_with_its_workers(monkeypatch, free_port):
    from vizgrad.lab import cli

    seen = []
    monkeypatch.setattr(cli, "run_workers",
                        lambda config: seen.append(os.environ.get(ENV_CACHE_DIR)))

    result = CliRunner().invoke(serve, ["--port", str(free_port), "--workers", "2"])
    assert result.exit_code == 0, result.output
    (folder,) = seen
    assert folder and "vizgrad-lab-cache-" in folder
    assert not os.path.exists(folder) and ENV_CACHE_DIR not in os.environ  # cleaned up
    seen.clear()
    result = CliRunner().invoke(serve, ["--port", str(free_port), "--workers", "2",
                                        "--no-disk-cache"])
    assert result.exit_code == 0 and seen == [None]


def test_serve_says_when_the_cache_folder_is_unusable(tmp_path, free_port, monkeypatch):
    from vizgrad.lab import cli

    monkeypatch.setattr(cli, "run_workers", lambda config: None)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(serve, ["--port", str(free_port), "--workers", "2",
                                        "--cache-dir", str(blocker / "sub")])
    assert result.exit_code != 0 and "cache" in result.output.lower()
    assert "Traceback" not in result.output
    result = CliRunner().invoke(serve, ["--port", str(free_port), "--cache-dir",
                                        str(tmp_path), "--no-disk-cache"])
    assert result.exit_code == 2 and "contradict" in result.output


def test_create_app_says_when_the_cache_folder_is_unusable(tmp_path):
    from vizgrad.exceptions import OptionError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OptionError, match=r"cannot use .*file/sub as the cache folder.*"
                                          r"choose another --cache-dir"):
        create_app(cache_dir=blocker / "sub")
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_serve_passes_the_root_path(monkeypatch, free_port):
    from vizgrad.lab import cli

    configs = []
    monkeypatch.setattr(cli, "run_workers", configs.append)
    result = CliRunner().invoke(serve, ["--port", str(free_port), "--workers", "2",
                                        "--root-path", "/vizgrad/"])
    assert result.exit_code == 0, result.output
    assert configs[0].root_path == "/vizgrad"
    assert f"http://127.0.0.1:{free_port}/vizgrad/" in result.output
    bad = CliRunner().invoke(serve, ["--root-path", "vizgrad"])
    assert bad.exit_code == 2 and "must start with /" in bad.output


@pytest.fixture
def prefixed() -> TestClient:
    """The lab as a proxy serving it under /vizgrad would reach it."""
    return TestClient(create_app(), base_url="http://127.0.0.1:8000", root_path="/vizgrad")


def test_the_page_under_a_prefix_names_nothing_by_an_absolute_path(prefixed):
    from vizgrad.lab.app import STATIC

    page = prefixed.get("/vizgrad/")
    assert page.status_code == 200
    texts = [page.text] + [p.read_text(encoding="utf-8") for p in sorted(STATIC.iterdir())
                           if p.suffix in (".js", ".html")]
    for body in texts:
        absolute = re.findall(r"""["'`(]/(?:api|static)\b""", body)
        assert not absolute, absolute
    linked = re.findall(r'(?:src|href)="(static/[^"]+)"', page.text)
    assert len(linked) == 2  # the stylesheet and lab.js, which imports the rest
    # the modules' imports are relative too: the lab's ./x.js and the shared ./vg/x.js
    imported = {f"static/{m}" for p in STATIC.glob("*.js")
                for m in re.findall(r'from "\./([\w/]+\.js)"', p.read_text(encoding="utf-8"))}
    assert {"static/vg/playback.js", "static/vg/table.js"} <= imported
    for url in [*linked, *sorted(imported)]:  # as the browser resolves them against /vizgrad/
        assert prefixed.get("/vizgrad/" + url).status_code == 200, url


def test_the_api_answers_under_a_prefix(prefixed):
    assert prefixed.get("/vizgrad/api/health").json()["status"] == "ok"
    trace = prefixed.post("/vizgrad/api/trace", json={"example": "fork"})
    assert trace.status_code == 200
    assert [m["text"] for m in trace.json()["metrics"]] == ["−6", "−3", "−8"]
    r = prefixed.post("/vizgrad/api/render", json=FORK)
    assert r.status_code == 200 and r.text.lstrip().startswith(("<svg", "<?xml"))


def test_a_cached_render_is_found_without_building_its_graph(client, monkeypatch):
    from vizgrad.lab import _service

    built = []
    real = _service.build_graph
    monkeypatch.setattr(_service, "build_graph", lambda *a: built.append(1) or real(*a))
    first = client.post("/api/render", json=FORK)
    again = client.post("/api/render", json=FORK)
    assert again.headers["x-vizgrad-cache"] == "hit" and again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    assert again.headers["x-vizgrad-step"] == "3" and len(built) == 1
    other = client.post("/api/render", json={**FORK, "values": {"a": 1, "b": 3}})
    assert other.headers["x-vizgrad-cache"] == "miss" and other.content != first.content
    assert len(built) == 2


def _behind_proxy(app, prefix: str):
    """The app as uvicorn --root-path PREFIX passes on what nginx stripped of PREFIX: the
    path keeps the prefix and ``root_path`` names it; anything outside the prefix is 404."""
    async def proxy(scope, receive, send):
        if scope["type"] == "http" and not scope["path"].startswith(prefix + "/"):
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b"outside the prefix"})
            return
        await app({**scope, "root_path": prefix}, receive, send)
    return proxy


def test_the_page_works_in_a_browser_under_a_prefix(browser, free_port):
    import threading

    import uvicorn

    sync_api = pytest.importorskip("playwright.sync_api")
    server = uvicorn.Server(uvicorn.Config(_behind_proxy(create_app(), "/vizgrad"),
                                           host="127.0.0.1", port=free_port, lifespan="off",
                                           log_level="warning", ws="none"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{free_port}/vizgrad/"
    context = browser.new_context(viewport={"width": 1200, "height": 1000}, locale="en-GB")
    try:
        pg = context.new_page()
        asked: list[tuple[str, int]] = []
        pg.on("response", lambda r: asked.append((r.url, r.status)))
        pg.goto(base)
        expect = sync_api.expect
        expect(pg.locator("body")).to_have_attribute("data-ready", "true", timeout=20_000)
        pg.click("#last")
        expect(pg.locator("#metric-grad-a")).to_have_text("−3", timeout=20_000)
        expect(pg.locator("#metric-grad-b")).to_have_text("−8", timeout=20_000)
        urls = [u for u, _ in asked]
        assert any("/vizgrad/api/trace" in u for u in urls)
        assert any("/vizgrad/static/lab.js" in u for u in urls)
        bad = [(u, s) for u, s in asked if not u.startswith(base) or s >= 400]
        assert not bad, bad
    finally:
        context.close()
        server.should_exit = True
        thread.join(timeout=10)
