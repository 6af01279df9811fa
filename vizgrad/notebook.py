"""The interactive step player in Jupyter and other notebooks.

``vizgrad.show(x)`` returns a :class:`Stepper`; a notebook displays it (as the
cell's last expression, or through ``IPython.display.display``) as the step
player: buttons, slider, keys, the node table and the caption. A
:class:`~vizgrad.Trace`, and a vizgrad ``Value`` after ``backward()``, display
the same way::

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b); q.backward()
    >>> bundle = show(q)._repr_mimebundle_()
    >>> sorted(bundle)
    ['image/svg+xml', 'text/html', 'text/plain']
    >>> bundle["text/html"].startswith('<div class="vizgrad-frame" style="resize:vertical;')
    True

The player is :func:`vizgrad.player_html`'s page in a sandboxed ``<iframe
srcdoc>``: it needs no kernel, no network and no notebook extension, keeps
working in a notebook exported by nbconvert, and several players on one page
never share an id, a style or a key press. Front ends that run no script show
the static SVG (``image/svg+xml``) instead.
"""

from __future__ import annotations

from typing import Any

from ._display import register
from ._embed import _NEWER, _draw_params, _player_params, iframe_html
from .exceptions import OptionError, VizgradError

__all__ = ["Stepper", "show", "DISPLAY_MAX_NODES"]

#: a Value or a Trace displays as a player only up to this many nodes (show() draws more):
#: the player lays out every step, so a display of a larger graph would take seconds
DISPLAY_MAX_NODES = 30

_SHOW_OPTIONS = ("theme", "rankdir", "decimals", "backend", "title", "interval_ms", "timeout",
                 "fit", "preset", "lang")
#: the options of large graphs (see :mod:`vizgrad.collapse`), applied before the player
_SHRINK_OPTIONS = ("collapse", "focus", "radius", "group_steps", "merge_constants", "model")


class Stepper:
    """A graph ready to display as a step player; see :func:`show`."""

    def __init__(self, G: Any, start: int, options: dict[str, Any]) -> None:
        self.graph = G
        self.start = start
        self.options = options
        self._html: str | None = None
        self._svg: str | None = None

    def __repr__(self) -> str:
        from .render.text import name

        G = self.graph
        return (f"<Stepper of {name(G, G.graph['root'])}: {G.number_of_nodes()} nodes, "
                f"{len(G.graph['steps'])} steps>")

    def page(self) -> str:
        """The player as a complete HTML page (:func:`vizgrad.player_html`)."""
        from .render.html import player_html

        if self._html is None:
            self._html = player_html(self.graph, start=self.start, **self.options)
        return self._html

    def svg(self) -> str:
        """The static picture of the start step: the fallback for front ends without script."""
        from .render.svg import draw

        if self._svg is None:
            keep = {k: v for k, v in self.options.items() if k in _draw_params()}
            self._svg = draw(self.graph, self.start, **keep).svg()
        return self._svg

    def _repr_html_(self) -> str:
        return iframe_html(self.page(), f"vizgrad step player: {repr(self)[1:-1]}")

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "image/svg+xml": self.svg(),
                "text/plain": repr(self)}


def show(x: Any, step: int | str | None = None, **options: Any) -> Stepper:
    """A :class:`Stepper` of ``x``: a Value, a Trace, a graph or an example name.

    Args:
        x: what to step through; a Value is traced first (run ``backward()``
            on it to see the backward steps).
        step: the step shown first: a number, ``"first"`` or ``"final"``
            (default: the first step).
        options: passed to :func:`vizgrad.player_html` (``theme``,
            ``rankdir``, ``decimals``, ``fit``, ``interval_ms``, ...); and
            ``collapse``, ``focus``, ``radius``, ``group_steps``,
            ``merge_constants`` and ``model`` as for :func:`vizgrad.draw`
            (``step`` then counts the collapsed graph's steps).

    >>> show("fork", step="final")
    <Stepper of q: 5 nodes, 8 steps>
    >>> show("fork", colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: show() has no option 'colour'; the options are: theme, ...
    """
    from .graph import as_graph

    unknown = sorted(set(options) - set(_SHOW_OPTIONS) - set(_SHRINK_OPTIONS))
    if unknown:
        raise OptionError(f"show() has no option {', '.join(map(repr, unknown))}; "
                          f"the options are: {', '.join(_SHOW_OPTIONS + _SHRINK_OPTIONS)}")
    how = {k: options.pop(k) for k in _SHRINK_OPTIONS if k in options}
    model = how.pop("model", None)
    for key in _NEWER:
        if key in options and key not in _player_params():
            raise OptionError(f"{key}: this version of vizgrad cannot set a {key} for the "
                              f"player; leave it out or upgrade vizgrad")
    if isinstance(x, str):
        from . import examples

        G = examples.graph(x)
    else:
        G = as_graph(x, model)
    if how:
        from .render.svg import shrink

        G, _ = shrink(G, **how)
    last = len(G.graph["steps"]) - 1
    if step is None or step == "first":
        start = 0
    elif step == "final":
        start = last
    elif isinstance(step, int) and not isinstance(step, bool) and 0 <= step <= last:
        start = step
    else:
        raise OptionError(f"step must be a number from 0 to {last}, 'first' or 'final', "
                          f"got {step!r}")
    return Stepper(G, start, dict(options))


def bundle(x: Any, text: str) -> dict[str, str]:
    """The display of a Trace or a Value: the player's mimebundle with ``text`` as plain text.

    A graph the player refuses (too large) shows as ``text`` and the reason.
    """
    try:
        out = show(x)._repr_mimebundle_()
    except VizgradError as err:
        return {"text/plain": f"{text}\n(no step player: {err})"}
    out["text/plain"] = text
    return out


def trace_bundle(t: Any) -> dict[str, str]:
    """:func:`bundle` for a Trace of at most :data:`DISPLAY_MAX_NODES` nodes; else plain text."""
    text = repr(t)
    if len(t.nodes) > DISPLAY_MAX_NODES:
        return {"text/plain": f"{text}\n(more than {DISPLAY_MAX_NODES} nodes: "
                              "vizgrad.show(trace) draws its step player)"}
    return bundle(t, text)


def value_bundle(v: Any) -> dict[str, str] | None:
    """:func:`bundle` for a Value, or None (plain repr) when it is a leaf, has no grad yet,
    or has more than :data:`DISPLAY_MAX_NODES` nodes (``show(v)`` draws it anyway)."""
    if not getattr(v, "parents", ()) or not v.grad:
        return None
    seen, todo = {id(v)}, [v]
    while todo:
        for p in todo.pop().parents:
            if id(p) not in seen:
                seen.add(id(p))
                if len(seen) > DISPLAY_MAX_NODES:
                    return None
                todo.append(p)
    return bundle(v, repr(v))


register("value", value_bundle)
register("trace", trace_bundle)
