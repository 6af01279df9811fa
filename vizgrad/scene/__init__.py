"""From a graph to a picture laid out once: what is drawn, where, and how it looks per step.

``prepare`` turns what a user gives into the graph drawn (collapsed or focused);
``layout`` runs Graphviz (embedded WebAssembly or a system ``dot``); ``geometry``
reads its positions; ``model`` holds the :class:`Scene` (every shape, placed once:
read-only data); ``_dot`` sizes the boxes and writes the DOT; ``_captions`` writes the
caption and legend lines; ``_shapes`` and ``_labels`` place the shapes; ``_looks`` says
what each shows after a step; ``_groups`` adds what collapsed groups carry.
"""

from .scene import (RANKDIRS, SLIDE_WIDTH, TURN_NODES, Scene, Shape, fits, make_scene, readable,
                    smallest_size, smallest_text)

__all__ = ["RANKDIRS", "SLIDE_WIDTH", "TURN_NODES", "Scene", "Shape", "fits", "make_scene",
           "readable", "smallest_size", "smallest_text"]
