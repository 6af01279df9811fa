"""The training player in Chromium, from file:// with the network off."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from vizgrad.training import train
from vizgrad.training.moons import moons_training

pytest.importorskip("micrograd", reason="micrograd is not installed")

MODELS = Path(__file__).resolve().parents[1] / "models"


@pytest.fixture(scope="module")
def course_page(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("train_course_page", MODELS / "train_course.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    t = train(m.build, 20, 0.05, model=m.n, samples=(m.xs, m.ys), detail=[0, 10, 19])
    return t.save(tmp_path_factory.mktemp("train") / "course.html")


def _open(browser, path, width=1400, height=900):
    context = browser.new_context(viewport={"width": width, "height": height}, offline=True)
    page = context.new_page()
    problems, requests = [], []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("request", lambda req: requests.append(req.url))
    page.goto(path.as_uri())
    return context, page, problems, requests


def _state(page):
    return page.evaluate("""() => ({
        cx: document.querySelector('#loss circle.mark').getAttribute('cx'),
        fills: Array.from(document.querySelectorAll('#grad .cell')).map(c => c.style.background),
        update: document.getElementById('update').textContent,
        status: document.getElementById('status').textContent})""")


def test_moving_to_step_10_moves_the_mark_the_colours_and_the_update(browser, course_page):
    context, page, problems, requests = _open(browser, course_page)
    before = _state(page)
    assert before["status"].startswith("training step 0 / 19")
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    after = _state(page)
    assert after["status"].startswith("training step 10 / 19")
    assert after["cx"] != before["cx"]
    assert after["fills"] != before["fills"]
    assert after["update"] != before["update"] and ".data += −lr × " in after["update"]
    # a click on the curve's far right end moves to the last step
    box = page.locator("#loss svg").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    assert _state(page)["status"].startswith("training step 19 / 19")
    context.close()
    assert problems == [] and all(u.startswith("file://") for u in requests), (problems,
                                                                             requests)


def test_open_shows_the_detailed_steps_backward_pass(browser, course_page):
    context, page, problems, _ = _open(browser, course_page)
    assert page.locator("button.open").all_text_contents() == [
        "open step 0", "open step 10", "open step 19"]
    page.click("button.open[data-step='10']")
    frame = page.frame_locator("#detail-frame")
    start = frame.locator("body").inner_text()
    assert "inputs are set" in start and "training" not in start  # the step player, step 0
    frame.get_by_role("button", name="Next").click()
    frame.get_by_role("button", name="Last").click()
    page.wait_for_timeout(300)
    assert "every gradient is final" in frame.locator("body").inner_text()
    assert "training step 10 / 19" in page.locator("#status").inner_text()
    context.close()
    assert problems == [], problems


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
def test_the_moons_player_plays_on_a_wide_and_a_phone_screen(browser, tmp_path, width, height):
    path = moons_training(steps=30, detail=[]).save(tmp_path / "moons.html")
    context, page, problems, _ = _open(browser, path, width, height)
    page.click("#play")
    page.wait_for_timeout(1500)
    k = int(page.locator("#status").inner_text().split()[2])
    assert k >= 2  # it moved by itself
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.keyboard.press(" ")
    context.close()
    assert problems == [], problems


def test_the_notebook_display_runs_the_player_in_its_frame(browser, tmp_path):
    t = moons_training(steps=5, detail=[])
    path = tmp_path / "notebook.html"
    path.write_text(f"<!DOCTYPE html><html><body>{t._repr_html_()}</body></html>", "utf-8")
    context, page, problems, _ = _open(browser, path)
    status = page.frame_locator("iframe").locator("#status")
    assert status.inner_text().startswith("training step 0 / 4")
    context.close()
    assert problems == [], problems
