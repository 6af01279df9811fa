"""Names a student understands, for every value of a trace (the ``name`` and ``sample`` fields).

:func:`name_nodes` gives each node record of a :class:`vizgrad.tracing.Trace` a
``name``, in this order:

1. the user's label;
2. in a neural net (parameters labelled ``L0.N2.w1``, ``L0.N2.b``, grouped ``L0/N2``,
   as ``model=`` and :mod:`vizgrad.nn` make them), its role: a neuron's products
   ``L0.N2.w1·x1``, running sums ``L0.N2.Σ1`` … and sum ``L0.N2.Σ``, output
   ``L0.N2.out``; the net's output ``ŷ[s]``, the wrapped inputs ``x[s][i]`` (the copy
   multiplied by ``w[i]`` of the s-th forward pass), the target ``−y[s]`` (``ŷ[s] − y``
   adds the number −y), the loss's running sums ``Σ[0..s]`` and the root ``loss``;
   a neuron's value also gets ``[s]`` when the net saw several samples;
3. a name from its op and operands while it stays within :data:`NAME_LENGTH`
   characters (``a·b``, ``u + v``, ``tanh(n)``, ``e^z0``, ``−log(p3)``); in a net, the
   values outside its neurons (the loss) may take up to :data:`ROLE_LENGTH`
   (``(ŷ[0] − y[0])²``);
4. a constant's number (``2``, ``−1``);
5. the output (the root) is ``f``, as the command line and the lab call an expression's
   (``out``, ``result`` or ``f_`` when a value already has that name);
6. else its id ``vN``, which pictures write small (a last resort).

The sample ``s`` of a forward pass is found from the net's output neurons: the k-th
value an output neuron gives, in the trace's (topological, operand-first) order, is
sample k, and every value that value was computed from (parameters aside) belongs to
sample k; a value made from one sample's values belongs to it too. ``sample`` is
``None`` for values of several samples and outside nets::

    >>> from vizgrad import Value
    >>> from vizgrad.tracing import trace
    >>> a, b = Value(2.0, label="a"), Value(3.0, label="b")
    >>> t = trace(-((a * b + a) ** 2).log())
    >>> [r["name"] for r in t.nodes]
    ['a', 'b', 'a·b', 'a·b + a', '(a·b + a)²', 'v5', '−1', 'f']

In a net, the numbers micrograd wraps (targets, ``sum()``'s 0) become constants
(``kind="const"``): nothing learns from their gradient.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from ._numbers import MINUS, fmt
from .expr import OUTPUT_NAMES

__all__ = ["ACTIVATIONS", "NAME_LENGTH", "ROLE_LENGTH", "base", "compose", "kept", "name_nodes",
           "tight", "unchanged"]

#: the longest name made from a value's op and operands (``a·b``, ``tanh(n)``); past it, a role
NAME_LENGTH = 12
#: the longest such name for a value of a net's loss, whose operands have role names
ROLE_LENGTH = 20
_SUPERSCRIPTS = {2.0: "²", 3.0: "³", 4.0: "⁴"}
_PARAM = re.compile(r"L(\d+)\.N(\d+)\.(?:w(\d+)|b|p\d+)")
_NEURON = re.compile(r"L(\d+)/N(\d+)")
#: the ops that make a neuron's output from its sum
ACTIVATIONS = ("tanh", "relu", "ReLU", "sigmoid")
_ATOM = re.compile(r"[^\W\d][\w.]*(\[\d+\])*|\d+(\.\d+)?")  # a, L0.N2.out, x[0][1], 2


#: the graph that does not change within :func:`unchanged`, and what was worked out of it
_SAME: ContextVar[tuple[Any, dict[Any, Any]] | None] = ContextVar("vizgrad_same", default=None)


@contextmanager
def unchanged(G: Any) -> Iterator[None]:
    """Within the block ``G`` does not change: each node's name and operands are worked
    out once (a scene writes a caption for every step, naming the same nodes again)."""
    token = _SAME.set((G, {}))
    try:
        yield
    finally:
        _SAME.reset(token)


def kept(G: Any, key: tuple[Any, ...], make: Callable[[Any, Any], Any]) -> Any:
    """``make(G, key[1])``, once per key within :func:`unchanged`."""
    same = _SAME.get()
    if same is None or same[0] is not G:
        return make(G, key[1])
    memo = same[1]
    if key not in memo:
        memo[key] = make(G, key[1])
    return memo[key]


def tight(part: str) -> str:
    """An operand inside a product or a power: bracketed when it is a sum.

    >>> tight("a"), tight("a + b")
    ('a', '(a + b)')
    """
    return f"({part})" if " " in part else part


def base(part: str) -> str:
    """An operand of a power, ``1/``, ``√`` or ``e^``: bracketed unless it is one name.

    >>> base("z0"), base("x[0][1]"), base("a·b"), base("−1")
    ('z0', 'x[0][1]', '(a·b)', '(−1)')
    """
    return part if _ATOM.fullmatch(part) else f"({part})"


def compose(op: str, args: list[str]) -> str | None:
    """The name of ``op`` applied to operands named ``args``; None if it has no such name.

    >>> compose("+", ["ŷ[0]", "−y[0]"]), compose("*", ["u + v", "−1"]), compose("**2", ["d"])
    ('ŷ[0] − y[0]', '−(u + v)', 'd²')
    >>> compose("+", ["−ŷ[1]", "y[1]"]), compose("+", ["−1", "x"])
    ('y[1] − ŷ[1]', 'x − 1')
    >>> compose("**2", ["a·b"]), compose("exp", ["f·f"]), compose("**-1", ["x[0]"])
    ('(a·b)²', 'e^(f·f)', '1/x[0]')
    """
    if op == "+" and len(args) == 2:
        a, b = args
        if b.startswith(MINUS) and len(b) > 1:  # a + (−b) is a − b
            return f"{a} {MINUS} {b[1:]}"
        if a.startswith(MINUS) and len(a) > 1 and " " not in a:  # −a + b is b − a
            return f"{b} {MINUS} {a[1:]}"
        return f"{a} + {b}"
    if op == "*" and len(args) == 2:
        a, b = args
        if a == f"{MINUS}1" or b == f"{MINUS}1":
            other = b if a == f"{MINUS}1" else a
            return f"{MINUS}{tight(other)}"
        return f"{tight(a)}·{tight(b)}"
    if len(args) != 1:
        return None
    (a,) = args
    if op in ("tanh", "log", "relu", "ReLU", "sigmoid"):
        return f"{op.lower()}({a})"
    if op == "exp":
        return f"e^{base(a)}" if len(a) <= 3 else f"exp({a})"
    if op.startswith("**"):
        try:
            k = float(op[2:])
        except ValueError:
            return None
        if k in _SUPERSCRIPTS:
            return f"{base(a)}{_SUPERSCRIPTS[k]}"
        if k == -1:
            return f"1/{base(a)}"
        if k == 0.5:
            return f"√{base(a)}"
        return f"{base(a)}^{fmt(k, 12, trim=True)}"
    return None


def _neuron(group: Any) -> tuple[int, int] | None:
    m = _NEURON.fullmatch(str(group or ""))
    return (int(m[1]), int(m[2])) if m else None


class _Net:
    """The roles of a net's values: found from its parameters' labels and groups."""

    def __init__(self, nodes: list[dict[str, Any]], root: str) -> None:
        self.params: dict[str, tuple[int, int, int | None]] = {}
        for r in nodes:
            m = _PARAM.fullmatch(str(r["label"])) if r.get("label") else None
            if m and not r["parents"] and _neuron(r.get("group")) == (int(m[1]), int(m[2])):
                self.params[r["id"]] = (int(m[1]), int(m[2]), int(m[3]) if m[3] else None)
        self.roles: dict[str, str] = {}
        self.sample: dict[str, int | None] = {}
        if not self.params:  # not a net: nothing more to find
            return
        self.rec = {r["id"]: r for r in nodes}
        self.users: dict[str, list[str]] = {}
        for r in nodes:
            for p in r["parents"]:
                self.users.setdefault(p, []).append(r["id"])
        self._outputs(nodes, root)

    def leaf(self, n: str) -> bool:
        """An unlabelled leaf that is not a parameter: a number the net's code wrapped."""
        r = self.rec[n]
        return not r["parents"] and not r.get("label") and n not in self.params

    def _outputs(self, nodes: list[dict[str, Any]], root: str) -> None:
        last = max(layer for layer, _, _ in self.params.values())
        outs: dict[int, list[str]] = {}
        for r in nodes:
            where = _neuron(r.get("group"))
            if where is None or where[0] != last or r["op"] not in ("+", *ACTIVATIONS):
                continue  # a neuron gives its sum or its activation (not w², a penalty)
            users = self.users.get(r["id"], [])
            if r["id"] == root or not users or any(
                    self.rec[u].get("group") != r.get("group") for u in users):
                outs.setdefault(where[1], []).append(r["id"])
        self.samples = max((len(v) for v in outs.values()), default=0)
        self.yhat: dict[str, int] = {}
        for j, ids in outs.items():
            for s, n in enumerate(ids):  # ids are in trace order: the k-th pass is sample k
                self.roles[n] = f"ŷ[{s}]" if len(outs) == 1 else f"ŷ[{s}][{j}]"
                self.yhat[n] = s
        self._samples(nodes)

    def _samples(self, nodes: list[dict[str, Any]]) -> None:
        sample = self.sample
        for n, s in self.yhat.items():  # back through the forward pass, parameters aside
            stack = [n]
            while stack:
                m = stack.pop()
                if m in self.params:
                    continue
                if m in sample:
                    if sample[m] != s:
                        sample[m] = None  # shared by two passes
                    continue
                sample[m] = s
                stack.extend(self.rec[m]["parents"])
        for r in nodes:  # on through what one pass's values made (its loss term)
            n = r["id"]
            if n not in sample and r["parents"]:
                got = {sample.get(p) for p in r["parents"]
                       if p not in self.params and not self.leaf(p)}
                if len(got) == 1 and None not in got:
                    sample[n] = got.pop()
        for r in nodes:  # a wrapped number takes the pass of what uses it
            n = r["id"]
            if n not in sample and self.leaf(n):
                got = {sample.get(u) for u in self.users.get(n, [])}
                if len(got) == 1:
                    sample[n] = got.pop()

    def name_roles(self, nodes: list[dict[str, Any]], root: str) -> None:
        """Fill :attr:`roles` for neurons, inputs, targets, running sums and the root."""
        roles, rec = self.roles, self.rec
        depth: dict[str, int] = {}  # a neuron's running sums: terms so far
        running: set[str] = set()  # the loss's running sums
        cover: dict[str, tuple[int, int]] = {n: (s, s) for n, s in self.yhat.items()}
        for r in nodes:
            n, ps = r["id"], r["parents"]
            spans = [cover[p] for p in ps if p in cover]
            if spans and n not in cover:
                cover[n] = (min(a for a, _ in spans), max(b for _, b in spans))
            where = _neuron(r.get("group"))
            if not ps or n in roles:
                continue
            if where is not None:
                self._in_neuron(r, where, depth)
            elif r["op"] == "+" and len(ps) == 2:
                self._target(ps)
                if n in cover and any(p in running or self._zero(p) for p in ps):
                    lo, hi = cover[n]
                    roles[n] = f"Σ[{lo}]" if lo == hi else f"Σ[{lo}..{hi}]"
                    running.add(n)
        if not rec[root].get("label"):
            roles[root] = "loss"

    def _zero(self, n: str) -> bool:
        """A sum's start: a leaf holding 0 (``sum()``'s, or a labelled ``Value(0.0)``)."""
        r = self.rec[n]
        return not r["parents"] and n not in self.params and r["data"] == 0.0

    def _suffix(self, n: str) -> str:
        s = self.sample.get(n)
        return f"[{s}]" if self.samples > 1 and s is not None else ""

    def _in_neuron(self, r: dict[str, Any], where: tuple[int, int], depth: dict[str, int]) -> None:
        n, ps, op = r["id"], r["parents"], str(r["op"])
        head = f"L{where[0]}.N{where[1]}."
        group = r.get("group")
        role = None
        if op == "*" and len(ps) == 2:
            k = next((self.params[p][2] for p in ps if p in self.params), None)
            if k is not None:
                role = f"w{k}·x{k}"
                other = ps[1] if ps[0] in self.params else ps[0]
                if where[0] == 0 and self.leaf(other) and other not in self.roles:
                    s = self.sample.get(n)
                    self.roles[other] = f"x[{s}][{k}]" if s is not None else f"x[{k}]"
        elif op == "+":
            inner = [p for p in ps if p in depth and self.rec[p].get("group") == group]
            depth[n] = 1 + (depth[inner[0]] if inner else 0)
            last = not any(self.rec[u]["op"] == "+" and self.rec[u].get("group") == group
                           for u in self.users.get(n, []))
            role = "Σ" if last else f"Σ{depth[n]}"
        elif op in ACTIVATIONS:
            role = "out"
        if role is not None:
            self.roles[n] = head + role + self._suffix(n)

    def _target(self, ps: list[str]) -> None:
        """``ŷ[s] + c`` (micrograd's ``ŷ − y`` with y a number): c is −y[s]; with ``−ŷ[s]``
        (``y − ŷ``), c is y[s]; a Value target negated (``y·−1``) is y[s]."""
        for a, c in ((ps[0], ps[1]), (ps[1], ps[0])):
            out = a if a in self.yhat else None
            sign = MINUS
            if out is None and self.rec[a]["op"] == "*":  # −ŷ[s]: ŷ[s]·−1
                neg = [p for p in self.rec[a]["parents"] if p in self.yhat]
                if neg and any(self.leaf(p) and self.rec[p]["data"] == -1.0
                               for p in self.rec[a]["parents"]):
                    out, sign = neg[0], ""
            if out is None:
                continue
            index = self.roles[out][1:]  # ŷ[s], or ŷ[s][j] for the j-th output
            if self.leaf(c) and c not in self.roles:
                self.roles[c] = f"{sign}y{index}"
            elif self.rec[c]["op"] == "*" and sign:  # ŷ + y·−1: the Value y
                for p in self.rec[c]["parents"]:
                    if self.leaf(p) and self.rec[p]["data"] != -1.0 and p not in self.roles:
                        self.roles[p] = f"y{index}"
            return


