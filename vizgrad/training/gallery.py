"""The gallery's training example, ``moons-train``: written by ``vizgrad render`` beside the
chapter's examples (``OUT/moons-train/``, Chinese in ``OUT/moons-train/zh/``), with its
section appended to each language's gallery page.

Its files stay small: the player within :data:`PLAYER_BYTES` (the detailed steps that fit),
the GIF within :data:`GIF_BYTES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .moons import NAME, moons_training
from ..exceptions import RenderError
from ..i18n import t
from ..runtime.files import write_atomic

__all__ = ["GIF_BYTES", "PLAYER_BYTES", "write_gallery"]

PLAYER_BYTES = 2_000_000
GIF_BYTES = 1_000_000


def _readme(lang: str) -> str:
    return "README.md" if lang == "en" else f"README.{lang}.md"


def write_gallery(root: Path, langs: Sequence[str]) -> list[Path]:
    """Train the moons net once and write its player, summary, GIF and JSON in each language
    of ``langs``; append its section to each ``README`` already in ``root``."""
    from .film import write_film
    from .page import training_html
    from .summary import summary_svg

    training = moons_training(detail=[0, 59])  # as many as the budget holds: step 0
    written = []
    for lang in langs:
        folder = root / NAME if lang == "en" else root / NAME / lang
        folder.mkdir(parents=True, exist_ok=True)
        page = training_html(training, lang=lang, max_bytes=PLAYER_BYTES).encode("utf-8")
        write_atomic(folder / f"{NAME}.html", page)
        write_atomic(folder / f"{NAME}.svg", summary_svg(training, lang).encode("utf-8"))
        write_film(training, folder / f"{NAME}.gif", lang)
        if (folder / f"{NAME}.gif").stat().st_size > GIF_BYTES:
            raise RenderError(f"{NAME}.gif is over {GIF_BYTES} bytes: show fewer steps")
        written += [folder / f"{NAME}.{s}" for s in ("html", "svg", "gif")]
        rel = NAME if lang == "en" else f"{NAME}/{lang}"
        readme = root / _readme(lang)
        if readme.is_file():
            text = readme.read_text("utf-8").rstrip("\n")
            links = t("gallery.train.links", lang, html=f"{rel}/{NAME}.html",
                      gif=f"{rel}/{NAME}.gif")
            section = (f"\n\n## {NAME}\n\n{t('example.moons-train', lang)}\n\n"
                       f"![{t('gallery.train.alt', lang)}]({rel}/{NAME}.svg)\n\n{links}\n")
            write_atomic(readme, (text + section).encode("utf-8"))
    write_atomic(root / NAME / f"{NAME}.json", (training.to_json(indent=1) + "\n").encode())
    return written + [root / NAME / f"{NAME}.json"]
