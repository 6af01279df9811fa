"""The gallery's training example, ``moons-train``: written by ``vizgrad render`` beside the
chapter's examples (``OUT/moons-train/``, Chinese in ``OUT/moons-train/zh/``), with its
section on each language's gallery page (:func:`readme_section`, which the export adds).

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

__all__ = ["GIF_BYTES", "PLAYER_BYTES", "readme_section", "write_gallery"]

#: the training page's budget: its data and the step-0 player in the layer view, whose layers
#: show their weights as matrices (about 1.4 MB)
PLAYER_BYTES = 2_200_000
GIF_BYTES = 1_000_000


def readme_section(lang: str, formats: Sequence[str] | None = None) -> str:
    """The example's section of the gallery page in ``lang``, linking the files that
    :func:`write_gallery` writes with the same ``formats``."""
    chosen = set(formats or ("html", "svg", "gif", "json"))
    rel = NAME if lang == "en" else f"{NAME}/{lang}"
    links = " · ".join(
        [t("gallery.train.player", lang, html=f"{rel}/{NAME}.html")] * ("html" in chosen)
        + [t("gallery.train.film", lang, gif=f"{rel}/{NAME}.gif")] * ("gif" in chosen))
    picture = (f"![{t('gallery.train.alt', lang)}]({rel}/{NAME}.svg)\n\n"
               if "svg" in chosen else "")
    return f"## `{NAME}`\n\n{t('example.moons-train', lang)}\n\n{picture}{links}\n"


def write_gallery(root: Path, langs: Sequence[str],
                  formats: Sequence[str] | None = None) -> list[Path]:
    """Train the moons net once and write its player, summary, GIF and JSON in each language
    of ``langs`` (of ``formats``, the batch's names: html, svg, gif, json; all by default).
    Its section of the gallery page is :func:`readme_section`."""
    from .film import write_film
    from .page import training_html
    from .summary import summary_svg

    chosen = set(formats or ("html", "svg", "gif", "json"))
    if not chosen & {"html", "svg", "gif", "json"}:
        return []
    training = moons_training(detail=[0, 59])  # as many as the budget holds: step 0
    written = []
    for lang in langs:
        folder = root / NAME if lang == "en" else root / NAME / lang
        folder.mkdir(parents=True, exist_ok=True)
        if "html" in chosen:
            page = training_html(training, lang=lang, max_bytes=PLAYER_BYTES)
            write_atomic(folder / f"{NAME}.html", page.encode("utf-8"))
        if "svg" in chosen:
            write_atomic(folder / f"{NAME}.svg", summary_svg(training, lang).encode("utf-8"))
        if "gif" in chosen:
            write_film(training, folder / f"{NAME}.gif", lang)
            if (folder / f"{NAME}.gif").stat().st_size > GIF_BYTES:
                raise RenderError(f"{NAME}.gif is over {GIF_BYTES} bytes: show fewer steps")
        written += [folder / f"{NAME}.{s}" for s in ("html", "svg", "gif") if s in chosen]
    if "json" not in chosen:
        return written
    (root / NAME).mkdir(parents=True, exist_ok=True)
    write_atomic(root / NAME / f"{NAME}.json", (training.to_json(indent=1) + "\n").encode())
    return written + [root / NAME / f"{NAME}.json"]
