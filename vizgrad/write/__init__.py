"""A scene written out: SVG, animated SVG, slides, the HTML player and its views.

Each writer reads a :class:`~vizgrad.scene.Scene` and its looks, never a Value:
``svg`` (``draw`` and the :class:`Drawing`), ``_svgout`` (SVG text), ``animated``,
``slides``, ``playback`` (one picture and per-step changes, for the player and the lab),
``html`` (the self-contained player) and ``_views`` (its openable groups).
``picture`` holds the matplotlib side: pictures, frames, GIF, MP4, WebP.
"""

__all__: list[str] = []
