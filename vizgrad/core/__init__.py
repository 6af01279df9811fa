"""The chapter's engine: the :class:`~vizgrad.core.value.Value`, groups, ``nn``, expressions.

Standard library only. ``value`` (the Value and its operations), ``floats`` (operands made
floats, the one overflow rule), ``groups`` (``with group("L0/N1"):``), ``display`` (the slot
a notebook fills), ``nn`` (the course's MLP), ``expr`` (the safe expression parser) and
``numerals`` (numbers as every picture writes them).
"""

__all__: list[str] = []
