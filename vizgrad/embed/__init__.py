"""Pictures inside other documents: notebooks, Sphinx and MkDocs (Python-Markdown).

``blocks`` turns an option block into a picture or a player, ``html`` writes the figure,
iframe or error box; ``notebook``, ``sphinx`` and ``markdown`` are the three hosts. Users
name the extensions ``vizgrad.sphinx`` and ``vizgrad.markdown``, which re-export these.
"""

__all__: list[str] = []
