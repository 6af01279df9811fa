"""A layer's parameters drawn as what they are: a matrix of weights and a column of biases.

A box that stands for a whole layer (its parameters are named ``L1.N3.w2`` and ``L1.N3.b``
inside box ``L1``) shows its weights as one small cell per weight, a row per neuron and a
column per input, and its biases as a column beside them: ``out_j = act(Σ_i w_ji x_i + b_j)``
reads along a row. Each cell is filled on the gradient scale by its parameter's grad once the
box's backward step has run (hatched before, as every box is), prints that grad where a cell
is wide enough to hold it at the smallest readable size, and always carries a tooltip with
the parameter's data and grad. A neuron's box keeps its rows of parameter grads.

Past :data:`MAX_SIDE` neurons or inputs, the first :data:`MAX_SIDE` of each are drawn and a
line under the matrix says how many more there are (the player's table lists every one)::

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("g1", label="L1", kind="group", params=[["L1.N0.w0", -0.5],
    ...     ["L1.N0.w1", 0.25], ["L1.N0.b", 1.0], ["L1.N1.w0", 0.0], ["L1.N1.w1", 2.0],
    ...     ["L1.N1.b", None]], param_data=[["L1.N0.w0", 0.1], ["L1.N1.b", -0.3]])
    >>> m = read_matrix(G, "g1")
    >>> m.rows, m.cols, [c.name for c in m.cells if c.col == BIAS]
    (2, 2, ['L1.N0.b', 'L1.N1.b'])
    >>> tip(m.cells[0], lambda x: "—" if x is None else f"{x:g}")
    'L1.N0.w0 data 0.1 grad -0.5'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from . import ids
from ..graph.collapse.batch import KIND as GRID
from ..graph.collapse.batch import at
from ..style.metrics import width

if TYPE_CHECKING:
    from .parts import Settings

__all__ = ["BIAS", "COMPACT_LONG", "COMPACT_ROOM", "COMPACT_SIDE", "MAX_SIDE", "PRINT_ROWS",
           "PRINT_WIDTH", "SLIDE_PRINT_WIDTH", "Cell", "Grid", "Matrix", "grid", "head_text",
           "heads", "foot_text", "matrices", "matrix_looks", "on_slides", "read_inputs",
           "read_matrix", "slot", "tip"]

#: the most neurons (rows) and inputs (columns) a box draws; past it, a line says how
#: many more there are (64 × 64 = 4,096 cells still draw as small rectangles)
MAX_SIDE = 64
#: a matrix prints its grads when it has at most this many rows and its cells fit
#: :data:`PRINT_WIDTH` fonts across; else its cells are small squares with tooltips
PRINT_ROWS = 16
PRINT_WIDTH = 48.0
#: on slides (a preset whose picture is a page of fixed height) a matrix of more than
#: :data:`PRINT_ROWS` rows or columns is *compact* (in a *dense* picture, also one whose
#: grads do not fit :data:`SLIDE_PRINT_WIDTH` fonts across, as an 8 × 8's): its longer side
#: about :data:`COMPACT_LONG` fonts (cells down to :data:`COMPACT_SIDE` points: a 64 × 64
#: matrix about 107 points square), its box at most :data:`COMPACT_ROOM` fonts across
#: inside, its data and grad rows elided to fit, so a layer of 64 fits a slide at 14 pt
COMPACT_LONG = 6.5
COMPACT_SIDE = 1.5
COMPACT_ROOM = 17.0
SLIDE_PRINT_WIDTH = 20.0
#: the column of the biases
BIAS = -1
_NAME = r"\.N(\d+)\.(?:w(\d+)|b)\Z"


@dataclass(frozen=True)
class Cell:
    """One parameter of a layer: its name, data and grad, and its place (``col`` is
    :data:`BIAS` for a bias)."""

    name: str
    row: int
    col: int
    data: float | None
    grad: float | None
    #: the slot's letter: ``w`` a parameter, ``s`` an input of a batch (row: its sample)
    of: str = "w"


@dataclass(frozen=True)
class Matrix:
    """A layer's parameters: ``rows`` neurons × ``cols`` inputs, and a bias per neuron;
    ``more_rows`` / ``more_cols``: how many neurons and inputs are left out past
    :data:`MAX_SIDE`."""

    neurons: tuple[int, ...]
    rows: int
    cols: int
    cells: tuple[Cell, ...]
    more_rows: int = 0
    more_cols: int = 0
    #: a batch's inputs (samples × features, no biases): the sample whose row is marked,
    #: and each cell's place in the box's ``grid`` (its grads in a step's ``grads``)
    inputs: bool = False
    sample: int | None = None
    spots: tuple[int, ...] = ()


def read_matrix(G: Any, n: str) -> Matrix | None:
    """Box ``n``'s parameters as a matrix, or None when the box is not a layer of neurons
    (a neuron's box, or parameters named otherwise)."""
    a = G.nodes[n]
    params = a.get("params") or ()
    if a.get("kind") != "group" or not params:
        return None
    prefix = re.escape(str(a.get("label", "")).replace("/", "."))
    rx = re.compile(prefix + _NAME)
    data = {str(k): v for k, v in a.get("param_data") or ()}
    found = []
    for name, g in params:
        m = rx.match(str(name))
        if m is None:
            return None
        found.append((int(m.group(1)), BIAS if m.group(2) is None else int(m.group(2)),
                      str(name), g))
    neurons = sorted({j for j, *_ in found})
    inputs = max((i for _, i, *_ in found), default=-1) + 1
    shown = neurons[:MAX_SIDE]
    row = {j: r for r, j in enumerate(shown)}
    cells = tuple(Cell(name, row[j], i, data.get(name), g)
                  for j, i, name, g in sorted(found, key=lambda c: (c[0], c[1] == BIAS, c[1]))
                  if j in row and i < MAX_SIDE)
    return Matrix(tuple(shown), len(shown), min(inputs, MAX_SIDE), cells,
                  len(neurons) - len(shown), max(0, inputs - MAX_SIDE))


def read_inputs(G: Any, n: str) -> Matrix | None:
    """Box ``n``'s inputs (a batch's, :mod:`vizgrad.graph.collapse.batch`) as a matrix: a row
    per sample, a column per feature; None for any other box.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("g0", kind="inputs", sample=1, grid=[["x[0][0]", 2.0, 0.5],
    ...     ["x[0][1]", 3.0, None], ["x[1][0]", -1.0, 0.25], ["x[1][1]", 0.5, 1.0]])
    >>> m = read_inputs(G, "g0")
    >>> m.rows, m.cols, m.sample, [slot(c) for c in m.cells][-1], m.cells[2].data
    (2, 2, 1, 's1x1', -1.0)
    """
    a = G.nodes[n]
    grid = a.get("grid") or ()
    if a.get("kind") != GRID or not grid:
        return None
    found = [(p, k, str(name), d, g) for k, (name, d, g) in enumerate(grid)
             if (p := at(name)) is not None]
    samples = sorted({s for (s, _), *_ in found})
    features = 1 + max((i for (_, i), *_ in found), default=-1)
    shown = samples[:MAX_SIDE]
    row = {s: r for r, s in enumerate(shown)}
    keep = [(row[s], i, k, name, d, g) for (s, i), k, name, d, g in found
            if s in row and i < MAX_SIDE]
    sample = a.get("sample")
    return Matrix(tuple(shown), len(shown), min(features, MAX_SIDE),
                  tuple(Cell(name, r, i, d, g, "s") for r, i, _, name, d, g in keep),
                  len(samples) - len(shown), max(0, features - MAX_SIDE), True,
                  sample if isinstance(sample, int) else None, tuple(k for *_, k, _, _, _ in keep))


def matrices(G: Any, order: Any, s: Settings, size: float,
             dense: bool = False) -> dict[str, tuple[Matrix, Grid]]:
    """Every layer box of ``order`` with its matrix and grid (texts ``size`` points;
    ``dense``: see :func:`grid`), and the box of a batch's inputs with its."""
    out = {}
    for n in order:
        m = read_matrix(G, n) or read_inputs(G, n)
        if m is not None:
            out[n] = (m, grid(s, m, size, dense))
    return out


def slot(c: Cell) -> str:
    """The id slot of a parameter's cell: ``w3x1`` (neuron row 3, input 1), ``b3``; of an
    input's: ``s3x1`` (sample row 3, feature 1)."""
    return f"b{c.row}" if c.col == BIAS else f"{c.of}{c.row}x{c.col}"


def heads(m: Matrix) -> tuple[list[str], list[str]]:
    """The names over a matrix's columns (``∂w0 … ∂b``; an input's feature ``[0] …``) and
    before its rows (``N0 …``; an input's sample ``x[0] …``)."""
    if m.inputs:
        return [f"[{i}]" for i in range(m.cols)], [f"x[{s}]" for s in m.neurons]
    return [f"∂w{i}" for i in range(m.cols)] + ["∂b"], [f"N{j}" for j in m.neurons]


def tip(c: Cell, num: Callable[[float | None], str], done: bool = True,
        word: Callable[..., str] | None = None) -> str:
    """A cell's tooltip: the parameter's (or input's) name, data and grad (``—`` before it
    arrives), in the words of ``word`` (a scene's) when given."""
    data, grad = num(c.data), num(c.grad if done else None)
    if word is not None:
        return word("box.cell_tip", name=c.name, data=data, grad=grad)
    return f"{c.name} data {data} grad {grad}"


@dataclass(frozen=True)
class Grid:
    """Where a matrix goes in its box, in points: a head line, then ``rows`` rows of
    ``cell_h``; ``label_w`` for the row names, cells ``cell_w`` wide, the bias column
    after a gap; ``printed``: the grads are written in the cells; ``compact``: a matrix not
    printed on slides (see :data:`COMPACT_LONG`)."""

    printed: bool
    cell_w: float
    cell_h: float
    label_w: float
    gap: float
    head_h: float
    foot_h: float
    width: float
    height: float
    compact: bool = False


def head_text(m: Matrix) -> str:
    """The line over a matrix too small to print: what its cells are, and its shape."""
    if m.inputs:
        return f"x {m.rows + m.more_rows} × {m.cols + m.more_cols}"
    return f"∂W {m.rows + m.more_rows} × {m.cols + m.more_cols} · ∂b"


def foot_text(m: Matrix, scene: Settings) -> str:
    """The line under a matrix cut at :data:`MAX_SIDE`: how many more there are."""
    if not (m.more_rows or m.more_cols):
        return ""
    return scene.word("box.inputs_more" if m.inputs else "box.matrix_more",
                      rows=f"{m.more_rows:,}", cols=f"{m.more_cols:,}")


def on_slides(scene: Settings) -> bool:
    """True when the picture goes on slides: its preset's target has a height."""
    fit = scene.preset.fit
    return fit is not None and fit[1] is not None


def grid(scene: Settings, m: Matrix, size: float, dense: bool = False) -> Grid:
    """The matrix's grid: its grads printed (at ``size`` points, the row labels' size) when
    every one fits its cell and the matrix is small (:data:`PRINT_ROWS`,
    :data:`PRINT_WIDTH`; ``dense`` slides: :data:`SLIDE_PRINT_WIDTH`), else small squares
    sized to the matrix (each at least 3 points; on slides compact past :data:`PRINT_ROWS`
    rows or columns, or whenever not printed if ``dense``)."""
    f = scene.preset.font
    line = 1.3 * f
    cols, rows = heads(m)
    texts = [scene.num(c.data if m.inputs else c.grad) for c in m.cells] + cols
    cell_w = max(width(t, size) for t in texts) + 0.5 * f
    label_w = max(width(r, size) for r in rows) + 0.5 * f
    across = label_w + len(cols) * cell_w + (0 if m.inputs else 0.3 * f)
    foot = foot_text(m, scene)
    foot_h = line if foot else 0.0
    dense = dense and on_slides(scene) and not m.inputs  # an input's data stays printed
    if m.rows <= PRINT_ROWS and across <= (SLIDE_PRINT_WIDTH if dense else PRINT_WIDTH) * f:
        return Grid(True, cell_w, line, label_w, 0.3 * f, line, foot_h,
                    across, line + m.rows * line + foot_h)
    long = max(m.rows, len(cols))
    compact = on_slides(scene) and (dense or long > PRINT_ROWS)
    if compact:
        side = max(COMPACT_SIDE, min(0.9 * f, COMPACT_LONG * f / long))
    else:
        side = max(3.0, min(0.9 * f, 24 * f / long))
    gap = max(side, 0.3 * f)
    w = max(len(cols) * side + (0 if m.inputs else gap), width(head_text(m), size),
            width(foot, size))
    return Grid(False, side, side, 0.0, gap, line, foot_h, w, line + m.rows * side + foot_h,
                compact)


def matrix_looks(scene: Settings, n: str, m: Matrix, g: Grid, done: bool, bold: bool,
                 on_path: bool, color: Callable[[float | None], str],
                 grads: list[float | None] | None = None) -> dict[str, dict[str, str]]:
    """What the matrix shows: each cell filled by its grad once ``done`` (hatched before),
    with its tooltip; the printed grads; the head and row names. A batch's inputs print
    their data, and each cell is filled by its input's grad after the step, ``grads`` (in
    the box's ``grid`` order; ``None``: none has arrived); the marked sample's row is
    outlined."""
    th = scene.theme
    out: dict[str, dict[str, str]] = {}
    cols, rows = heads(m)
    if g.printed:
        for i, text in enumerate(cols):
            key = "mhb" if not m.inputs and i == m.cols else f"mh{i}"
            out[ids.text(n, key)] = {"text": text, "fill": th.muted}
        for row, text in enumerate(rows):
            out[ids.text(n, f"mr{row}")] = {"text": text, "fill": th.muted}
    else:
        out[ids.text(n, "mh")] = {"text": head_text(m), "fill": th.muted}
    if g.foot_h:
        out[ids.text(n, "mf")] = {"text": foot_text(m, scene), "fill": th.muted}
    for k, c in enumerate(m.cells):
        if m.inputs:
            shown = None if grads is None else grads[m.spots[k]]
            arrived = shown is not None
        else:
            shown, arrived = (c.grad if done else None), done
        out[ids.cell(n, slot(c))] = {
            "fill": color(shown if on_path else None), "hatch": "" if arrived else "1",
            "stroke": "none", "sw": "0", "dash": "",
            "title": tip(replace(c, grad=shown), scene.num, word=scene.word)}
        if g.printed:
            out[ids.text(n, slot(c))] = {
                "text": scene.num(c.data if m.inputs else shown), "fill": th.text,
                "bold": "1" if bold and not m.inputs else ""}
    if m.inputs and m.sample in m.neurons:
        out[ids.cell(n, "sel")] = {"fill": "none", "hatch": "", "stroke": th.active, "sw": "2",
                                  "dash": ""}
    return out
