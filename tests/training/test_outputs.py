"""What a training writes: the JSON format, the SVG summary's text sizes, the film."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from vizgrad.core.nn import MLP
from vizgrad.training import train
from vizgrad.training.film import MAX_FRAMES, shown_steps
from vizgrad.training.moons import moons_training


@pytest.fixture(scope="module")
def moons():
    return moons_training(steps=12, detail=[])


def test_the_json_names_every_step_its_loss_and_each_parameters_data_and_grad(moons, tmp_path):
    path = moons.save(tmp_path / "t.json")
    doc = json.loads(path.read_text("utf-8"))
    assert doc["format"] == "vizgrad-training" and doc["lr"] == "0.5 - 0.4*k/60"
    assert len(doc["steps"]) == 12
    first = doc["steps"][0]
    assert first["loss"] == moons.run.losses[0]
    assert first["lr"] == 0.5
    assert first["parameters"][0] == {"name": "L0.N0.w0", "data": moons.run.data[0][0],
                                      "grad": moons.run.grads[0][0]}
    assert len(first["parameters"]) == 2 * 8 + 8 + 8 * 8 + 8 + 8 + 1
    assert len(first["predictions"]) == 16
    assert [n["name"] for n in doc["net"]["layers"][2]["neurons"]] == ["L2.N0"]
    assert doc["net"]["layers"][0]["neurons"][1]["parameters"] == ["L0.N1.w0", "L0.N1.w1",
                                                                    "L0.N1.b"]
    # data is before the update: step 1's is step 0's moved by −lr × grad
    d0, g0, d1 = first["parameters"][5], doc["steps"][0]["parameters"][5]["grad"], \
        doc["steps"][1]["parameters"][5]["data"]
    assert d1 == d0["data"] + -0.5 * g0
    assert moons.to_json() == moons_training(steps=12, detail=[]).to_json()  # deterministic


def _smallest(svg: str) -> tuple[float, float, float]:
    root = ET.fromstring(svg)
    width = float(root.get("width").removesuffix("pt"))
    height = float(root.get("height").removesuffix("pt"))
    return width, height, min(float(el.get("font-size")) for el in root.iter()
                              if el.get("font-size"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_summary_reads_at_1400_px_and_on_a_slide(moons, tmp_path, lang):
    svg = moons.save(tmp_path / "t.svg", lang=lang).read_text("utf-8")
    width, height, small = _smallest(svg)
    px = small * 4 / 3 * min(1.0, 1400 / (width * 4 / 3))
    pt = small * min(1.0, 960 / width, 540 / height)
    assert px >= 12 and pt >= 14, (px, pt)
    texts = " ".join(el.text or "" for el in ET.fromstring(svg).iter())
    assert ("step 6" if lang == "en" else "第 6 步") in texts


def test_the_gif_shows_each_step_in_a_few_kilobytes(moons, tmp_path):
    from PIL import Image

    path = moons.save(tmp_path / "t.gif")
    with Image.open(path) as im:
        assert im.n_frames == 12
    assert path.stat().st_size < 12 * 15_000


def test_a_film_shows_at_most_200_steps():
    assert len(shown_steps(1000)) == MAX_FRAMES == 200
    assert shown_steps(1000)[0] == 0 and shown_steps(1000)[-1] == 999


def test_an_unknown_suffix_writes_nothing(moons, tmp_path):
    from vizgrad.exceptions import RenderError

    with pytest.raises(RenderError, match="is saved as one of"):
        moons.save(tmp_path / "t.png")
    assert list(tmp_path.iterdir()) == []


def test_show_gives_the_training_player():
    import vizgrad

    net = MLP(2, [2, 1], seed=1)
    t = train(lambda: (net([1.0, 2.0]) - 1) ** 2, steps=2, lr=0.1, model=net, detail=[])
    assert vizgrad.show(t) is t
    assert "<iframe srcdoc=" in t._repr_html_()


def test_the_markdown_train_block_draws_the_moons_summary():
    from vizgrad.embed.markdown import block_html

    html = block_html("train: moons-train\n")
    assert html.startswith('<figure class="vizgrad vizgrad-svg"><img src="data:image/svg+xml;')
    assert "vizgrad block" in block_html("train: circles\n")  # an error box, not a picture


def test_the_gallery_section_links_only_what_the_formats_write():
    from vizgrad.training.gallery import readme_section

    everything = readme_section("en")
    assert "moons-train/moons-train.html" in everything and "moons-train.gif" in everything
    assert "moons-train.gif" not in readme_section("zh", ["svg", "html"])
    assert "moons-train/zh/moons-train.svg" in readme_section("zh", ["svg"])


def test_the_mp4_is_written_when_ffmpeg_is_there(moons, tmp_path):
    from vizgrad.write.raster.encode import find_ffmpeg

    if find_ffmpeg() is None:
        pytest.skip("ffmpeg is not installed (apt install ffmpeg, or pip install imageio-ffmpeg)")
    path = moons.save(tmp_path / "t.mp4")
    assert path.read_bytes()[4:8] == b"ftyp"
