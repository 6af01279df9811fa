"""Animation frames of the forward and backward pass: PNG/SVG frames, GIF, MP4, WebP.

One frame per step: frame ``k`` shows the graph right after step ``k`` on a
fixed Graphviz layout, with values appearing as they are computed, the
active node and its edges highlighted, each contribution on its edge
(``local × upstream = amount`` and the target's running total), a caption
with the chain rule and a table of every node::

    >>> import tempfile, pathlib
    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b)
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> [p.name for p in frames(q, out / "frames")][:3]
    ['frame-000.png', 'frame-001.png', 'frame-002.png']
    >>> animate(q, out / "fork.gif", duration=0.5, hold=2).name
    'fork.gif'

The figure and its artists are built once; each frame only changes their
text, colours and visibility and is drawn with the Agg canvas. Output is
byte-identical for the same graph and matplotlib version.
"""

from __future__ import annotations

import io
import math
import os
import re
import secrets
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .._budget import too_many_values
from .._files import write_atomic
from ..exceptions import GraphTooLargeError, OptionError, RenderError
from ..graph import as_graph
from ..tracing import states
from ._scene import Options, Scene
from .svg import DEFAULT_MAX_NODES

__all__ = ["frames", "animate", "FRAME_FORMATS", "ANIMATION_FORMATS", "find_ffmpeg"]

FRAME_FORMATS = ("png", "svg")
ANIMATION_FORMATS = (".gif", ".mp4", ".webp")
_FRAME_NAME = re.compile(r"frame-(\d{3,})\.(png|svg)")


def _check_graph(x: Any, max_nodes: int) -> Any:
    G = as_graph(x)
    n = G.number_of_nodes()
    if n > max_nodes:
        raise GraphTooLargeError(
            f"{too_many_values(n, max_nodes)}, and would need {len(G.graph['steps']):,} "
            f"frames; animate a smaller expression, or pass max_nodes={n} to render it "
            "anyway (slowly)"
        )
    return G


def _steps(G: Any, steps: Iterable[int] | None) -> list[int]:
    n = len(G.graph["steps"])
    if steps is None:
        return list(range(n))
    chosen = list(steps)
    bad = [k for k in chosen if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < n]
    if bad or not chosen:
        raise OptionError(
            f"steps must be a non-empty list of step numbers 0..{n - 1}, got {chosen!r}"
        )
    return chosen


def _scene(x: Any, opts: dict[str, Any]) -> tuple[Any, Scene, list[int]]:
    max_nodes = opts.pop("max_nodes", DEFAULT_MAX_NODES)
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise OptionError(f"max_nodes must be a whole number ≥ 1, got {max_nodes!r}")
    steps = opts.pop("steps", None)
    G = _check_graph(x, max_nodes)
    return G, Scene(G, Options.make(**opts)), _steps(G, steps)


def _render(G: Any, scene: Scene, steps: list[int], draw: Any,
            progress: Any = None) -> list[Any]:
    """Show each chosen step and collect ``draw()``'s result; states replay once.

    ``progress(1)`` is called after each frame (a progress bar's hook)."""
    wanted = set(steps)
    shown: dict[int, Any] = {}
    for state in states(G.graph["steps"]):
        if state.step in wanted:
            scene.show(state)
            shown[state.step] = draw()
            if progress is not None:
                progress(1)
    return [shown[k] for k in steps]


def _temp_path(path: Path) -> Path:
    """A fresh file beside ``path`` (mode 0666 less the umask, unlike mkstemp's 0600)."""
    for _ in range(100):
        tmp = path.with_name(f".{path.stem}.{secrets.token_hex(4)}.part{path.suffix}")
        try:
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            return tmp
        except FileExistsError:
            continue
    raise RenderError(f"could not create a temporary file beside {path}")


def _out_dir(path: Any) -> Path:
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise RenderError(f"{out} exists and is not a folder; give frames() a folder to write into")
    out.mkdir(parents=True, exist_ok=True)
    return out


