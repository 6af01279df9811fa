"""Renderers: each reads a graph from :func:`vizgrad.to_networkx`, never a Value.

The folders show the order of the work, each importing only from those before it:

- the modules here: words and numbers (:mod:`~vizgrad.render.text`), text widths,
  themes, presets and the reading pace, shared by everything below;
- :mod:`vizgrad.render.scene`: from a graph to a picture laid out once: the graph drawn
  (``prepare``), Graphviz (``layout``), geometry, the shapes, their looks per step;
- :mod:`vizgrad.render.write`: the scene written out: SVG, animated SVG, slides, the
  HTML player and its views; ``write.picture``: matplotlib pictures, frames, GIF, MP4;
- ``assets/``: the player's scripts and style sheet (not Python).

``vizgrad.render.svg``, ``vizgrad.render.html`` and ``vizgrad.render.frames`` keep
their old import paths.
"""

__all__: list[str] = []
