"""The ``vizgrad`` command: ``render``, ``check``, ``list``, ``serve`` and ``train``.

``commands`` (the click commands), ``check`` (``vizgrad check``: its table, kinks and verdict),
``args`` (reading arguments, turning errors into click's),
``targets`` (what a command draws: an example, a model file, a graph JSON, an expression),
``model_file`` (loading ``model.py:build``), ``model_code`` (running the user's code, their
errors), ``model_nets`` (a Value, a net, the net a graph used) and ``progress`` (the progress
bar on stderr).
"""

from .commands import main

__all__ = ["main"]
