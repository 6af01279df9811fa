"""What a folded box shows of the Values it stands for: its output Values' own data and grad
(the selected sample's, never a sum over samples or neurons) and its parameters' grads with
the terms each sample's ``+=`` added.

:func:`vizgrad.graph.collapse.contract.contract` calls these: :func:`per_sample` turns a
step's contributions into a box's outputs into what the selected sample's Values received,
:func:`box_cells` lists a box's outputs (``cells``) and :func:`param_terms` each parameter's
terms, which add up to the grad ``backward()`` left::

    >>> upstream_of(2.0, 0.5), upstream_of(0.0, 0.5)
    (0.25, None)
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .boxes import Boxes
from .boxes import exact_sum as _sum
from ..columns import getter

__all__ = ["add_cell", "box_cells", "param_terms", "per_sample", "start_cells", "upstream_of"]


def upstream_of(local: float | None, amount: float) -> float | None:
    """The upstream gradient of one contribution, ``amount / local`` (``None`` without a
    local derivative, or at 0)."""
    return amount / local if local else None


def start_cells(rec: dict[str, Any], sel: list[str], vis: dict[str, float]) -> None:
    """Start a merged contribution to a box's outputs ``sel`` (the selected sample's): it
    will hold only what these Values receive; ``before`` is a neuron's own grad."""
    rec["_sel"] = dict.fromkeys(sel)
    rec["_mine"] = []
    if len(sel) == 1:
        rec["before"] = vis.get(sel[0], 0.0)


def add_cell(rec: dict[str, Any], t: str, local: float | None, amount: float,
             param: Callable[[str], str | None]) -> None:
    """Count one original contribution to ``t`` if it is one of the shown outputs, or keep
    it apart if ``t`` is one of the box's parameters (``param``: its name, or ``None`` for
    a Value that is none): a use of the parameter outside its box, such as an L2 penalty."""
    if t in rec["_sel"]:
        rec["_mine"].append(amount)
        rec.setdefault("_per", {}).setdefault(t, []).append(
            [local, upstream_of(local, amount), amount])
    elif param(t) is not None:
        rec.setdefault("_params", {}).setdefault(t, []).append(amount)


def _params(got: dict[str, list[float]], bx: Boxes) -> dict[str, Any]:
    """What a step sent to a box's parameters along one edge (``got``: parameter → the
    amounts of its ``+=``): how many, the exactly rounded sum, and its terms in the graph's
    order, one per parameter, each the sum of what its ``+=`` added."""
    terms = [[bx.param(p), _sum(got[p])] for p in sorted(got, key=bx.rank.__getitem__)]
    return {"count": len(terms), "amount": _sum([a for _, a in terms]), "terms": terms}


def per_sample(rec: dict[str, Any], sel: list[str], amounts: list[float],
                vis: dict[str, float], upstream: float | None, bx: Boxes) -> None:
    """A contribution to a box's outputs as the code made it: what the selected sample's
    output Values received (``amount``, ``before`` → ``after``; ``cells``: each output's grad
    after it, a layer's one per neuron), never a sum over samples; ``all``: how many
    contributions of every sample the step holds; ``params``: what the box's parameters
    received along the edge (see :func:`add_cell`), never added to ``amount``."""
    mine = rec.pop("_mine")
    per = rec.pop("_per", {})
    got = rec.pop("_params", None)
    if got:  # its parameters' share, stated apart from its outputs'
        rec["params"] = _params(got, bx)
    cells = [vis.get(o, 0.0) for o in sel]
    others = sorted({s for s in rec.pop("_of", ()) if s is not None})
    if not mine and others:  # this step reaches other samples' outputs only
        rec["others"] = others
    if len(sel) > 1 and per:  # a layer: the terms Σ_i w_ij · g_i of its largest cell
        j = max(range(len(sel)), key=lambda i: abs(_sum([a for *_, a in per.get(sel[i], ())])))
        rec["rule"] = {"cell": j, "terms": per.get(sel[j], [])}
    rec["all"] = len(amounts)
    rec["count"] = len(mine)
    rec["cells"] = cells
    rec["amount"] = _sum(mine) if mine else 0.0
    if len(sel) == 1:
        rec["after"] = bx.shown[rec["target"]] = float(cells[0])
        if upstream and math.isfinite(upstream) and len(mine) == 1:
            rec["local"] = rec["amount"] / upstream  # the box's own local derivative
        else:
            rec["local"] = None
    else:  # a layer: a row of grads, one per neuron (``after`` is only its colour's sum)
        rec["local"] = None
        rec["after"] = bx.shown[rec["target"]] = float(rec["before"] + rec["amount"])


def box_cells(bx: Boxes, c: str, named: Any, data: Any, grad: Any,
           terms: dict[str, list[list[Any]]]) -> dict[str, Any]:
    """A box's ``cells``: ``[name, data, grad]`` of each output Value it shows (the selected
    sample's, one per neuron of a layer; every sample's with ``sample="all"``), and
    ``terms``: ``[name, grad, terms]`` of each parameter whose grad is the sum of what its
    ``+=`` added."""
    out: dict[str, Any] = {}
    if c in bx.groups:
        group, of = getter(bx.G, "group"), (bx.pick[0] if bx.pick is not None else {})
        outs = bx.shown_outputs(c)
        many = len({of.get(o) for o in outs}) > 1
        out["cells"] = [[(str(group(o)) + (f"[{of.get(o)}]" if many else "")) if group(o)
                         else named(o), data(o), grad(o)] for o in outs]
    label = getter(bx.G, "label")
    mine = [[str(label(m)), grad(m), terms[m]] for m in bx.members[c] if m in terms]
    if mine:
        out["terms"] = mine
    return out


def param_terms(G: Any, bx: Boxes, leaf: set[str], named: Any, contributions: Any,
                heads: Any) -> dict[str, list[list[Any]]]:
    """For each labelled leaf inside a box (a parameter) whose grad is exactly what its
    ``+=`` contributions add up to: ``[[sample, amount], …]``, one term per sample in order,
    then each use outside every sample (an L2 penalty) as ``[name of its user, amount]``.
    A grad that was overwritten, or is not the sum of its terms, gets none."""
    label, grad = getter(G, "label"), getter(G, "grad")
    params = {m for m in bx.box_of if m in leaf and label(m)}
    if not params:
        return {}
    steps = G.graph["steps"]
    idx = [i for i, kind, _ in heads(steps) if kind == "backward"]
    of = bx.pick[0] if bx.pick is not None else {}
    per: dict[str, dict[Any, list[float]]] = {}
    broken: set[str] = set()
    for t, source, _, _, amount, _, _, _, overwrote in contributions(steps, idx):
        if t not in params:
            continue
        if overwrote:
            broken.add(t)
        s = of.get(source)
        key = s if s is not None else (f"{label(t)}²" if set(G.predecessors(source)) == {t}
                                       else named(source))
        per.setdefault(t, {}).setdefault(key, []).append(amount)
    out: dict[str, list[list[Any]]] = {}
    for m, by in per.items():
        if m in broken:
            continue
        samples = sorted(k for k in by if isinstance(k, int))
        rows = [[k, _sum(by[k])] for k in samples]
        rows += [[k, _sum(v)] for k, v in by.items() if not isinstance(k, int)]
        g = grad(m)
        total = _sum([a for _, a in rows])
        if len(rows) > 1 and g is not None and math.isclose(total, g, rel_tol=1e-9,
                                                              abs_tol=1e-12):
            out[m] = rows
    return out
