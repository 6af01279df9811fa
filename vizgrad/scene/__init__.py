"""From a graph to a picture laid out once: what is drawn, where, and how it looks per step.

The stages, each handing the next a value: ``prepare`` turns the graph an entry made of what
it was given (a Value is traced at the entry, never here) into the graph drawn (collapsed
or focused); ``plan`` reads the graph and the options into a frozen
:class:`~vizgrad.scene.plan.Plan` (texts, sizes, DOT; ``dot``, ``groups``, ``captions``
and ``contributions`` help it); ``layout``
runs Graphviz (embedded WebAssembly or a system ``dot``); ``scene`` makes the
:class:`Scene` from the plan and the layout's geometry (``shapes`` and ``labels`` place
the shapes, ``looks`` says what each shows after a step); ``make`` runs the three;
``opened`` lays out groups opened in place (``frames``: what such a picture holds).
"""

from .make import TURN_NODES, make_scene, scene_of
from .plan import Plan
from .scene import RANKDIRS, SLIDE_WIDTH, Scene, Shape, fits, readable, smallest_size, smallest_text

__all__ = ["RANKDIRS", "SLIDE_WIDTH", "TURN_NODES", "Plan", "Scene", "Shape", "fits",
           "make_scene", "readable", "scene_of", "smallest_size", "smallest_text"]
