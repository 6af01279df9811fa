"""Traces as networkx graphs, their JSON, checks and transformations, and the examples.

``convert`` (:func:`to_networkx`, :func:`to_json`, :func:`from_json`), ``validate`` and
``meta`` (what a loaded document is checked for), ``lite`` and ``columns`` (the column form
of huge graphs), ``samples`` (which forward pass made each value), ``examples`` (the
chapter's graphs), ``gradcheck`` (central differences) and ``collapse/`` (boxes, focus).
"""

from .convert import (as_graph, from_json, graph_state, graph_to_trace, lite_or_networkx,
                      to_json, to_networkx)

__all__ = ["to_networkx", "to_json", "from_json", "as_graph", "graph_state", "graph_to_trace",
           "lite_or_networkx"]
