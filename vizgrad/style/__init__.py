"""How a picture reads: words and numbers, text widths, themes and presets.

``text`` (captions, and the words below gathered), ``formulas`` (names, formulas, local
derivatives), ``chain`` (the chain rule's lines), ``folded`` and ``verdicts`` (the lines of a
collapsed box and of a disagreeing rule), ``metrics`` (text widths of the font drawn),
``theme`` (light and dark, the gradient palette) and ``presets`` (docs, slides, compact).
"""

__all__: list[str] = []
