"""Make the system Graphviz's PDF byte-stable: the only varying bytes are its dates.

Graphviz writes PDF through cairo, which stamps ``/CreationDate`` (and, in some
versions, ``/ModDate``) with the current time, to the second; cairo before 1.17.6
ignores ``SOURCE_DATE_EPOCH``. Everything else (objects, ids, font subset tags,
derived from the glyphs used) is already the same for the same input. The dates
are set to 1970-01-01 00:00:00 UTC, what a cairo that honours ``SOURCE_DATE_EPOCH=0``
writes, keeping every byte offset so the cross-reference table stays valid::

    >>> stable_pdf(b"%PDF-1.5 /CreationDate (D:20261203101912Z) /ModDate (D:20261203101912+01'00')")
    b"%PDF-1.5 /CreationDate (D:19700101000000Z) /ModDate (D:19700101000000+00'00')"
    >>> stable_pdf(b"\\x89PNG...") == b"\\x89PNG..."
    True
"""

from __future__ import annotations

import re

__all__ = ["stable_pdf"]

# D:YYYYMMDDHHmmSS, then Z or +HH'mm' / -HH'mm' (the apostrophes are optional)
_DATE = re.compile(rb"(/(?:CreationDate|ModDate)\s*\(D:)(\d{14})(Z|[+-]\d\d'?\d\d'?)?(\))")
_EPOCH = b"19700101000000"


def _epoch(match: re.Match[bytes]) -> bytes:
    zone = match.group(3) or b""
    if zone[:1] in (b"+", b"-"):
        zone = b"+" + re.sub(rb"\d", b"0", zone[1:])  # same length, UTC
    return match.group(1) + _EPOCH + zone + match.group(4)


def stable_pdf(data: bytes) -> bytes:
    """``data`` with the PDF's creation and modification dates set to the epoch, same length.

    Anything that is not a PDF is returned unchanged.
    """
    if not data.startswith(b"%PDF"):
        return data
    return _DATE.sub(_epoch, data)
