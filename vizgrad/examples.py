"""The chapter's examples, at their documented path: :mod:`vizgrad.graph.examples`.

    >>> from vizgrad import examples
    >>> examples.names()[:2]
    ['shared-node', 'overwrite-bug']
"""

from .graph.examples import (COURSE_XS, COURSE_YS, Example, names, describe, defaults,
                             collapse_level, build, trace, graph, EXAMPLES)

__all__ = ["COURSE_XS", "COURSE_YS", "Example", "names", "describe", "defaults",
           "collapse_level", "build", "trace", "graph", "EXAMPLES"]
