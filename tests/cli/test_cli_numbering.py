"""One numbering: the gallery's step files, --step N, the player's counter and draw(step=N)
count the same steps of the same view (issue 32)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from vizgrad import draw, examples
from vizgrad.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def _counter(svg: str) -> str:
    texts = " ".join(t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text"))
    return re.search(r"step \d+ / \d+", texts).group(0)


def test_course_mlp_counts_one_way_in_every_medium(tmp_path):
    from click.testing import CliRunner

    run = CliRunner()
    out = tmp_path / "g"
    res = run.invoke(main, ["render", "course-mlp", "--out", str(out), "--format", "svg,html",
                            "-q"])
    assert res.exit_code == 0, res.output
    files = sorted((out / "course-mlp" / "steps").glob("step-*.svg"))
    page = (out / "course-mlp" / "course-mlp.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="vg-data">(.*?)</script>', page, re.S).group(1))
    assert data["last"] + 1 == len(files) == 22  # the player's steps are the gallery's
    assert _counter(files[13].read_text(encoding="utf-8")) == "step 13 / 21"
    one = tmp_path / "13.svg"
    assert run.invoke(main, ["render", "course-mlp", "--step", "13", "-o", str(one),
                             "-q"]).exit_code == 0
    assert _counter(one.read_text(encoding="utf-8")) == "step 13 / 21"
    assert _counter(draw(examples.graph("course-mlp"), step=13).svg()) == "step 13 / 21"
    html = tmp_path / "13.html"
    assert run.invoke(main, ["render", "course-mlp", "--step", "13", "-o", str(html),
                             "-q"]).exit_code == 0
    assert 'data-start="13"' in html.read_text(encoding="utf-8")
