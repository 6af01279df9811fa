"""A training as a film (``.gif`` or ``.mp4``): per shown step the loss curve with the step
marked, the prediction over the input plane (2-D inputs) and the net's grads on that step's
own scale, the scale's end written. At most :data:`MAX_FRAMES` steps are shown (evenly
spread, the first and the last always); frames are drawn with Pillow, about 8 kB each in
a GIF.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .data import TrainingData
from .page import plane
from .summary import colour, num
from ..exceptions import RenderError
from ..i18n import catalogue, resolve
from ..runtime.files import write_atomic

__all__ = ["FRAME_BYTES", "MAX_FRAMES", "SIZE", "check_budget", "film_frames", "shown_steps",
           "write_film"]

MAX_FRAMES = 200
#: a frame's size in pixels
SIZE = (960, 540)
#: a frame's bytes at most, in a GIF or an MP4 (measured: about 7 kB in a GIF)
FRAME_BYTES = 16_000


def check_budget(steps: int, max_bytes: int, name: str = "the film") -> None:
    """Refuse, before anything is drawn, a film of ``steps`` steps estimated over ``max_bytes``.

    >>> check_budget(100, 10_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.RenderError: the film of 100 steps would be about 1.6 MB, over the ...
    """
    from ..export.budget import fmt_bytes

    size = len(shown_steps(steps)) * FRAME_BYTES
    if size > max_bytes:
        raise RenderError(f"{name} of {steps} steps would be about {fmt_bytes(size)}, over the "
                          f"budget of {fmt_bytes(max_bytes)}: raise --max-bytes, or write fewer "
                          "steps")


def shown_steps(n: int, most: int = MAX_FRAMES) -> list[int]:
    """The steps a film shows: all of them up to ``most``, else ``most`` evenly spread.

    >>> shown_steps(5), shown_steps(1000, 4)
    ([0, 1, 2, 3, 4], [0, 333, 666, 999])
    """
    if n <= most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})


def _font(size: int) -> Any:
    from PIL import ImageFont
    from matplotlib import font_manager

    for family in ("DejaVu Sans", "Noto Sans CJK SC"):
        try:
            path = font_manager.findfont(family, fallback_to_default=False)
            return ImageFont.truetype(path, size)
        except (ValueError, OSError):
            continue
    return ImageFont.load_default(size)


def _cjk(size: int) -> Any:
    from PIL import ImageFont
    from matplotlib import font_manager

    try:
        return ImageFont.truetype(font_manager.findfont("Noto Sans CJK SC",
                                                        fallback_to_default=False), size)
    except (ValueError, OSError):
        return _font(size)


def film_frames(t: TrainingData, lang: str | None = None) -> list[Any]:
    """The frames (Pillow images) of :func:`write_film`."""
    from PIL import Image, ImageDraw

    lang = resolve(lang)
    w = catalogue(lang)
    font = _cjk(22) if lang == "zh" else _font(22)
    small = _cjk(18) if lang == "zh" else _font(18)
    n = len(t.run)
    grid = plane(t, 24)
    losses = [v for v in t.run.losses if math.isfinite(v)]
    hi, lo = max(losses + [0.0]), min(losses + [0.0])
    hi = hi if hi > lo else lo + 1
    x0, x1, y0, y1 = 70, 470, 80, 470
    pts = [(x0 + (x1 - x0) * i / max(n - 1, 1), y1 - (y1 - y0) * (v - lo) / (hi - lo))
           for i, v in enumerate(t.run.losses)]
    base = Image.new("RGB", SIZE, "white")
    d = ImageDraw.Draw(base)
    d.line([(x0, y1), (x1, y1)], fill="#888888")
    d.line([(x0, y0), (x0, y1)], fill="#888888")
    d.line(pts, fill="#1f5fa8", width=3)
    d.text((x0 - 6, y0), num(hi), fill="black", font=small, anchor="rm")
    d.text((x0 - 6, y1), num(lo), fill="black", font=small, anchor="rm")
    d.text(((x0 + x1) / 2, y1 + 24), w["train.axis_step"], fill="black", font=small, anchor="mm")
    d.text((x0, y0 - 22), w["train.loss"], fill="black", font=small, anchor="lm")
    frames = []
    tall = max(len(layer["neurons"]) for layer in t.net["layers"])
    wide = sum(max(len(nr["parameters"]) for nr in layer["neurons"])
               for layer in t.net["layers"])
    for k in shown_steps(n):
        im = base.copy()
        d = ImageDraw.Draw(im)
        d.text((20, 16), w["train.step"].format(k=k, n=n - 1) + " · " +
               w["train.loss_at"].format(loss=num(t.run.losses[k])), fill="black", font=font)
        px, py = pts[k]
        d.line([(px, y0), (px, y1)], fill="#e67e22", width=2)
        d.ellipse([px - 7, py - 7, px + 7, py + 7], fill="#e67e22", outline="black")
        left, top = 520, 70
        if grid is not None:
            m, side = grid["n"], 10
            vals = grid["values"][k]
            for r in range(m):
                for c in range(m):
                    y = top + (m - 1 - r) * side
                    d.rectangle([left + c * side, y, left + c * side + side - 1, y + side - 1],
                                fill=colour(vals[r * m + c], 1.5))
            for x, label in zip(*t.samples):  # type: ignore[misc]
                sx = left + (x[0] - grid["x0"]) / (grid["x1"] - grid["x0"]) * m * side
                sy = top + m * side - (x[1] - grid["y0"]) / (grid["y1"] - grid["y0"]) * m * side
                fill, ring = ("#6b0000", "white") if label > 0 else ("white", "#0b2a66")
                d.ellipse([sx - 5, sy - 5, sx + 5, sy + 5], fill=fill, outline=ring, width=2)
            top += m * side + 16
        gtop = max((abs(v) for v in t.run.grads[k] if math.isfinite(v)), default=0.0)
        size = max(1, min(10, (SIZE[0] - left - 20) // max(wide + 1, 1),
                          (SIZE[1] - top - 40) // max(tall, 1)))
        x, i = left, 0
        for layer in t.net["layers"]:
            for r, neuron in enumerate(layer["neurons"]):
                for c, _ in enumerate(neuron["parameters"]):
                    d.rectangle([x + c * size, top + r * size, x + c * size + size - 1,
                                 top + r * size + size - 1],
                                fill=colour(t.run.grads[k][i], gtop))
                    i += 1
            x += max(len(nr["parameters"]) for nr in layer["neurons"]) * size + 4
        d.text((left, top + tall * size + 8), "grad ±" + num(gtop), fill="black", font=small)
        frames.append(im)
    return frames


def write_film(t: TrainingData, path: Path, lang: str | None = None,
               max_bytes: int | None = None) -> None:
    """Write ``path`` (``.gif`` or ``.mp4``): one frame per shown step, 150 ms each, the last
    held for 2 s; within the export budget (``max_bytes``, default
    :data:`vizgrad.export.budget.DEFAULT_MAX_BYTES`), checked before any frame is drawn."""
    from ..export.budget import DEFAULT_MAX_BYTES
    from ..write.raster.encode import gif, mp4

    if not len(t.run):
        raise RenderError(f"cannot write {path.name}: the training recorded no step")
    check_budget(len(t.run), DEFAULT_MAX_BYTES if max_bytes is None else max_bytes,
                 path.name)
    frames = film_frames(t, lang)
    ms = [150] * len(frames)
    ms[-1] = 2000
    if path.suffix.lower() == ".gif":
        write_atomic(path, gif(frames, ms, loop=True))
    else:
        mp4(frames, ms, path)
