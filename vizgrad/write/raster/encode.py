"""Encode frames as GIF (one global palette), lossless WebP, or H.264 MP4 through ffmpeg.

Frames are kept zlib-compressed in memory (:class:`FrameStore`): mostly
background, they shrink twenty-fold or more, so long animations of large
graphs fit in memory::

    >>> from PIL import Image
    >>> store = FrameStore()
    >>> store.add(Image.new("RGB", (40, 20), "white")); len(store), store.size
    (1, (40, 20))
    >>> gif([*store], [500], loop=True)[:6]
    b'GIF89a'
"""

from __future__ import annotations

import io
import math
import os
import secrets
import shutil
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...exceptions import RenderError

__all__ = ["FrameStore", "find_ffmpeg", "gif", "mp4", "webp"]


class FrameStore:
    """RGB frames of one size, compressed; iterate to get PIL images back."""

    def __init__(self) -> None:
        self.blobs: list[bytes] = []
        self.size = (0, 0)

    def pack(self, image: Any) -> bytes:
        """The compressed bytes of ``image`` (which sets the store's frame size)."""
        self.size = image.size
        return zlib.compress(image.tobytes(), 1)

    def add(self, image: Any) -> None:
        self.blobs.append(self.pack(image))

    def __len__(self) -> int:
        return len(self.blobs)

    def image(self, i: int) -> Any:
        from PIL import Image

        return Image.frombytes("RGB", self.size, zlib.decompress(self.blobs[i]))

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self.image(j) for j in range(len(self.blobs))[i]]
        return self.image(i)

    def __iter__(self) -> Iterator[Any]:
        return (self.image(i) for i in range(len(self.blobs)))


def _palette(images: Any) -> list[tuple[int, int, int]]:
    """One palette for every frame: the 256 most frequent colours of a sample.

    Theme colours, fills and text are the frequent ones, so they stay exact;
    rarer antialiasing shades map to their nearest neighbour.
    """
    from PIL import Image

    picks = images[:: max(1, len(images) // 16)]
    w, h = picks[0].size
    small = [im.resize((max(1, w // 2), max(1, h // 2)), Image.Resampling.NEAREST)
             for im in picks]
    strip = Image.new("RGB", (small[0].width, small[0].height * len(small)))
    for i, im in enumerate(small):
        strip.paste(im, (0, i * im.height))
    counts: list[Any] = strip.getcolors(strip.width * strip.height) or []
    return [tuple(rgb) for _, rgb in sorted(counts, key=lambda c: (-c[0], c[1]))[:256]]


def _rgb(images: Any, i: int) -> Any:
    """Frame ``i`` as an (h, w, 3) uint8 array (straight from a store's bytes)."""
    import numpy as np

    if isinstance(images, FrameStore):
        w, h = images.size
        return np.frombuffer(zlib.decompress(images.blobs[i]), np.uint8).reshape(h, w, 3)
    return np.asarray(images[i].convert("RGB"), np.uint8)


def _keys(a: Any) -> Any:
    """Each pixel of an (h, w, 3) uint8 array as one integer 0xRRGGBB."""
    import numpy as np

    k = np.zeros((*a.shape[:2], 4), np.uint8)
    k[..., 0], k[..., 1], k[..., 2] = a[..., 2], a[..., 1], a[..., 0]  # little-endian BGR0
    return k.view("<u4")[..., 0]


class _Nearest:
    """The nearest palette colour of every 24-bit colour, worked out once per colour, as
    frames show it (ties go to the lower index, so the order of frames does not matter)."""

    def __init__(self, palette: list[tuple[int, int, int]]) -> None:
        import numpy as np

        self.pal = np.asarray(palette, np.int32)
        self.lut = np.zeros(1 << 24, np.uint8)
        self.known = np.zeros(1 << 24, bool)
        self.seen = np.zeros(1 << 24, bool)

    def __call__(self, keys: Any) -> Any:
        import numpy as np

        unknown = keys[~self.known[keys]]
        if unknown.size:
            self.seen[unknown] = True
            new = np.flatnonzero(self.seen)
            self.seen[new] = False
            rgb = np.stack([(new >> 16) & 255, (new >> 8) & 255, new & 255], 1).astype(np.int32)
            for i in range(0, len(rgb), 4096):
                d = ((rgb[i:i + 4096, None, :] - self.pal[None, :, :]) ** 2).sum(2)
                self.lut[new[i:i + 4096]] = d.argmin(1)
            self.known[new] = True
        return self.lut[keys]


def _quantize(images: Any, palette: list[tuple[int, int, int]]) -> list[Any]:
    """Map every pixel to its nearest palette colour (exact colours stay exact), one pass
    over the frames: each is decompressed once, each colour's nearest is worked out once,
    and only the pixels that differ from the frame before are looked up."""
    from PIL import Image

    nearest = _Nearest(palette)
    flat = [v for c in palette for v in c]
    out = []
    last = idx = None
    for i in range(len(images)):
        keys = _keys(_rgb(images, i))
        if last is None or last.shape != keys.shape:
            idx = nearest(keys)
        else:
            changed = keys != last
            idx = idx.copy()
            idx[changed] = nearest(keys[changed])
        last = keys
        p = Image.frombytes("P", (idx.shape[1], idx.shape[0]), idx.tobytes())
        p.putpalette(flat)
        out.append(p)
    return out


def gif(images: list[Any] | FrameStore, ms: list[int], loop: bool) -> bytes:
    """An animated GIF with one global palette; ``ms`` are the frame durations."""
    palette = _palette(images)
    frames_p = _quantize(images, palette)
    buf = io.BytesIO()
    extra = {"loop": 0} if loop else {}
    frames_p[0].save(buf, format="GIF", save_all=True, append_images=frames_p[1:],
                     duration=ms, optimize=False, disposal=1,
                     palette=bytes(v for c in palette for v in c), **extra)
    return buf.getvalue()


def webp(images: list[Any] | FrameStore, ms: list[int], loop: bool) -> bytes:
    """A lossless animated WebP."""
    seq = list(images)
    buf = io.BytesIO()
    seq[0].save(buf, format="WEBP", save_all=True, append_images=seq[1:], duration=ms,
                loop=0 if loop else 1, lossless=True, method=3)
    return buf.getvalue()


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


def no_ffmpeg() -> RenderError:
    return RenderError(
        "writing .mp4 needs ffmpeg: install it so that `ffmpeg` is on your PATH "
        "(e.g. apt install ffmpeg, brew install ffmpeg), or `pip install imageio-ffmpeg`, "
        "which ships a binary; or write a .gif instead"
    )


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


def mp4(images: list[Any] | FrameStore, ms: list[int], path: Path,
        background: str = "white") -> None:
    """Write an H.264 MP4 at a constant frame rate (held frames repeat) to ``path``."""
    exe = find_ffmpeg()
    if exe is None:
        raise no_ffmpeg()
    # one video frame per `step` ms (at most 50 fps); a held frame is repeated,
    # which H.264 stores almost for free
    ticks = [max(1, int(d / 20 + 0.5)) for d in ms]
    step = 20 * math.gcd(*ticks)
    seq = iter(images)
    first = next(seq)
    w, h = first.size
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
                for im, t in zip(_chain(first, seq), ticks):
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


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest
