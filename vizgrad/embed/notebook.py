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

from ..core.display import register
from .blocks import iframe_html
from ..exceptions import VizgradError
from ..options import Options, StepArg, options_for

__all__ = ["Stepper", "show", "DISPLAY_MAX_NODES"]

#: a Value or a Trace displays as a player only up to this many nodes (show() draws more):
#: the player lays out every step, so a display of a larger graph would take seconds
DISPLAY_MAX_NODES = 30


class Stepper:
    """A graph ready to display as a step player; see :func:`show`."""

    def __init__(self, G: Any, step: StepArg, options: Options, page: dict[str, Any]) -> None:
        self.graph = G
        self.step = step
        self.options = options
        self.page_options = page
        self._html: str | None = None
        self._svg: str | None = None

    def __repr__(self) -> str:
        from ..style.text import name

        G = self.graph
        return (f"<Stepper of {name(G, G.graph['root'])}: {G.number_of_nodes()} nodes, "
                f"{len(G.graph['steps'])} steps>")

    def page(self) -> str:
        """The player as a complete HTML page (:func:`vizgrad.player_html`)."""
        from ..player.page import player_html

        if self._html is None:
            self._html = player_html(self.graph, self.step, options=self.options,
                                     **self.page_options)
        return self._html

    def svg(self) -> str:
        """The static picture of the first step shown: the fallback for front ends without
        script."""
        from ..write.svg import draw

        if self._svg is None:
            self._svg = draw(self.graph, 0 if self.step is None else self.step,
                             options=self.options).svg()
        return self._svg

    def _repr_html_(self) -> str:
        return iframe_html(self.page(), f"vizgrad step player: {repr(self)[1:-1]}")

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "image/svg+xml": self.svg(),
                "text/plain": repr(self)}


def show(x: Any, step: StepArg = None, *, options: Options | None = None,
         title: str | None = None, interval_ms: int | None = None, fit: bool = False,
         **overrides: Any) -> Any:
    """A :class:`Stepper` of ``x``: a Value, a Trace, a graph or an example name; a
    :class:`~vizgrad.training.record.Training` shows as its training player.

    Args:
        x: what to step through; a Value is traced first (run ``backward()``
            on it to see the backward steps).
        step: the step shown first, as for :func:`vizgrad.player_html`: a
            number of ``x``'s steps, ``"first"`` (the default), ``"last"`` or
            ``"final"`` (the final view).
        options, overrides: the drawing options (:class:`vizgrad.options.Options`),
            with the player's defaults.
        title, interval_ms, fit: as for :func:`vizgrad.player_html`.

    >>> show("fork", step="final")
    <Stepper of q: 5 nodes, 8 steps>
    >>> show("fork", colour="red")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: show() has no option 'colour'; the options are: preset, ...
    """
    from ..graph.convert import as_graph
    from ..scene.prepare import prepare
    from ..training.record import Training

    if isinstance(x, Training):  # a recorded training shows as its training player
        if step is not None or options is not None or overrides:
            raise VizgradError("show() of a training takes no step or drawing option")
        return x
    o = options_for("show", options, overrides)
    if isinstance(x, str):
        from ..graph import examples

        G = examples.graph(x)
    else:
        G = as_graph(x, o.model)
    prepare(G, o).step(step)  # a bad step is refused now, not when the page is drawn
    return Stepper(G, step, o.replace(model=None),
                   {"title": title, "interval_ms": interval_ms, "fit": fit})


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
