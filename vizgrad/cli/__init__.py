"""The ``vizgrad`` command: ``render``, ``check``, ``list``, ``serve`` and ``train``.

``commands`` (the click commands), ``args`` (reading arguments, turning errors into click's),
``targets`` (what a command draws: an example, a model file, a graph JSON, an expression),
``model_file`` (loading ``model.py:build``) and ``progress`` (the progress bar on stderr).
"""

from .commands import main

__all__ = ["main"]
