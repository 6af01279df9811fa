"""The self-contained HTML step player: the page, its openable views, its script bundle.

``page`` (:func:`player_html`), ``views`` (one picture per group opened), ``finding`` (what
the find box searches), ``bundle`` (the shared ES modules of ``assets/vg`` as one script) and
``assets/`` (the style sheet and the scripts, not Python).
"""

__all__: list[str] = []
