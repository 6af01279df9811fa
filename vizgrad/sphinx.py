"""The Sphinx extension users name ``vizgrad.sphinx``: :mod:`vizgrad.embed.sphinx`.

    >>> from vizgrad.sphinx import setup
    >>> callable(setup)
    True
"""

from .embed.sphinx import (VizgradDirective, vizgrad_figure, vizgrad_error, setup)

__all__ = ["VizgradDirective", "vizgrad_figure", "vizgrad_error", "setup"]
