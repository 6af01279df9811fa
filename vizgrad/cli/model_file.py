"""Load a user's graph from ``path/to/model.py:build`` (used by ``vizgrad render``).

The file is imported by path; ``build()`` returns a Value or a list of Values
(vizgrad's or micrograd's). The first is the root, the others are drawn
beside it as off-path outputs::

    >>> split_spec("nets/model.py:make")
    ('nets/model.py', 'make')
    >>> split_spec("model.py")
    ('model.py', 'build')
    >>> is_model_spec("fork"), is_model_spec("model.py:build")
    (False, True)

Running the user's code (importing the file, calling the function, their errors) is in
:mod:`.model_code`; telling a Value from a net, and finding the net, in :mod:`.model_nets`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from ..exceptions import ModelLoadError, VizgradError
from ..runtime.watchdog import WatchdogStop
from .model_code import failed, import_file, run_user, unreadable, where
from .model_nets import find_net, graph_ids, is_net, is_value, named_net

__all__ = ["Loaded", "is_model_spec", "split_spec", "load", "load_model", "find_net", "is_net",
           "is_value", "open_function", "run_user", "unreadable"]


def is_model_spec(target: str) -> bool:
    """True if ``target`` names a Python file (``x.py`` or ``x.py:function``)."""
    path = target.rsplit(":", 1)[0] if ":" in target else target
    return path.endswith(".py")


def split_spec(spec: str) -> tuple[str, str]:
    """``"path.py:func"`` → ``("path.py", "func")``; the function defaults to ``build``."""
    path, sep, func = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        return spec, "build"
    if not func.isidentifier():
        raise ModelLoadError(
            f"{spec!r}: {func!r} is not a function name; write path/to/model.py:build"
        )
    return path, func



def _flatten(result: Any) -> list[Any]:
    if is_value(result):
        return [result]
    if isinstance(result, (list, tuple)):
        out: list[Any] = []
        for item in result:
            out.extend(item if isinstance(item, (list, tuple)) else [item])
        return out
    return [result]


@dataclass
class Loaded:
    """What a model file gave: the root, the Values drawn beside it, and the net it was
    computed with (``net``: ``None`` when none was found) with how it was found
    (``how``: ``"returned"``, ``"named"`` by ``--model`` or ``"found"`` in the module)."""

    root: Any
    also: list[Any] = field(default_factory=list)
    net: Any = None
    net_name: str | None = None
    how: str | None = None


def load_model(spec: str, **values: float) -> tuple[Any, list[Any]]:
    """Import ``path.py``, call ``func(**values)`` and return ``(root, also)``.

    Raises :class:`~vizgrad.exceptions.ModelLoadError` for a missing file or
    function, a syntax error or a result that is not a Value, and
    :class:`~vizgrad.exceptions.ModelRunError` (with the user's traceback
    frames) when importing the file or calling the function raised.
    """
    got = load(spec, search=False, **values)
    return got.root, got.also


def load(spec: str, model: str | None = None, *, search: bool = True,
         **values: float) -> Loaded:
    """:func:`load_model`, and the net the graph was computed with: the one ``func``
    returns beside the loss (``return loss, model``), else the module attribute
    ``model`` names (``--model``), else the one net of the module whose parameters are
    in the graph (see :func:`find_net`)."""
    path_text, func = split_spec(spec)
    path = Path(path_text).resolve()
    if not path.is_file():
        raise ModelLoadError(
            f"model file not found: {path_text}; give the path of a .py file, "
            "e.g. vizgrad render path/to/model.py:build"
        )
    module = import_file(path)
    fn = getattr(module, func, None)
    if fn is None:
        raise ModelLoadError(_no_function(module, path.name, func))
    if not callable(fn):
        raise ModelLoadError(
            f"{path.name}:{func} is not a function but {type(fn).__name__} {fn!r:.40}")
    try:
        result = fn(**values)
    except VizgradError:
        raise
    except Exception as err:  # the user's build() failed: show their frames, not ours
        raise failed(f"{path.name}:{func}()", err, path) from None
    except (KeyboardInterrupt, SystemExit, GeneratorExit, WatchdogStop):
        raise
    except BaseException as err:  # noqa: BLE001 - a class of the user's own, not an Exception
        raise ModelLoadError(
            f"{path.name}:{func}() raised {type(err).__name__}: {err}{where(err, path)}; "
            "it derives from BaseException, not Exception: raise an Exception "
            "(ValueError, RuntimeError) instead") from None
    with unreadable(f"{path.name}:{func}()"):
        return _loaded(module, path, func, result, model, search)


def _loaded(module: Any, path: Path, func: str, result: Any, model: str | None,
            search: bool) -> Loaded:
    """What ``func`` returned, read: the root, the other Values and the net."""
    net = None
    if isinstance(result, (list, tuple)) and len(result) >= 2 and is_net(result[-1]):
        result, net = result[:-1], result[-1]  # return loss, model
    items = _flatten(result)
    bad = [v for v in items if not is_value(v)]
    if not items or bad:
        got = type(bad[0]).__name__ if bad else "an empty list"
        raise ModelLoadError(
            f"{path.name}:{func}() must return a Value or a list of Values, got {got} "
            "(a net goes after the loss: return loss, model)"
        )
    loaded = Loaded(items[0], items[1:])
    if model is not None:
        loaded.net, loaded.net_name, loaded.how = named_net(module, path.name, model,
                                                             items), model, "named"
    elif net is not None:
        loaded.net, loaded.net_name, loaded.how = net, f"{func}()", "returned"
    elif search:
        found_net = find_net(module, path.name, items)
        if found_net is not None:
            loaded.net_name, loaded.net = found_net
            loaded.how = "found"
    return loaded


def open_function(spec: str) -> tuple[ModuleType, Any, Path]:
    """Import ``path.py`` and return ``(module, func, path)`` without calling ``func``
    (``vizgrad train`` calls it once per step, through :func:`run_user`)."""
    path_text, func = split_spec(spec)
    path = Path(path_text).resolve()
    if not path.is_file():
        raise ModelLoadError(f"model file not found: {path_text}; give the path of a .py file, "
                             "e.g. vizgrad train path/to/model.py:build")
    module = import_file(path)
    fn = getattr(module, func, None)
    if not callable(fn):
        found = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", None) == module.__name__)
        hint = f"; its functions are: {', '.join(found)}" if found else ""
        raise ModelLoadError(f"{path.name} has no function {func!r}{hint}")
    return module, fn, path



def _no_function(module: Any, file: str, func: str) -> str:
    """What to say when ``file`` has no ``func``: the function to add (a script that computes
    its loss at module level returns that Value, the largest graph of the module's Values),
    or the functions it has.

    >>> import types
    >>> m = types.ModuleType("m")
    >>> print(_no_function(m, "net.py", "build"))  # doctest: +NORMALIZE_WHITESPACE
    net.py has no function build(): add one that computes the loss, calls loss.backward() and
    returns it (def build(): ...; return loss), or name another function: net.py:FUNC
    """
    mine = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                  and getattr(v, "__module__", None) == module.__name__)
    if func != "build":
        return f"{file} has no function {func!r}" + (
            f"; its functions are: {', '.join(mine)}" if mine else "")
    hint = f" (its functions: {', '.join(mine)}; name one as {file}:{mine[0]})" if mine else ""
    values = [(len(graph_ids([v])), n) for n, v in vars(module).items()
              if not n.startswith("_") and is_value(v) and not isinstance(v, type)]
    if values:
        name = max(values, key=lambda t: (t[0], t[1] == "loss"))[1]
        return (f"{file} has no function build(): it computes {name} at module level; add "
                f"'def build(): return {name}' at the end of the file (after "
                f"{name}.backward()){hint}")
    return (f"{file} has no function build(): add one that computes the loss, calls "
            f"loss.backward() and returns it (def build(): ...; return loss), or name another "
            f"function: {file}:FUNC{hint}")

