"""Frames of the forward and backward pass: PNG/SVG frames, GIF, MP4, WebP, PNG and PDF.

Every frame is the same picture as :func:`vizgrad.draw` at that step: one
:class:`~vizgrad.scene.scene.Scene` (one layout), drawn by matplotlib with
the SVG's shapes, colours and fonts. Frame ``k`` shows the state right after
step ``k``; an animation ends on the final view::

    >>> import tempfile, pathlib
    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b)
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> [p.name for p in frames(q, out / "frames")][:3]
    ['frame-000.png', 'frame-001.png', 'frame-002.png']
    >>> animate(q, out / "fork.gif", duration=0.5, hold=2).name
    'fork.gif'

The figure and its artists are built once; each frame only changes what its
look changes, and only those regions are repainted. PNG, SVG, GIF and PDF
are byte-identical for the same graph, options and matplotlib version.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ...runtime.files import write_atomic
from ...exceptions import OptionError, RenderError
from ...options import Options, options_for
from .encode import FrameStore, find_ffmpeg, gif, mp4, no_ffmpeg, webp
from .picture import Picture, picture_bytes, rc
from ...scene.pacing import LEAST, reading_seconds
from ...scene.prepare import Prepared, fitted
from ...scene.scene import Scene
from ..svg import Drawing, graph_to_draw

__all__ = ["ANIMATION_FORMATS", "DURATIONS", "FINAL_HOLD", "FRAME_FORMATS", "animate", "durations",
           "find_ffmpeg", "frames", "picture_bytes"]

FRAME_FORMATS = ("png", "svg")
ANIMATION_FORMATS = (".gif", ".mp4", ".webp")
#: The least seconds each step's frame is shown, by the step's phase; a longer caption is
#: held longer (:mod:`vizgrad.scene.pacing`, the pace of the animated SVG and the player too).
DURATIONS = {k: v for k, v in LEAST.items() if k != "final"}
#: The least seconds the final view is shown.
FINAL_HOLD = LEAST["final"]
_FRAME_NAME = re.compile(r"frame-(\d{3,})\.(png|svg)")


def _scene(x: Any, options: Options | None, overrides: dict[str, Any],
           entry: str) -> tuple[Scene, Prepared]:
    o = options_for(entry, options, overrides)
    p, scene = fitted(graph_to_draw(x, o), o)
    return scene, p


def _steps(p: Prepared, steps: Iterable[int] | None, final: Any) -> list[int | None]:
    """The frames to draw: the drawn graph's steps, and ``None`` for the final view;
    ``steps`` are counted in the view drawn (as for :func:`vizgrad.draw`)."""
    if not isinstance(final, bool):
        raise OptionError(f"final must be True or False, got {final!r}")
    if steps is None:
        chosen: list[int | None] = list(range(p.view_last + 1))
    else:
        given = list(steps) if not isinstance(steps, (str, bytes)) else [steps]
        bad = [k for k in given if not isinstance(k, int) or isinstance(k, bool)
               or not 0 <= k <= p.view_last]
        if bad or not given:
            raise OptionError(f"steps must be a non-empty list of step numbers 0..{p.view_last}, "
                              f"got {steps!r}")
        chosen = [p.step(k) for k in given]
    return [*chosen, None] if final else chosen


def _draw(pic: Picture, ks: list[int | None], make: Any, progress: Any = None) -> list[Any]:
    """Show each chosen step (states replay once, in order) and collect ``make()``;
    ``progress(1)`` is called after each picture (a progress bar's hook)."""
    scene = pic.scene
    if progress is not None:
        inner = make

        def make() -> Any:
            out = inner()
            progress(1)
            return out

    done: dict[int | None, Any] = {}
    wanted = {k for k in ks if k is not None}
    with rc():
        if wanted:
            for k, state in enumerate(scene.states()):
                if k in wanted:
                    pic.show(scene.looks.all(k, state))
                    done[k] = make()
                if k >= max(wanted):
                    break
        if None in ks:
            pic.show(scene.look(None))
            done[None] = make()
    return [done[k] for k in ks]




def _out_dir(path: Any) -> Path:
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise RenderError(f"{out} exists and is not a folder; give frames() a folder to write into")
    out.mkdir(parents=True, exist_ok=True)
    return out


def frames(x: Any, out_dir: str | os.PathLike[str], fmt: str = "png", *,
           options: Options | None = None, steps: Iterable[int] | None = None,
           final: bool = False, dpi: float | None = None, size: Any = None, font: Any = None,
           progress: Any = None, **overrides: Any) -> list[Path]:
    """Write one image per step, ``frame-000.png`` …, and return their paths.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        out_dir: the folder (created if missing). Frames of the same format
            left there by an earlier, longer run are removed.
        fmt: ``"png"`` (drawn by matplotlib) or ``"svg"`` (the SVG of
            :func:`vizgrad.draw` at each step).
        options, overrides: the drawing options, as for :func:`vizgrad.draw`
            (a large graph is drawn collapsed, and frames then step through the
            collapsed graph's own steps).
        steps: which steps, counted in the view drawn (default: every drawn step).
        final: add the final view as the last frame.
        dpi: resolution (default 97.5: a 960 pt wide picture is 1300 px wide;
            large pictures are capped at 3840 px); ``size``: ``(width, height)``
            pixels to fit into, instead of ``dpi``; ``font``: a font file for
            Chinese words; ``progress``: called with 1 after each frame.
    """
    if fmt not in FRAME_FORMATS:
        raise RenderError(f"unknown frame format {fmt!r} (must be one of {list(FRAME_FORMATS)})")
    scene, p = _scene(x, options, overrides, "frames")
    ks = _steps(p, steps, final)
    if fmt == "png":
        pic = Picture(scene, dpi=dpi, size=size, font=font)
        data = _draw(pic, ks, pic.png, progress)
    else:
        data = [Drawing(scene, k).svg().encode("utf-8") for k in ks]
    out = _out_dir(out_dir)
    width = max(3, len(str(len(ks) - 1)))
    paths = []
    for i, blob in enumerate(data):
        path = out / f"frame-{i:0{width}d}.{fmt}"
        write_atomic(path, blob)
        paths.append(path)
    for old in out.iterdir():
        m = _FRAME_NAME.fullmatch(old.name)
        if m and m.group(2) == fmt and old not in paths:
            old.unlink()
    return paths


def _seconds(what: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < math.inf:
        raise OptionError(f"{what} must be a positive number of seconds, got {v!r}")
    return float(v)


def durations(scene: Scene, ks: list[int | None], duration: Any = None,
              hold: Any = None) -> list[int]:
    """Milliseconds per frame (GIF's 10 ms steps).

    ``duration`` is seconds per step frame: a number, or a mapping from phase
    (``inputs``, ``forward``, ``seed``, ``backward``) to seconds; a phase not given is
    held for its caption's reading time (:func:`vizgrad.scene.pacing.reading_seconds`).
    ``hold`` is seconds on the final view (default: its reading time, at least
    :data:`FINAL_HOLD`), or a ``(first, last)`` pair: the first frame is shown at least
    ``first``.
    """
    per: dict[str, float] = {}
    if isinstance(duration, Mapping):
        bad = sorted(set(duration) - set(DURATIONS), key=str)
        if bad:
            raise OptionError(f"duration keys must be phases {sorted(DURATIONS)}, got {bad[0]!r}")
        per.update({k: _seconds(f"duration[{k!r}]", v) for k, v in duration.items()})
    elif duration is not None:
        per = dict.fromkeys(DURATIONS, _seconds("duration", duration))
    first = None
    if isinstance(hold, (list, tuple)) and len(hold) == 2:
        first, hold = _seconds("hold", hold[0]), hold[1]
    last = reading_seconds(scene, None) if hold is None else _seconds("hold", hold)
    kinds = [s["kind"] for s in scene.facts.graph["steps"]]
    secs = [last if k is None else per[kinds[k]] if kinds[k] in per
            else reading_seconds(scene, k) for k in ks]
    if first is not None:
        secs[0] = max(secs[0], first)
    if ks[-1] is not None:  # no final view: the last step is held instead
        secs[-1] = max(secs[-1], last)
    return [max(10, round(s * 100) * 10) for s in secs]


def animate(x: Any, path: str | os.PathLike[str], *, options: Options | None = None,
            duration: Any = None, hold: Any = None, loop: bool = True,
            steps: Iterable[int] | None = None, final: bool = True, dpi: float | None = None,
            size: Any = None, font: Any = None, progress: Any = None,
            **overrides: Any) -> Path:
    """Write the animation, in the format the suffix names: ``.gif``, ``.mp4`` or ``.webp``.

    One frame per step, then the final view. Each frame is held for its caption's reading
    time, at least its phase's (:data:`DURATIONS`: backward steps 2 s, forward 1 s; the
    final view :data:`FINAL_HOLD` s): the pace of the animated SVG and the player's Play.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        path: the output file; written atomically.
        duration: seconds per step frame: a number, or a dict by phase (default: each
            caption's reading time, see :mod:`vizgrad.scene.pacing`).
        hold: seconds on the final view (default: its reading time, at least 4), or a
            ``(first, last)`` pair.
        loop: play again and again (GIF, WebP).
        final: end on the final view.
        options, overrides, steps, dpi, size, font, progress: as for :func:`frames`.

    Raises:
        RenderError: unknown suffix, no ffmpeg for ``.mp4``, no font for the words.
        OptionError: a bad option.
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in ANIMATION_FORMATS:
        raise RenderError(
            f"unknown animation format {out.suffix or '(no suffix)'!r} "
            f"(must be one of {list(ANIMATION_FORMATS)}); for single frames use frames()"
        )
    if not out.parent.is_dir():
        raise RenderError(f"the folder {out.parent} does not exist; create it first")
    if not isinstance(loop, bool):
        raise OptionError(f"loop must be True or False, got {loop!r}")
    scene, p = _scene(x, options, overrides, "animate")
    ks = _steps(p, steps, final)
    ms = durations(scene, ks, duration, hold)
    if suffix == ".mp4" and find_ffmpeg() is None:
        raise no_ffmpeg()
    pic = Picture(scene, dpi=dpi, size=size, font=font)
    store = FrameStore()
    store.blobs = _draw(pic, ks, lambda: store.pack(pic.image()), progress)
    if suffix == ".gif":
        write_atomic(out, gif(store, ms, loop))
    elif suffix == ".webp":
        write_atomic(out, webp(store, ms, loop))
    else:
        mp4(store, ms, out, scene.theme.background)
    return out
