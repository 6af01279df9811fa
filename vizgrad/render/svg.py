"""Moved to :mod:`vizgrad.render.write.svg`; this path keeps working."""

from .write.svg import DEFAULT_MAX_NODES, SAVE_FORMATS, Drawing, draw

__all__ = ["DEFAULT_MAX_NODES", "SAVE_FORMATS", "Drawing", "draw"]
