"""What ``vizgrad render`` and ``vizgrad check`` draw: an example, a model file, a graph JSON
or an expression, each turned into a graph (see :mod:`vizgrad.cli.commands`)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import click

from ..exceptions import ModelLoadError, OptionError, UnknownExampleError

__all__ = ["unknown", "graph_of", "title_of", "expr_graph"]


def unknown(target: str) -> UnknownExampleError:
    from ..graph import examples

    close = difflib.get_close_matches(target, examples.names(), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return UnknownExampleError(
        f"unknown example {target!r}{hint}; choose one of: {', '.join(examples.names())}; "
        "or give a model file as path/to/model.py:build"
    )


def graph_of(target: str, values: dict[str, float], model: str | None = None,
             limits: tuple[float | None, int | None] = (None, None)) -> tuple[str, Any]:
    """(folder name, graph) for an example name, a ``model.py:func`` or a ``graph.json``.

    A model file's graph is traced with its net (see :func:`vizgrad.cli.model_file.load`): the
    parameters are named and each neuron is a group; ``graph["net"]`` says which net
    was read and how it was found, for the caption. ``model`` names the net (``--model``).
    Past :data:`~vizgrad.options.DEFAULT_MAX_NODES` values it is a
    :class:`~vizgrad.graph.lite.LiteGraph` read from the trace's columns, which an overview
    collapses without the full networkx graph (and anything else turns into that graph).
    A model file's code (its import, ``build()``, and its Values' ``_prev`` and ``_backward``
    while traced) runs under ``limits``: seconds and resident bytes
    (:func:`vizgrad.runtime.watchdog.bounded`; ``None`` leaves one out).
    """
    from ..graph import examples
    from .model_file import is_model_spec, load, split_spec, unreadable
    from ..graph.convert import from_json, lite_or_networkx
    from ..options import DEFAULT_MAX_NODES
    from ..runtime.watchdog import bounded
    from ..tracing.recorder import trace

    if is_model_spec(target):
        path, func = split_spec(target)
        stem = Path(path).stem
        name = stem if func == "build" else f"{stem}-{func}"
        with bounded(*limits, f"{Path(path).name}:{func}()", ("--build-seconds",
                                                              "--build-memory")):
            got = load(target, model, **values)
            with unreadable(f"{Path(path).name}:{func}()"):
                if got.net is None:
                    t = trace(got.root, got.also)
                    return name, lite_or_networkx(t, DEFAULT_MAX_NODES)
                return name, _net_graph(got, Path(path).name)
    if target.endswith(".json"):
        if values:
            raise OptionError(
                "--set cannot change a graph loaded from JSON; render the model instead")
        try:
            raw = Path(target).read_bytes()  # from_json reads UTF-8, -16 and -32, with a BOM too
        except OSError as err:
            raise ModelLoadError(f"cannot read {target}: {err.strerror or err}") from None
        return Path(target).stem, from_json(raw)
    if target not in examples.names():
        raise unknown(target)
    return target, examples.graph(target, **values)


def _net_graph(got: Any, file: str) -> Any:
    """The graph of a model file's loss, traced with the net it was computed with."""
    from ..exceptions import OperandTypeError
    from ..graph.convert import lite_or_networkx
    from ..options import DEFAULT_MAX_NODES
    from ..tracing.recorder import trace

    try:
        t = trace(got.root, got.also, model=got.net)
    except OperandTypeError as err:
        hint = {"found": " (found in the module; pass --model NAME to choose another net)",
                "named": " (named by --model)"}.get(got.how, "")
        raise ModelLoadError(f"{file}: cannot read the net {got.net_name}{hint}: "
                             f"{str(err).removeprefix('model=: ')}") from None
    G = lite_or_networkx(t, DEFAULT_MAX_NODES)  # an overview past max_nodes needs no more
    G.graph["net"] = {"name": got.net_name, "type": type(got.net).__name__, "how": got.how,
                      "file": file}
    return G


def title_of(target: str) -> str:
    from ..graph import examples

    from .model_file import is_model_spec, split_spec

    if target in examples.names():
        return f"{target}: {examples.describe(target)}"
    if is_model_spec(target):  # no folders in the output: it must not depend on where it ran
        path, func = split_spec(target)
        return f"{Path(path).name}:{func}"
    return Path(target).name


def expr_graph(expr: str, values: dict[str, float]) -> Any:
    """The graph of ``--expr``: its output is named as the lab names it (``f``)."""
    from ..graph.expression import expression_graph

    G = expression_graph(expr, values)
    used = {attrs.get("label") for n, attrs in G.nodes(data=True)
            if G.in_degree(n) == 0 and attrs.get("kind") != "const"}
    unused = [k for k in values if k not in used]
    if unused:
        click.echo(f"note: --set {', '.join(unused)}: not used by the expression", err=True)
    return G

