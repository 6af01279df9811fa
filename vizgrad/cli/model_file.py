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
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import ModelLoadError, ModelRunError, VizgradError
from ..runtime.watchdog import WatchdogStop, bounded

__all__ = ["Loaded", "is_model_spec", "split_spec", "load", "load_model", "is_net", "is_value",
           "open_function", "run_user", "unreadable"]


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


def is_value(v: Any) -> bool:
    """True for a vizgrad or micrograd Value (data, grad, _backward, parents or _prev)."""
    return all(hasattr(v, a) for a in ("data", "grad", "_backward")) and (
        hasattr(v, "parents") or hasattr(v, "_prev")
    )


def is_net(obj: Any) -> bool:
    """True for a micrograd-style net: an object (not a class, a module or a Value) with a
    ``parameters()`` method."""
    return (callable(getattr(obj, "parameters", None)) and not isinstance(obj, type)
            and not is_value(obj) and not isinstance(obj, ModuleType))


def _where(err: BaseException, path: Path) -> str:
    frames = [f for f in traceback.extract_tb(err.__traceback__) if Path(f.filename) == path]
    return f" (at {path.name}, line {frames[-1].lineno})" if frames else ""


_HERE = Path(__file__).resolve().parent


def _user_frames(err: BaseException) -> str:
    """The traceback frames of the user's code (and what it called), not vizgrad's own."""
    frames = []
    for f in traceback.extract_tb(err.__traceback__):
        if f.filename.startswith("<frozen"):
            continue
        try:
            if Path(f.filename).resolve().is_relative_to(_HERE):
                continue
        except (OSError, ValueError):
            pass
        frames.append(f)
    if not frames:
        return ""
    return "\nwhere it failed (most recent call last):\n" + "".join(
        traceback.format_list(frames)).rstrip("\n")


def _failed(what: str, err: BaseException, path: Path) -> ModelRunError:
    return ModelRunError(f"{what} raised {type(err).__name__}: {err}{_where(err, path)}"
                         f"{_user_frames(err)}")


def _import(path: Path) -> Any:
    digest = hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:12]
    module_name = f"_vizgrad_model_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ModelLoadError(f"cannot import {path}: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        sys.modules.pop(module_name, None)
        raise ModelLoadError(f"{path.name}, line {err.lineno}: syntax error: {err.msg}") from None
    except Exception as err:  # the user's module failed at import time: their code
        sys.modules.pop(module_name, None)
        raise _failed(f"importing {path.name}", err, path) from None
    finally:
        if sys.path and sys.path[0] == str(path.parent):
            del sys.path[0]
    return module


