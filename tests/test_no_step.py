""""No step given" has one meaning per medium, the table in docs/drawing.md; each row here
(the lab's in tests/lab/test_lab_values.py).

Expected values are literals of the fork graph (steps 0..7): the final view has no step
number, the player opens at 0, the lab answers the last step, 7.
"""

from __future__ import annotations

import re

import vizgrad
from vizgrad import examples
from vizgrad.embed.blocks import Spec, alt_text


def test_a_picture_shows_the_final_view():
    assert vizgrad.draw(examples.graph("fork")).step is None
    assert alt_text(Spec(example="fork")) == "example fork, the final view"


def test_an_animation_plays_every_step_then_the_final_view():
    assert alt_text(Spec(example="fork", animated=True)) == \
        "example fork, animated: steps 0 to 7, then the final view"


def test_the_player_opens_at_step_0():
    page = vizgrad.player_html(examples.graph("fork"))
    assert re.search(r'<main id="player"[^>]* data-start="(\d+)"', page).group(1) == "0"
    assert alt_text(Spec(example="fork", player=True)) == "example fork, step 0 of 7"

