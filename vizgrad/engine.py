"""The chapter's scalar autograd engine, at its documented path: :mod:`vizgrad.core.value`.

Standard library only, like the module it re-exports::

    >>> from vizgrad.engine import Value
    >>> (Value(2.0) * Value(3.0)).data
    6.0
"""

from .core.value import (Value, add_with_overwrite_bug, group, topological_order)

__all__ = ["Value", "add_with_overwrite_bug", "group", "topological_order"]