@contextmanager
def unreadable(what: str) -> Iterator[None]:
    """A Value whose parts raise when read (a ``_prev`` or ``parameters()`` of the user's,
    a cycle, data that is no number) is one line saying so (exit 2), not a traceback."""
    try:
        yield
    except VizgradError as err:
        if isinstance(err, ModelLoadError):
            raise
        raise ModelLoadError(f"{what} returned a graph vizgrad cannot read: {err}") from None
    except (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError, RecursionError,
            WatchdogStop):
        raise
    except BaseException as err:  # noqa: BLE001 - the user's objects raised while read
        raise ModelLoadError(
            f"{what} returned a graph vizgrad cannot read: reading it raised "
            f"{type(err).__name__}: {str(err)[:200]}") from None


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
    module = _import(path)
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
        raise _failed(f"{path.name}:{func}()", err, path) from None
    except (KeyboardInterrupt, SystemExit, GeneratorExit, WatchdogStop):
        raise
    except BaseException as err:  # noqa: BLE001 - a class of the user's own, not an Exception
        raise ModelLoadError(
            f"{path.name}:{func}() raised {type(err).__name__}: {err}{_where(err, path)}; "
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
        loaded.net, loaded.net_name, loaded.how = _named_net(module, path.name, model,
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
    module = _import(path)
    fn = getattr(module, func, None)
    if not callable(fn):
        found = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", None) == module.__name__)
        hint = f"; its functions are: {', '.join(found)}" if found else ""
        raise ModelLoadError(f"{path.name} has no function {func!r}{hint}")
    return module, fn, path


def run_user(fn: Any, path: Path,
             limits: tuple[float | None, int | None] = (None, None)) -> Any:
    """Call the user's ``fn()``: their exception becomes a
    :class:`~vizgrad.exceptions.ModelRunError` with their own traceback frames; an
    ``OverflowError`` passes (a training stops there). ``limits`` (seconds, resident bytes)
    bound the call (:func:`vizgrad.runtime.watchdog.bounded`: ``--build-seconds``,
    ``--build-memory``)."""
    try:
        with bounded(*limits, f"{path.name}:{getattr(fn, '__name__', 'build')}()",
                     ("--build-seconds", "--build-memory")):
            return fn()
    except (VizgradError, OverflowError):
        raise
    except Exception as err:  # the user's function failed: show their frames, not ours
        raise _failed(f"{path.name}:{getattr(fn, '__name__', 'build')}()", err, path) from None


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
    values = [(len(_graph_ids([v])), n) for n, v in vars(module).items()
              if not n.startswith("_") and is_value(v) and not isinstance(v, type)]
    if values:
        name = max(values, key=lambda t: (t[0], t[1] == "loss"))[1]
        return (f"{file} has no function build(): it computes {name} at module level; add "
                f"'def build(): return {name}' at the end of the file (after "
                f"{name}.backward()){hint}")
    return (f"{file} has no function build(): add one that computes the loss, calls "
            f"loss.backward() and returns it (def build(): ...; return loss), or name another "
            f"function: {file}:FUNC{hint}")


def _graph_ids(roots: list[Any]) -> set[int]:
    """The ids of every Value in the graphs of ``roots``."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        parents = getattr(v, "parents", None)
        stack.extend(parents if parents is not None else getattr(v, "_prev", ()))
    return seen


def _params_in(net: Any, ids: set[int]) -> tuple[int, frozenset[int]]:
    """How many of ``net``'s parameters are in the graph, and the ids of all of them."""
    try:
        params = list(net.parameters())
    except Exception:  # noqa: BLE001 - not a net after all (a torch module wants arguments)
        return 0, frozenset()
    mine = frozenset(id(p) for p in params if is_value(p))
    return len(mine & ids), mine


def _named_net(module: Any, file: str, name: str, roots: list[Any]) -> Any:
    """The module attribute ``--model`` names, checked: present, a net, used by the graph."""
    if not hasattr(module, name):
        nets = sorted(n for n, v in vars(module).items() if is_net(v) and not n.startswith("_"))
        hint = f"; its nets are: {', '.join(nets)}" if nets else "; it holds no net"
        raise ModelLoadError(f"--model {name}: {file} has no attribute {name!r}{hint}")
    net = getattr(module, name)
    if not is_net(net):
        raise ModelLoadError(
            f"--model {name}: {file}:{name} is a {type(net).__name__}, not a net; a net has "
            "parameters() (a micrograd MLP, Layer or Neuron)")
    used, _ = _params_in(net, _graph_ids(roots))
    if not used:
        raise ModelLoadError(
            f"--model {name}: none of {name}.parameters() is in the graph the function "
            "returned; name the net the loss was computed with")
    return net


def find_net(module: Any, file: str, roots: list[Any]) -> tuple[str, Any] | None:
    """``(name, net)``: the module's one net whose parameters are in the graph of ``roots``
    (a net inside another, such as one of its layers, counts as the bigger one), or None.
    Several raise :class:`ModelLoadError` naming them."""
    ids = _graph_ids(roots)
    found: dict[int, tuple[list[str], Any, frozenset[int]]] = {}
    for name, obj in vars(module).items():
        if name.startswith("__") or not is_net(obj):
            continue
        if id(obj) in found:
            found[id(obj)][0].append(name)
            continue
        used, params = _params_in(obj, ids)
        if used:
            found[id(obj)] = ([name], obj, params)
    nets = [(names, obj) for names, obj, params in found.values()
            if not any(params < other[2] for other in found.values())]
    if not nets:
        return None
    if len(nets) > 1:
        listed = ", ".join(" = ".join(names) for names, _ in nets)
        raise ModelLoadError(
            f"{file} holds {len(nets)} nets whose parameters are in this graph: {listed}; "
            f"pass --model NAME to say which one to draw, e.g. --model {nets[0][0][0]}")
    names, obj = nets[0]
    return names[0], obj