def frames(x: Any, out_dir: str | os.PathLike[str], fmt: str = "png", **opts: Any) -> list[Path]:
    """Write one image per step, ``frame-000.png`` …, and return their paths.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        out_dir: the folder (created if missing). Frames of the same format
            left there by an earlier, longer run are removed.
        fmt: ``"png"`` or ``"svg"``.
        **opts: ``size`` (inches, ``(w, h)``), ``dpi``, ``theme`` (``"light"``,
            ``"dark"``), ``decimals``, ``rankdir``, ``backend`` and ``timeout``
            (of the layout), ``table_rows`` (rows of the node table; 0 hides it),
            ``steps`` (which steps, default all), ``max_nodes`` (default 2000,
            as :func:`vizgrad.draw`), ``progress`` (called with 1 after each frame).
    """
    if fmt not in FRAME_FORMATS:
        raise RenderError(f"unknown frame format {fmt!r} (must be one of {list(FRAME_FORMATS)})")
    opts = dict(opts)
    progress = opts.pop("progress", None)
    G, scene, steps = _scene(x, opts)
    out = _out_dir(out_dir)
    width = max(3, len(str(len(G.graph["steps"]) - 1)))
    paths: list[Path] = []

    def write() -> Path:
        path = out / f"frame-{len(paths):0{width}d}.{fmt}"
        write_atomic(path, scene.png() if fmt == "png" else scene.svg())
        paths.append(path)
        return path

    _render(G, scene, steps, write, progress)
    for old in out.iterdir():
        m = _FRAME_NAME.fullmatch(old.name)
        if m and m.group(2) == fmt and old not in paths:
            old.unlink()
    return paths


def find_ffmpeg() -> str | None:
    """The ffmpeg program: on PATH, else the one ``imageio-ffmpeg`` ships, else None."""
    found = shutil.which("ffmpeg")
    if found:
        return found
    try:
        import imageio_ffmpeg
    except ImportError:
        return None
    try:
        return str(imageio_ffmpeg.get_ffmpeg_exe())
    except (RuntimeError, OSError):
        return None


