"""A scene drawn by matplotlib: pictures, frames, and their encodings (GIF, MP4, WebP).

``frames`` is the entry point (``frames``, ``animate``); ``_picture`` draws a scene
once and applies each step's looks as a diff; ``_redraw`` and ``_glyphs`` keep that
cheap; ``_fonts`` picks the fonts; ``_encode`` writes GIF, WebP and MP4.
"""

__all__: list[str] = []
