"""The step-by-step record of a graph's forward and backward pass.

``recorder`` (:func:`trace`, :class:`Trace`, :func:`replay`), ``walk`` (the chapter's
order), ``backward`` (each closure run and its contributions recorded), ``records`` (the
compact records and the dicts they stand for), ``stream`` (a compact trace's steps, read one
at a time), ``names`` and ``roles`` (names a student reads: ``ŷ[0]``, ``L0.N2.w1``) and
``nets`` (a micrograd-style net's parameters named and grouped).

    >>> from vizgrad.tracing import trace
    >>> from vizgrad import Value
    >>> a = Value(2.0, label="a")
    >>> [s["kind"] for s in trace(a * a).steps]
    ['inputs', 'forward', 'seed', 'backward']
"""

from .recorder import FORMAT, READ_FORMATS, State, Trace, replay, states, strict_json, trace

__all__ = ["FORMAT", "READ_FORMATS", "State", "Trace", "replay", "states", "strict_json", "trace"]
