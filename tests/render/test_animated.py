"""The animated SVG: its structure, its static fallback, its options and its bytes.

What it looks like at each moment in a real browser is in test_animated_browser.py.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from vizgrad import examples
from vizgrad.exceptions import OptionError
from vizgrad.write.animated import frame_times
from vizgrad.write.svg import draw

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def fork():
    return draw(examples.graph("fork"))


@pytest.fixture(scope="module")
def fork_svg(fork) -> str:
    return fork.animated_svg()


def prefix_of(svg: str) -> str:
    match = re.search(r'<pattern id="(v[0-9a-f]{6}-)vg-hatch-', svg)
    assert match, "no prefixed hatch pattern"
    return match.group(1)


def versions(svg: str, shape: str) -> list[ET.Element]:
    """The elements written for one shape of the scene (one per version of a text)."""
    p = prefix_of(svg)
    root = ET.fromstring(svg)
    return [el for el in root.iter() if el.get("id") in (p + shape,)
            or (el.get("id") or "").startswith(f"{p}{shape}.")]


def test_no_script_no_handlers_no_external_references(fork_svg):
    root = ET.fromstring(fork_svg)
    tags = {el.tag.removeprefix(NS) for el in root.iter()}
    assert "script" not in tags and "foreignObject" not in tags
    attrs = {a for el in root.iter() for a in el.attrib}
    assert not [a for a in attrs if a.lower().startswith("on")]
    assert not [a for a in attrs if a.endswith("href")]
    assert "url(http" not in fork_svg and "@import" not in fork_svg
    assert "<script" not in fork_svg.lower() and "javascript:" not in fork_svg.lower()


def test_style_has_keyframes_and_a_reduced_motion_rule(fork_svg):
    p = prefix_of(fork_svg)
    style = ET.fromstring(fork_svg).find(f"{NS}style").text
    names = re.findall(r"@keyframes ([\w-]+)\{", style)
    assert len(names) > 10 and all(n.startswith(p) for n in names)
    used = {c for el in ET.fromstring(fork_svg).iter()
            for c in (el.get("class") or "").split() if c.startswith(p)}
    assert used == set(names)  # every class has its keyframes, every keyframes is used
    assert f"@media (prefers-reduced-motion:reduce){{[class*={p}k]{{animation:none}}}}" in style
    assert "animation-timing-function:step-end" in style
    assert "animation-iteration-count:infinite" in style


def test_a_caption_line_has_one_version_per_step(fork, fork_svg):
    scene = fork.scene
    shown = [el.text for el in versions(fork_svg, "cap-0")]
    expected = [scene.caption_lines(k)[0] for k in [*range(scene.last + 1), None]]
    assert shown == expected and len(set(shown)) == scene.last + 2


def test_a_grad_has_one_version_per_distinct_look(fork, fork_svg):
    scene = fork.scene
    looks = [scene.look(k)["t-v0-grad"] for k in [*range(scene.last + 1), None]]
    distinct = list(dict.fromkeys((lk["text"], lk.get("bold", "")) for lk in looks))
    got = [(el.text, "1" if el.get("font-weight") else "")
           for el in versions(fork_svg, "t-v0-grad")]
    assert got == distinct
    assert {t for t, _ in got} == {"—", "−6", "−3"}


def test_a_box_is_written_once_and_changes_colour_by_keyframes(fork_svg):
    (box,) = versions(fork_svg, "c-v0-grad")
    cls = box.get("class").split()[-1]
    rule = re.search(rf"@keyframes {cls}\{{(.*?)\}}\n",
                     ET.fromstring(fork_svg).find(f"{NS}style").text)
    assert "fill:url(#" in rule.group(1) and "fill:#" in rule.group(1)


def _without_animation(svg: str) -> list[str]:
    """The shapes a viewer without CSS animation draws, with the unprefixed ids."""
    p = prefix_of(svg)
    body = svg[svg.index("</style>") + len("</style>\n"):]
    out = []
    for line in body.splitlines()[1:-1]:  # past the background, before </svg>
        if ' opacity="0"' in line:
            continue
        line = re.sub(rf' {p}k\d+"', '"', line).replace(f"url(#{p}", "url(#")
        out.append(re.sub(rf'id="{p}([^".]+)(\.\d+)?"', r'id="\1"', line))
    return out


def _final_shapes(d) -> list[str]:
    static = d.svg(full_height=True).splitlines()  # the animation keeps one height
    return static[static.index(next(s for s in static if 'class="vg-background"' in s)) + 1:-1]


@pytest.mark.parametrize("name", ["fork", "softmax-nll", "overwrite-bug"])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_without_css_animation_it_is_the_final_view(name, theme):
    d = draw(examples.graph(name), theme=theme)
    assert _without_animation(d.animated_svg()) == _final_shapes(d)


def test_rsvg_draws_the_final_view(tmp_path, fork, fork_svg):
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is not installed (apt install librsvg2-bin)")
    (tmp_path / "a.svg").write_text(fork_svg, encoding="utf-8")
    (tmp_path / "s.svg").write_text(fork.svg(full_height=True), encoding="utf-8")
    for name in ("a", "s"):
        subprocess.run(["rsvg-convert", str(tmp_path / f"{name}.svg"), "-o",
                        str(tmp_path / f"{name}.png")], check=True, timeout=60)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "s.png").read_bytes()


def test_same_input_same_bytes_and_other_options_other_bytes(fork, fork_svg):
    again = draw(examples.graph("fork")).animated_svg()
    assert again == fork_svg and fork.at(3).animated_svg() == fork_svg
    assert fork.animated_svg(hold=1.5) != fork_svg
    assert fork.animated_svg(loop=False) != fork_svg
    assert "animation-iteration-count:1;" in fork.animated_svg(loop=False)


def test_prefixes_differ_so_two_svgs_on_one_page_never_share_an_id(fork_svg):
    other = draw(examples.graph("shared-node")).animated_svg()
    p, q = prefix_of(fork_svg), prefix_of(other)
    assert p != q and prefix_of(draw(examples.graph("fork"), theme="dark").animated_svg()) != p
    for svg, pre in ((fork_svg, p), (other, q)):
        ids = [el.get("id") for el in ET.fromstring(svg).iter() if el.get("id")]
        assert len(ids) == len(set(ids)) and all(i.startswith(pre) for i in ids)
    assert not {el.get("id") for el in ET.fromstring(fork_svg).iter()} & {
        el.get("id") for el in ET.fromstring(other).iter() if el.get("id")}


def test_the_duration_is_the_steps_and_the_final_hold(fork):
    svg = fork.animated_svg(hold=1.5, final_hold=3)
    assert "animation-duration:15s;" in svg  # 8 steps of 1.5 s, then 3 s
    times = frame_times(fork.scene, 1.5, 3)
    assert len(times) == fork.scene.last + 2 and times[-1] == (12.0, 15.0)
    # the keyframes switch exactly where a frame starts
    offsets = set(re.findall(r"[}{]([\d.]+)%\{", svg))
    starts = {f"{100 * a / 15:.3f}".rstrip("0").rstrip(".") for a, _ in times}
    assert offsets <= starts and len(offsets) > 3


@pytest.mark.parametrize("kwargs, message", [
    ({"hold": 0}, "hold must be a number of seconds from 0.1 to 600, got 0"),
    ({"hold": -1.0}, "hold must be a number of seconds"),
    ({"hold": "2"}, "got '2'"),
    ({"hold": True}, "hold must be a number of seconds"),
    ({"hold": math.nan}, "got nan"),
    ({"hold": math.inf}, "got inf"),
    ({"final_hold": 601}, "final_hold must be a number of seconds from 0.1 to 600, got 601"),
    ({"loop": "yes"}, "loop must be True .* or False"),
    ({"loop": 1}, "loop must be True"),
])
def test_bad_options_say_what_is_wrong(fork, kwargs, message):
    with pytest.raises(OptionError, match=message):
        fork.animated_svg(**kwargs)


def test_a_graph_without_backward_plays_the_forward_pass():
    from vizgrad import Value, to_networkx, trace

    a = Value(2.0, label="a")
    G = to_networkx(trace(a * a + a))
    d = draw(G)
    svg = d.animated_svg()
    # the final view is the last forward step: its first caption line is that step's
    assert len(versions(svg, "cap-0")) == len(G.graph["steps"])
    assert [el.text for el in versions(svg, "cap-1")][-1] == d.scene.word("caption.not_run")
    assert _without_animation(svg) == _final_shapes(d)