def _durations(n: int, duration: float, hold: float | Sequence[float]) -> list[int]:
    """Milliseconds per frame, rounded to GIF's 10 ms; first and last held longer."""
    if isinstance(hold, (list, tuple)) and len(hold) == 2:
        first, last = hold
    else:
        first = last = hold
    for what, v in (("duration", duration), ("hold", first), ("hold", last)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < math.inf:
            raise OptionError(f"{what} must be a positive number of seconds, got {v!r}")
    ms = [max(10, round(duration * 100) * 10)] * n
    ms[0] = max(ms[0], round(first * 100) * 10)
    ms[-1] = max(ms[-1], round(last * 100) * 10)
    return ms


def _palette(images: list[Any]) -> list[tuple[int, int, int]]:
    """One palette for every frame: the 256 most frequent colours of a sample.

    Theme colours, fills and text are the frequent ones, so they stay exact;
    rarer antialiasing shades map to their nearest neighbour.
    """
    from PIL import Image

    picks = images[:: max(1, len(images) // 16)]
    w, h = images[0].size
    small = [im.resize((max(1, w // 2), max(1, h // 2)), Image.Resampling.NEAREST)
             for im in picks]
    strip = Image.new("RGB", (small[0].width, small[0].height * len(small)))
    for i, im in enumerate(small):
        strip.paste(im, (0, i * im.height))
    counts: list[Any] = strip.getcolors(strip.width * strip.height) or []
    return [tuple(rgb) for _, rgb in sorted(counts, key=lambda c: (-c[0], c[1]))[:256]]


def _quantize(images: list[Any], palette: list[tuple[int, int, int]]) -> list[Any]:
    """Map every pixel to its nearest palette colour (exact colours stay exact)."""
    import numpy as np
    from PIL import Image

    arrays = [np.asarray(im, np.uint32) for im in images]
    keys = [(k[..., 0] << 16) | (k[..., 1] << 8) | k[..., 2] for k in arrays]
    present = np.zeros(1 << 24, bool)
    for k in keys:
        present[k] = True
    colours = np.nonzero(present)[0]
    rgb = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], 1).astype(int)
    pal = np.asarray(palette, int)
    lut = np.zeros(1 << 24, np.uint8)
    for i in range(0, len(rgb), 4096):
        d = ((rgb[i:i + 4096, None, :] - pal[None, :, :]) ** 2).sum(2)
        lut[colours[i:i + 4096]] = d.argmin(1)
    flat = [v for c in palette for v in c]
    out = []
    for k in keys:
        im = Image.frombytes("P", (k.shape[1], k.shape[0]), lut[k].tobytes())
        im.putpalette(flat)
        out.append(im)
    return out


def _gif(images: list[Any], ms: list[int], loop: bool) -> bytes:
    palette = _palette(images)
    frames_p = _quantize(images, palette)
    buf = io.BytesIO()
    extra = {"loop": 0} if loop else {}
    frames_p[0].save(buf, format="GIF", save_all=True, append_images=frames_p[1:],
                     duration=ms, optimize=False, disposal=1,
                     palette=bytes(v for c in palette for v in c), **extra)
    return buf.getvalue()


def _webp(images: list[Any], ms: list[int], loop: bool) -> bytes:
    buf = io.BytesIO()
    images[0].save(buf, format="WEBP", save_all=True, append_images=images[1:], duration=ms,
                   loop=0 if loop else 1, lossless=True, method=3)
    return buf.getvalue()


def _mp4(images: list[Any], ms: list[int], path: Path, background: str = "white") -> None:
    exe = find_ffmpeg()
    if exe is None:
        raise RenderError(
            "writing .mp4 needs ffmpeg: install it so that `ffmpeg` is on your PATH "
            "(e.g. apt install ffmpeg, brew install ffmpeg), or `pip install imageio-ffmpeg`, "
            "which ships a binary; or write a .gif instead"
        )
    # constant frame rate: one video frame per `step` ms (at most 50 fps); a held
    # frame is repeated, which H.264 stores almost for free
    ticks = [max(1, int(d / 20 + 0.5)) for d in ms]
    step = 20 * math.gcd(*ticks)
    w, h = images[0].size
    tmp = _temp_path(path)
    cmd = [exe, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
           "-s", f"{w}x{h}", "-framerate", f"1000/{step}", "-i", "-",
           "-vf", f"pad=ceil(iw/2)*2:ceil(ih/2)*2:color={background}", "-c:v", "libx264",
           "-pix_fmt", "yuv420p", "-tune", "stillimage", "-map_metadata", "-1",
           "-fflags", "+bitexact", "-flags:v", "+bitexact", "-movflags", "+faststart",
           "-f", "mp4", str(tmp)]
    try:
        with subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            stdin, stderr = proc.stdin, proc.stderr
            try:
                for im, t in zip(images, ticks):
                    raw = im.tobytes()
                    for _ in range(t * 20 // step):
                        stdin.write(raw)  # type: ignore[union-attr]
                stdin.close()  # type: ignore[union-attr]
            except BrokenPipeError:
                pass
            err = stderr.read().decode(errors="replace")  # type: ignore[union-attr]
            code = proc.wait()
        if code != 0:
            raise RenderError(f"ffmpeg ({exe}) failed writing {path.name}: {err.strip()[-500:]}")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def animate(x: Any, path: str | os.PathLike[str], **opts: Any) -> Path:
    """Write the animation, in the format the suffix names: ``.gif``, ``.mp4`` or ``.webp``.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        path: the output file; written atomically.
        **opts: ``duration`` (seconds per frame, default 1.0), ``hold`` (seconds
            on the first and last frame, default 2.5, or a ``(first, last)``
            pair), ``loop`` (default True) and every option of :func:`frames`.

    Raises:
        RenderError: unknown suffix, bad option, or no ffmpeg for ``.mp4``.
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
    opts = dict(opts)
    duration = opts.pop("duration", 1.0)
    hold = opts.pop("hold", 2.5)
    loop = opts.pop("loop", True)
    progress = opts.pop("progress", None)
    if not isinstance(loop, bool):
        raise OptionError(f"loop must be True or False, got {loop!r}")
    G, scene, steps = _scene(x, opts)
    ms = _durations(len(steps), duration, hold)
    if suffix == ".mp4" and find_ffmpeg() is None:
        _mp4([], ms, out)  # raises the error that says how to get ffmpeg
    images = _render(G, scene, steps, scene.image, progress)
    if suffix == ".gif":
        write_atomic(out, _gif(images, ms, loop))
    elif suffix == ".webp":
        write_atomic(out, _webp(images, ms, loop))
    else:
        _mp4(images, ms, out, scene.theme.background)
    return out