def name_nodes(nodes: list[dict[str, Any]], root: str) -> None:
    """Set ``name`` and ``sample`` on every node record, in place (see the module doc).

    Records are in topological order, each with ``id``, ``label``, ``op``, ``kind``,
    ``data``, ``parents`` and ``group``. A net's wrapped numbers (not its inputs) get
    ``kind="const"``.
    """
    net = _Net(nodes, root)
    if net.params:
        net.name_roles(nodes, root)
    names: dict[str, str] = {}
    fallback: set[str] = set()
    for r in nodes:
        n = r["id"]
        name = str(r["label"]) if r.get("label") else net.roles.get(n)
        if net.params and n not in net.params and net.leaf(n):
            # a number the net's code wrapped: an input x[s][i], else a target or sum()'s 0
            r["kind"] = "input" if (name or "").startswith("x[") else "const"
        if name is None and r["parents"] and not any(p in fallback for p in r["parents"]):
            made = compose(str(r["op"]), [names[p] for p in r["parents"]])
            room = ROLE_LENGTH if net.params and _neuron(r.get("group")) is None else NAME_LENGTH
            if made is not None and len(made) <= room:
                name = made
        if name is None and r["kind"] == "const":
            name = fmt(r["data"], 12, trim=True)
        if name is None:
            name = str(n)
            fallback.add(n)
        names[n] = r["name"] = name
        r["sample"] = net.sample.get(n)
    top = next((r for r in nodes if r["id"] == root), None)
    if top is not None and top["id"] in fallback:  # the output: f, as the CLI and the lab
        taken = set(names.values())
        top["name"] = next((o for o in OUTPUT_NAMES if o not in taken), top["name"])
