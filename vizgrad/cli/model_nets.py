"""The user's objects told apart: a Value (vizgrad's or micrograd's), a net, and the net a
graph was computed with (named by ``--model``, or the one of the module whose parameters are
in the graph)::

    >>> from vizgrad.nn import MLP
    >>> net = MLP(2, [1])
    >>> is_net(net), is_net(MLP), is_value(net), is_value(net.parameters()[0])
    (True, False, False, True)
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..exceptions import ModelLoadError

__all__ = ["find_net", "graph_ids", "is_net", "is_value", "named_net"]


def is_value(v: Any) -> bool:
    """True for a vizgrad or micrograd Value (data, grad, _backward, parents or _prev)."""
    return all(hasattr(v, a) for a in ("data", "grad", "_backward")) and (
        hasattr(v, "parents") or hasattr(v, "_prev")
    )


def is_net(obj: Any) -> bool:
    """True for a micrograd-style net: an object (not a class, a module or a Value) with a
    ``parameters()`` method."""
    return (callable(getattr(obj, "parameters", None)) and not isinstance(obj, type)
            and not is_value(obj) and not isinstance(obj, ModuleType))


def graph_ids(roots: list[Any]) -> set[int]:
    """The ids of every Value in the graphs of ``roots``."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        parents = getattr(v, "parents", None)
        stack.extend(parents if parents is not None else getattr(v, "_prev", ()))
    return seen


def _params_in(net: Any, ids: set[int]) -> tuple[int, frozenset[int]]:
    """How many of ``net``'s parameters are in the graph, and the ids of all of them."""
    try:
        params = list(net.parameters())
    except Exception:  # noqa: BLE001 - not a net after all (a torch module wants arguments)
        return 0, frozenset()
    mine = frozenset(id(p) for p in params if is_value(p))
    return len(mine & ids), mine


def named_net(module: Any, file: str, name: str, roots: list[Any]) -> Any:
    """The module attribute ``--model`` names, checked: present, a net, used by the graph."""
    if not hasattr(module, name):
        nets = sorted(n for n, v in vars(module).items() if is_net(v) and not n.startswith("_"))
        hint = f"; its nets are: {', '.join(nets)}" if nets else "; it holds no net"
        raise ModelLoadError(f"--model {name}: {file} has no attribute {name!r}{hint}")
    net = getattr(module, name)
    if not is_net(net):
        raise ModelLoadError(
            f"--model {name}: {file}:{name} is a {type(net).__name__}, not a net; a net has "
            "parameters() (a micrograd MLP, Layer or Neuron)")
    used, _ = _params_in(net, graph_ids(roots))
    if not used:
        raise ModelLoadError(
            f"--model {name}: none of {name}.parameters() is in the graph the function "
            "returned; name the net the loss was computed with")
    return net


def find_net(module: Any, file: str, roots: list[Any]) -> tuple[str, Any] | None:
    """``(name, net)``: the module's one net whose parameters are in the graph of ``roots``
    (a net inside another, such as one of its layers, counts as the bigger one), or None.
    Several raise :class:`ModelLoadError` naming them."""
    ids = graph_ids(roots)
    found: dict[int, tuple[list[str], Any, frozenset[int]]] = {}
    for name, obj in vars(module).items():
        if name.startswith("__") or not is_net(obj):
            continue
        if id(obj) in found:
            found[id(obj)][0].append(name)
            continue
        used, params = _params_in(obj, ids)
        if used:
            found[id(obj)] = ([name], obj, params)
    nets = [(names, obj) for names, obj, params in found.values()
            if not any(params < other[2] for other in found.values())]
    if not nets:
        return None
    if len(nets) > 1:
        listed = ", ".join(" = ".join(names) for names, _ in nets)
        raise ModelLoadError(
            f"{file} holds {len(nets)} nets whose parameters are in this graph: {listed}; "
            f"pass --model NAME to say which one to draw, e.g. --model {nets[0][0][0]}")
    names, obj = nets[0]
    return names[0], obj
