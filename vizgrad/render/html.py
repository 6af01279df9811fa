"""Moved to :mod:`vizgrad.render.write.html`; this path keeps working."""

from .write.html import estimate, player_html, player_parts

__all__ = ["estimate", "player_html", "player_parts"]
