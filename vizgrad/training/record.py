"""A recorded training that writes itself: :meth:`Training.save` by suffix (``.json``,
``.html`` the training player, ``.svg`` the summary, ``.gif``, ``.mp4``), and its notebook
display (the player in a frame). The numbers are :class:`~vizgrad.training.data.TrainingData`.
"""

from __future__ import annotations

import os
from pathlib import Path

from .data import SUFFIXES, Run, TrainingData
from ..exceptions import RenderError
from ..runtime.files import write_atomic

__all__ = ["Run", "Training"]


class Training(TrainingData):
    """What :func:`vizgrad.train` returns: the numbers, with :meth:`save`, :meth:`to_json`
    and notebook display (``vizgrad.show(training)``)."""

    def save(self, path: str | os.PathLike[str], *, lang: str | None = None,
             max_bytes: int | None = None) -> Path:
        """Write the record; the suffix names the format (``.json .html .svg .gif .mp4``).
        ``max_bytes``: the player's budget for its detailed steps (default 10 MB), or a
        film's (default the export's, 200 MB)."""
        target = Path(path)
        suffix = target.suffix.lower()
        if suffix not in SUFFIXES:
            raise RenderError(f"cannot write {target.name}: a training is saved as one of "
                              f"{', '.join(SUFFIXES)}")
        if suffix == ".json":
            write_atomic(target, (self.to_json(indent=1) + "\n").encode("utf-8"))
        elif suffix == ".html":
            from .page import training_html

            page = training_html(self, lang=lang) if max_bytes is None else \
                training_html(self, lang=lang, max_bytes=max_bytes)
            write_atomic(target, page.encode("utf-8"))
        elif suffix == ".svg":
            from .summary import summary_svg

            write_atomic(target, summary_svg(self, lang=lang).encode("utf-8"))
        else:
            from .film import write_film

            write_film(self, target, lang=lang, max_bytes=max_bytes)
        return target

    def _repr_html_(self) -> str:
        from .page import notebook_html

        return notebook_html(self)
