"""PDF from the system Graphviz is byte-stable: cairo's timestamps are set to the epoch."""

from __future__ import annotations

import re

import pytest

from vizgrad.render import layout
from vizgrad.render._pdf import stable_pdf
from vizgrad.render.svg import draw

HAS_DOT = "system" in layout.available_backends()


def _xref_ok(pdf: bytes) -> bool:
    """Every in-use entry of the cross-reference table points at its ``N 0 obj``."""
    start = int(re.search(rb"startxref\s+(\d+)", pdf).group(1))
    table = pdf[start:].split(b"trailer")[0].split(b"\n")
    first, count = map(int, table[1].split())
    entries = table[2:2 + count]
    for number, entry in enumerate(entries, first):
        offset, _, kind = entry.split()[:3]
        if kind == b"n" and not pdf[int(offset):].startswith(b"%d 0 obj" % number):
            return False
    return True


def _pdf(fork) -> bytes:
    if not HAS_DOT:
        pytest.skip("pdf needs the system Graphviz `dot` (apt install graphviz)")
    q, _, _ = fork
    q.backward()
    return draw(q, 7).layout("pdf")


def test_pdf_dates_are_the_epoch_and_the_file_stays_valid(fork):
    pdf = _pdf(fork)
    dates = re.findall(rb"/(?:CreationDate|ModDate)\s*\((D:[^)]*)\)", pdf)
    assert dates, "cairo wrote no date: nothing to normalise"
    assert all(d.startswith(b"D:19700101000000") for d in dates)
    assert _xref_ok(pdf)


def test_normalising_keeps_every_offset(fork):
    pdf = _pdf(fork)
    stamped = re.sub(rb"D:19700101000000", b"D:20261203101912", pdf)
    assert stamped != pdf
    assert stable_pdf(stamped) == pdf
    assert _xref_ok(stamped) and _xref_ok(stable_pdf(stamped))


def test_saves_are_byte_identical(fork, tmp_path):
    pdf = _pdf(fork)
    q, _, _ = fork
    d = draw(q, 7)
    # the date has one-second resolution; the second save may fall in another second
    assert d.save(tmp_path / "a.pdf").read_bytes() == pdf
    assert d.save(tmp_path / "b.pdf").read_bytes() == pdf


@pytest.mark.parametrize("zone", [b"Z", b"+01'00'", b"-0530", b"+09'00"])
def test_time_zones_keep_their_length(zone):
    raw = b"%PDF-1.5\n<< /CreationDate (D:20261203101912" + zone + b") >>"
    out = stable_pdf(raw)
    assert len(out) == len(raw)
    assert b"D:19700101000000" in out and b"2026" not in out


def test_other_bytes_are_untouched():
    png = b"\x89PNG /CreationDate (D:20261203101912Z)"
    assert stable_pdf(png) == png
