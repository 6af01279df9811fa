"""The scene is data: built once from one layout, then read-only; its looks are a pure
function of the scene and a step's state."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from vizgrad import examples
from vizgrad.graph.collapse import collapse
from vizgrad.scene import scene_of

#: fields that hold what the scene was drawn from or reads, not what it built
INPUTS = {"facts", "preset", "theme", "contributions", "looks"}


@pytest.fixture(scope="module")
def scenes():
    """A plain graph, and a collapsed net whose boxes have parameter and input rows."""
    graphs = [examples.graph("fork"), collapse(examples.graph("mlp"), "neuron")]
    made = [scene_of(graphs[0]), scene_of(graphs[1], lang="zh")]
    DRAWN.update({id(s): G for s, G in zip(made, graphs)})
    return made


#: the graph each scene of the fixture was drawn from, by the scene's id
DRAWN: dict[int, object] = {}


def _mutable(value, depth=0):
    """The first list, dict or set found in ``value`` (two levels deep), else None."""
    if isinstance(value, (list, dict, set)):
        return value
    if depth < 2 and isinstance(value, tuple):
        return next((m for v in value if (m := _mutable(v, depth + 1)) is not None), None)
    if depth < 2 and isinstance(value, Mapping):
        return next((m for k, v in value.items() for m in (_mutable(k, depth + 1),
                                                           _mutable(v, depth + 1))
                     if m is not None), None)
    return None


def test_a_scene_holds_no_list_dict_or_set_it_built(scenes):
    for s in scenes:
        found = {f.name: m for f in dataclasses.fields(s) if f.name not in INPUTS
                 and (m := _mutable(getattr(s, f.name))) is not None}
        assert found == {}
        assert s.inrows or s is scenes[0]  # the net's boxes have input rows to check


def test_a_scene_refuses_a_change_after_it_is_built(scenes):
    s = scenes[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.width = 10.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.shapes = ()
    with pytest.raises(TypeError):
        s.edge_texts[next(iter(s.edge_texts))] = "changed"  # type: ignore[index]
    with pytest.raises(TypeError):
        s.params[next(iter(s.params))] = ()  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.looks.scale = 1.0


def test_every_field_is_set_once_built(scenes):
    for s in scenes:
        missing = [f.name for f in dataclasses.fields(s) if not hasattr(s, f.name)]
        assert missing == []


def test_looks_do_not_depend_on_the_order_they_are_asked_in(scenes):
    for s in scenes:
        ks = [*range(s.last + 1), None]
        forward = {k: s.look(k) for k in ks}
        backward = {k: s.look(k) for k in reversed(ks)}
        fresh = scene_of(DRAWN[id(s)], lang=s.lang)
        assert forward == backward
        assert forward[1] == fresh.look(1) and forward[None] == fresh.look(None)
        assert forward[0] != forward[None]  # the looks do change from step to step


def test_the_replay_of_touched_shapes_matches_the_full_look(scenes):
    s = scenes[1]
    steps = s.steps
    full = s.look(0)
    for k, st in enumerate(s.states()):
        if k == 0:
            continue
        touched = s.looks.touched(steps[k]) | s.looks.touched(steps[k - 1])
        full.update(s.looks.near(k, st, touched))
        assert full == s.looks.all(k, st), k
