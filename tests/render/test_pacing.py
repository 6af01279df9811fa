"""One reading pace for the GIF, the animated SVG and the player's Play (issue 21 item 6):
a frame is held longer when its caption has more to read; explicit options still win."""

from __future__ import annotations

import re

from PIL import Image

from vizgrad import draw, examples, player_html
from vizgrad.write.raster import frames as fr

# the fork's frames, worked out by hand: each is held its phase's least time (inputs 1.5 s,
# forward 1, seed 2, backward 2, final 4) or 0.5 s plus its chain-rule lines at 20
# characters a second: "u = a × b = −6" (14 characters) 1.2 s, "v = a + b = 1" (13) 1.1 s,
# step 5's two lines (41 + 45) 4.8 s, step 6's (47 + 47) 5.2 s, step 7's (45 + 45) 5.0 s
# the final view: its gradients (23 characters) and its check (81): 0.5 + 104 / 20 = 5.7 s
FORK_MS = [1500, 1200, 1100, 1200, 2000, 4800, 5200, 5000, 5700]


def test_the_gif_holds_a_long_caption_longer(tmp_path):
    with Image.open(fr.animate(examples.graph("fork"), tmp_path / "fork.gif")) as im:
        held = []
        for i in range(im.n_frames):
            im.seek(i)
            held.append(im.info["duration"])
    assert held == FORK_MS


def test_the_animated_svg_and_the_player_keep_the_same_pace():
    svg = draw(examples.graph("fork")).animated_svg()
    assert "animation-duration:27.7s;" in svg  # the sum of FORK_MS
    page = player_html(examples.graph("fork"))
    assert re.search(r'data-interval="([\d ]+)"', page).group(1) == " ".join(map(str, FORK_MS))


def test_explicit_timings_win():
    assert "animation-duration:15s;" in draw(examples.graph("fork")).animated_svg(
        hold=1.5, final_hold=3)
    assert 'data-interval="700"' in player_html(examples.graph("fork"), interval_ms=700)

