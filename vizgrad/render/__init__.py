"""Renderers: each reads a graph from :func:`vizgrad.to_networkx`, never a Value."""

__all__: list[str] = []
