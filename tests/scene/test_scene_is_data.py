"""The Scene is data: made from a plan and a geometry, it runs no layout and reads no file,
holds no networkx object, refuses every change, and a picture of groups opened in place is a
plain Scene whose ``opened`` field is a value of its own type. Values are traced at the
entries, never by the scene."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType

import networkx as nx
import pytest

import vizgrad
from vizgrad import Value, examples, to_networkx, trace
from vizgrad.exceptions import NotAGraphError
from vizgrad.graph.collapse import collapse
from vizgrad.scene import ids, make_scene, scene_of
from vizgrad.scene.frames import Frame, Opened
from vizgrad.scene.layout import geometry as gm
from vizgrad.scene.opened import open_scene
from vizgrad.scene.plan import Plan, plan
from vizgrad.options import Options
from vizgrad.scene.prepare import Prepared, fitted, prepare
from vizgrad.scene.scene import Scene

SCENE_DIR = Path(vizgrad.__file__).parent / "scene"


def product() -> nx.MultiDiGraph:
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * b
    c.label = "c"
    c.backward()
    return to_networkx(c)


def geometry_literal() -> gm.Geometry:
    """Where a layout would put a, b, c and c's op circle: written out, no Graphviz."""
    geo = gm.Geometry(300.0, 120.0)
    geo.nodes.update({"v0": (40.0, 30.0, 60.0, 50.0), "v1": (40.0, 90.0, 60.0, 50.0),
                      "v2-op": (140.0, 60.0, 29.0, 29.0), "v2": (240.0, 60.0, 60.0, 50.0)})
    geo.edges[ids.op_edge("v2")] = gm.Edge(((154.5, 60.0), (170.0, 60.0), (190.0, 60.0),
                                            (201.0, 60.0)), (210.0, 60.0), None)
    return geo


class _IO(Exception):
    pass


@pytest.fixture
def no_io(monkeypatch):
    """Any layout, child process or file opened from here on raises."""
    def refuse(*args, **kwargs):
        raise _IO(f"I/O: {args[:1]!r}")

    import vizgrad.scene.layout.run as run
    import vizgrad.scene.make as make
    import vizgrad.scene.opened as opened

    for module in (run, make, opened):
        monkeypatch.setattr(module, "run_layout", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(builtins, "open", refuse)


def test_the_fixture_refuses_a_layout(no_io):
    with pytest.raises(_IO):  # the guard works: the pipeline's layout stage is refused
        scene_of(product())
    with pytest.raises(_IO):
        open("/dev/null")


def test_a_scene_is_made_from_a_plan_and_a_geometry_without_running_graphviz(monkeypatch):
    G = product()
    plan(G)  # the text widths' tables, read once, before the guard
    import vizgrad.scene.layout.run as run
    import vizgrad.scene.make as make

    def refuse(*args, **kwargs):
        raise _IO("a layout ran")

    for module in (run, make):
        monkeypatch.setattr(module, "run_layout", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(builtins, "open", refuse)
    s = Scene(plan(G), geometry_literal())
    dx, dy = s.graph_box[:2]
    boxes = {sh.id: sh.geom for sh in s.shapes if sh.kind == "rect" and sh.id.startswith("n-")}
    # a box's rectangle is its literal centre less half its literal size, moved by the margin
    assert boxes["n-v0"][:4] == (round(40 - 30 + dx, 2), round(30 - 25 + dy, 2), 60.0, 50.0)
    assert boxes["n-v2"][:2] == (round(240 - 30 + dx, 2), round(60 - 25 + dy, 2))
    assert (s.graph_box[2], s.graph_box[3]) == (300.0, 120.0)
    assert s.look(None)["t-v2-data"]["text"] == "−6"  # a · b = 2 · (−3)
    assert s.look(None)["t-v0-grad"]["text"] == "−3"  # ∂c/∂a = b


def test_the_scene_and_plan_modules_import_no_layout_runner_and_open_nothing():
    for name in ("scene.py", "plan.py", "parts.py", "captions.py", "looks.py", "shapes.py"):
        tree = ast.parse((SCENE_DIR / name).read_text(encoding="utf-8"))
        imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    for a in node.names} | {
            (node.module or "") for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names}
        calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name)}
        assert not imported & {"run_layout", "layout.run", "subprocess", "os", "pathlib"}, name
        assert "open" not in calls, name


