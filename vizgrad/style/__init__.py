"""How a picture reads: words and numbers, text widths, themes and presets.

``text`` (formulas, captions, chain rules), ``metrics`` (text widths of the font drawn),
``theme`` (light and dark, the gradient palette) and ``presets`` (docs, slides, compact).
"""

__all__: list[str] = []
