"""The Python-Markdown extension users name ``vizgrad.markdown``: :mod:`vizgrad.embed.markdown`.

    >>> from vizgrad.markdown import makeExtension
    >>> type(makeExtension()).__name__
    'VizgradExtension'
"""

from .embed.markdown import (VizgradExtension, makeExtension, fence_format, block_html,
                             split_block, block_line)

__all__ = ["VizgradExtension", "makeExtension", "fence_format", "block_html", "split_block",
           "block_line"]