def _networkx_inside(value, seen=None, path="scene"):
    """The path to the first networkx graph found inside ``value``, else None."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, (str, bytes, int, float, bool, type(None))):
        return None
    seen.add(id(value))
    if isinstance(value, nx.Graph):
        return path
    if isinstance(value, (dict, MappingProxyType)):
        items = [(f"{path}[{k!r}]", v) for k, v in value.items()] + [
            (f"{path}.key", k) for k in value]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    elif dataclasses.is_dataclass(value):
        items = [(f"{path}.{f.name}", getattr(value, f.name))
                 for f in dataclasses.fields(value)]
    else:
        names = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())]
        names += list(getattr(value, "__dict__", {}))
        items = [(f"{path}.{n}", getattr(value, n)) for n in names if hasattr(value, n)]
    for p, v in items:
        found = _networkx_inside(v, seen, p)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def opened_pair():
    G = examples.graph("mlp")
    base = scene_of(collapse(G, "neuron"))
    return base, open_scene(collapse(G, "neuron", expand=["L0/N1"]), base=base, source=G)


def test_a_scene_holds_no_networkx_object(opened_pair):
    base, opened = opened_pair
    for s in (scene_of(examples.graph("fork")), base, opened):
        assert _networkx_inside(s) is None
    G = examples.graph("fork")  # the walk finds one where there is one
    assert _networkx_inside(Prepared(G, G), path="p") == "p.source"


def test_a_scene_refuses_every_change(opened_pair):
    base, opened = opened_pair
    with pytest.raises(dataclasses.FrozenInstanceError):
        base.width = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        opened.opened = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        opened.opened.frames = ()
    with pytest.raises(TypeError):
        base.facts.nodes["g0"]["label"] = "changed"
    with pytest.raises(AttributeError):
        base.facts.graph = {}
    with pytest.raises(TypeError):
        base.facts.graph["root"] = "v0"
    with pytest.raises(TypeError):
        base.steps[0]["kind"] = "seed"


def test_an_opened_group_scene_is_a_plain_scene_with_a_value_of_its_own(opened_pair):
    base, opened = opened_pair
    before = (base.shapes, dict(base.captions), base.opened)
    again = open_scene(collapse(examples.graph("mlp"), "neuron", expand=["L0/N1"]), base=base,
                       source=examples.graph("mlp"))
    assert type(opened) is Scene and type(base) is Scene
    assert base.opened is None and type(opened.opened) is Opened
    assert dataclasses.is_dataclass(opened.opened)
    assert [type(f) for f in opened.opened.frames] == [Frame]
    assert opened.opened.paths == ("L0/N1",) and opened.opened.frames[0].path == "L0/N1"
    assert opened.opened.frames[0].label == "L0/N1 · 8 values"
    assert opened.opened.base_last == base.last == 13
    # made by a function, twice alike; opening a group changes nothing of the base
    assert again.shapes == opened.shapes and again.opened == opened.opened
    assert (base.shapes, dict(base.captions), base.opened) == before
    # the caption counts the collapsed picture's steps
    inside = next(k for k, row in enumerate(opened.opened.steps) if row[3])
    assert opened.caption_texts(inside)[0].startswith(
        f"step {opened.opened.steps[inside][0]} / 13 (inside L0/N1:")


@pytest.mark.parametrize("make", [
    lambda x: Scene(x, gm.Geometry(1.0, 1.0)), make_scene, scene_of, plan,
    lambda x: open_scene(x, base=None, source=None), lambda x: prepare(x, Options()),
    lambda x: fitted(x, Options()), lambda x: prepare(x, Options(collapse=False))],
    ids=["Scene", "make_scene", "scene_of", "plan", "open_scene", "prepare", "fitted",
         "prepare-whole"])
def test_a_value_or_trace_given_to_the_scene_says_where_it_is_traced(make):
    v = Value(2.0, label="v") * 3
    for x in (v, trace(v)):
        with pytest.raises(NotAGraphError) as err:
            make(x)
        assert isinstance(err.value, TypeError)
        assert "vizgrad.to_networkx(vizgrad.trace(v))" in str(err.value)
        assert "vizgrad.draw(v)" in str(err.value)


def test_a_graph_given_to_scene_says_to_lay_it_out_first():
    with pytest.raises(NotAGraphError, match=r"make_scene\(graph\)"):
        Scene(examples.graph("fork"), gm.Geometry(1.0, 1.0))
    with pytest.raises(NotAGraphError, match="Geometry"):
        Scene(plan(examples.graph("fork")), {"width": 1.0})


def test_prepare_imports_nothing_of_the_tracing_layer():
    tree = ast.parse((SCENE_DIR / "prepare.py").read_text(encoding="utf-8"))
    modules = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for a in node.names}
    assert "..graph.collapse" in {f"..{m}" for m in modules}  # the walk sees its imports
    assert not [m for m in modules if "tracing" in m.split(".")]
    import vizgrad.scene.prepare as module

    assert not {"trace", "Trace", "as_graph", "lite_or_networkx"} & set(vars(module))


def _traced_from(monkeypatch) -> list[list[str]]:
    """Every call of ``trace`` from here on, as the modules on the stack (the caller first):
    the name is replaced in every loaded vizgrad module that holds it."""
    from vizgrad.tracing import recorder

    real, stacks = recorder.trace, []

    def recording(*args, **kwargs):
        frame, names = sys._getframe(1), []
        while frame is not None:
            names.append(frame.f_globals.get("__name__", ""))
            frame = frame.f_back
        stacks.append(names)
        return real(*args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("vizgrad") and vars(module).get("trace") is real:
            monkeypatch.setattr(module, "trace", recording)
    return stacks


@pytest.mark.parametrize("entry", [
    lambda v, out: vizgrad.draw(v).save(out / "v.svg"),
    lambda v, out: vizgrad.draw(v, collapse=False).save(out / "v.svg"),
    lambda v, out: vizgrad.draw(v, focus="v2").save(out / "v.svg"),
    lambda v, out: vizgrad.player_html(v)],
    ids=["draw", "draw-whole", "draw-focus", "player_html"])
def test_a_value_is_traced_at_the_entry_never_in_the_scene(entry, monkeypatch, tmp_path):
    v = Value(2.0, label="v") * Value(3.0, label="w")
    v.backward()
    entry(Value(1.0) + 2, tmp_path)  # every module on the way is loaded
    stacks = _traced_from(monkeypatch)
    entry(v, tmp_path)
    assert len(stacks) == 1  # traced once
    assert stacks[0][0] == "vizgrad.graph.convert" and "vizgrad.write.svg" in stacks[0]
    assert [m for m in stacks[0] if m.startswith("vizgrad.scene")] == []


def test_the_entries_still_take_a_value():
    v = Value(2.0, label="v") * Value(3.0, label="w")
    v.label = "p"
    v.backward()
    assert vizgrad.draw(v).scene.look(None)["t-v2-data"]["text"] == "6"
    assert "p = v × w" in vizgrad.player_html(v)
    assert repr(vizgrad.show(v)) == "<Stepper of p: 3 nodes, 4 steps>"


def test_a_plan_is_a_frozen_value_with_what_the_layout_needs():
    p = plan(examples.graph("fork"))
    assert isinstance(p, Plan) and not isinstance(p, Scene)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.dot = ""
    assert p.dot.startswith("digraph") and set(p.box_sizes) == set(p.order)
    assert _networkx_inside(p) is None


def test_a_drawing_of_a_scene_alone_has_no_graph_to_save_as_json(tmp_path):
    from vizgrad.exceptions import RenderError
    from vizgrad.write.svg import Drawing

    d = Drawing(scene_of(examples.graph("fork")), None)
    assert d.svg() == vizgrad.draw(examples.graph("fork")).svg()  # the same picture
    with pytest.raises(RenderError, match="keeps no graph"):
        d.save(tmp_path / "fork.json")
    assert list(tmp_path.iterdir()) == []
