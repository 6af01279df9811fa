"""Numbers on slides are plain decimals from 0.001 on (a slide's two decimals used to write
0.057 as 5.7e−2): every number of every slide of every example, read from the SVG text."""

from __future__ import annotations

import re

import pytest

from vizgrad import draw, examples

E_NUMBER = re.compile(r"([−-]?\d+(?:\.\d+)?)e([−-]?\d+)")


@pytest.mark.parametrize("name", examples.names())
def test_no_slide_writes_a_number_from_0_001_on_in_e_notation(name):
    d = draw(examples.graph(name), preset="slides")
    for k in [*range(d.scene.last + 1), None]:
        for svg in d.at("final" if k is None else k).slides():
            for text in re.findall(r">([^<>]+)</text>", svg):
                for mantissa, exponent in E_NUMBER.findall(text):
                    value = float(mantissa.replace("−", "-")) * 10 ** int(
                        exponent.replace("−", "-"))
                    assert abs(value) < 1e-3, (name, k, text)
