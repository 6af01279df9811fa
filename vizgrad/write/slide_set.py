"""Slides written as one set: marked, never over a file vizgrad did not write, swapped in
through a journal so a kill leaves the old set or the new one, never a mix.

``-o deck.svg`` with the ``slides`` preset writes ``deck.svg`` (one slide) or ``deck-1.svg``,
``deck-2.svg`` … Each of several slides carries a marker comment naming its set, its place
and the set's size (:data:`MARKER`); one slide is written as ``Drawing.slides()`` makes it,
with no marker. Writing a set:

1. finishes or undoes what a killed run left (:func:`recover`), and sweeps its temporary files;
2. refuses to replace a ``deck-k.svg`` without the marker (a file of yours) unless ``force``;
3. writes every slide into a hidden folder beside them (``.deck.slides-XXXX/``);
4. writes the journal (``.deck.slides.journal``: what moves in, what goes), atomically;
5. moves the slides in, removes the slides of the earlier set the new one does not replace
   (marked files only), then removes the journal and the folder.

A kill before step 4 leaves the old set (the next run removes the hidden folder); a kill
after it leaves a journal that the next run, or :func:`recover`, carries out to the end: the
new set. Nothing but marked files and the set's own temporary files is ever removed::

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "deck-9.svg").write_text("<svg/>")   # a file of yours
    >>> [p.name for p in write_set(d / "deck.svg", ["<svg/>", "<svg/>"])]
    ['deck-1.svg', 'deck-2.svg']
    >>> sorted(p.name for p in d.iterdir())
    ['deck-1.svg', 'deck-2.svg', 'deck-9.svg']
    >>> [p.name for p in write_set(d / "deck.svg", ["<svg/>"])]    # one slide: the rest go
    ['deck.svg']
    >>> sorted(p.name for p in d.iterdir())
    ['deck-9.svg', 'deck.svg']
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from ..exceptions import RenderError
from ..runtime.files import glob_escape, sweep_one, write_atomic

__all__ = ["MARKER", "marked", "names", "recover", "write_set"]

#: the comment each slide of a set carries: set id (a hash of the set), its place, its size
MARKER = "<!-- vizgrad slide set {set_id} {k}/{n} -->"
_MARK = re.compile(r"<!-- vizgrad slide set ([0-9a-f]+) (\d+)/(\d+) -->")


def names(out: Path, n: int) -> list[Path]:
    """The files of a set of ``n`` slides written as ``out``."""
    if n == 1:
        return [out]
    return [out.with_name(f"{out.stem}-{k}{out.suffix}") for k in range(1, n + 1)]


def marked(path: Path) -> tuple[str, int, int] | None:
    """``(set id, k, n)`` of a slide vizgrad wrote, or None for any other file."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    m = _MARK.search(head)
    return (m.group(1), int(m.group(2)), int(m.group(3))) if m else None


def _members(out: Path) -> list[Path]:
    """``out`` and every ``NAME-k.svg`` beside it."""
    pattern = re.compile(re.escape(out.stem) + r"-\d+" + re.escape(out.suffix))
    found = [p for p in out.parent.glob(f"{glob_escape(out.stem)}-*{out.suffix}")
             if pattern.fullmatch(p.name)]
    return ([out] if out.exists() else []) + sorted(found)


def _journal(out: Path) -> Path:
    return out.with_name(f".{out.stem}.slides.journal")


def _with_marker(page: str, set_id: str, k: int, n: int) -> str:
    mark = MARKER.format(set_id=set_id, k=k, n=n)
    if page.startswith("<?xml"):
        end = page.index("?>") + 2
        return page[:end] + "\n" + mark + page[end:]
    return mark + "\n" + page


def _carry_out(out: Path, plan: dict[str, object]) -> None:
    """Move the journal's slides in and remove its stale ones (again if need be)."""
    folder = out.parent / str(plan["temp"])
    for name in plan["files"]:  # type: ignore[attr-defined]
        src = folder / str(name)
        if src.exists():
            os.replace(src, out.parent / str(name))
    for name in plan["stale"]:  # type: ignore[attr-defined]
        old = out.parent / str(name)
        if marked(old) is not None:
            old.unlink(missing_ok=True)


def recover(out: Path) -> None:
    """Finish the set a killed run of ``out`` had committed (its journal), and remove what
    any killed run left: the hidden folders and temporary files of the set."""
    journal = _journal(out)
    if journal.exists():
        try:
            plan = json.loads(journal.read_text(encoding="utf-8"))
            _carry_out(out, plan)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a journal is written whole (write_atomic): an unreadable one is not ours
        journal.unlink(missing_ok=True)
    for left in out.parent.glob(f".{glob_escape(out.stem)}.slides-*"):
        if left.is_dir() and not left.is_symlink():
            shutil.rmtree(left, ignore_errors=True)
    for left in out.parent.glob(f".{glob_escape(journal.name)}.*.tmp"):
        left.unlink(missing_ok=True)  # a journal killed while written: never committed
    for member in [out, *names(out, 2), *_members(out)]:
        sweep_one(member)  # .NAME-k.svg.XXXXXXXX.tmp of an earlier, per-file writer


def write_set(out: Path, pages: list[str], force: bool = False) -> list[Path]:
    """Write ``pages`` as one marked set named after ``out`` (see the module doc); return
    the paths. A ``NAME-k.svg`` the set would replace that vizgrad did not write raises
    :class:`~vizgrad.exceptions.RenderError` unless ``force``."""
    recover(out)
    targets = names(out, len(pages))
    if len(pages) > 1 and not force:
        foreign = [p for p in targets if p.exists() and marked(p) is None]
        if foreign:
            raise RenderError(
                f"{foreign[0]} is not a slide vizgrad wrote (it has no slide-set marker), and "
                f"this set of {len(pages)} slides would replace it; move it away, choose "
                "another -o name, or pass --force to replace it")
    keep = {p.name for p in targets}
    stale = [p.name for p in _members(out) if p.name not in keep and marked(p) is not None]
    digest = hashlib.sha256()  # the same slides, the same files: the id is their hash
    for page in pages:
        digest.update(page.encode("utf-8") + b"\0")
    set_id = digest.hexdigest()[:12]
    try:
        temp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.stem}.slides-"))
        for k, (path, page) in enumerate(zip(targets, pages), 1):
            text = page if len(pages) == 1 else _with_marker(page, set_id, k, len(pages))
            (temp / path.name).write_bytes(text.encode("utf-8"))  # one slide: the picture
        plan = {"temp": temp.name, "files": [p.name for p in targets], "stale": stale}
        write_atomic(_journal(out), json.dumps(plan).encode("utf-8"))
        _carry_out(out, plan)
        _journal(out).unlink(missing_ok=True)
        shutil.rmtree(temp, ignore_errors=True)
    except OSError as err:
        raise RenderError(f"cannot write the slides {out}: {err.strerror or err}") from None
    return targets
