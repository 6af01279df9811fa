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
from pathlib import Path
from typing import Any

from .exceptions import ModelLoadError, ModelRunError, VizgradError

__all__ = ["is_model_spec", "split_spec", "load_model", "is_value"]


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


def _flatten(result: Any) -> list[Any]:
    if is_value(result):
        return [result]
    if isinstance(result, (list, tuple)):
        out: list[Any] = []
        for item in result:
            out.extend(item if isinstance(item, (list, tuple)) else [item])
        return out
    return [result]


def load_model(spec: str, **values: float) -> tuple[Any, list[Any]]:
    """Import ``path.py``, call ``func(**values)`` and return ``(root, also)``.

    Raises :class:`~vizgrad.exceptions.ModelLoadError` for a missing file or
    function, a syntax error or a result that is not a Value, and
    :class:`~vizgrad.exceptions.ModelRunError` (with the user's traceback
    frames) when importing the file or calling the function raised.
    """
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
        found = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", None) == module.__name__)
        hint = f"; its functions are: {', '.join(found)}" if found else ""
        raise ModelLoadError(f"{path.name} has no function {func!r}{hint}")
    if not callable(fn):
        raise ModelLoadError(f"{path.name}:{func} is not a function but {type(fn).__name__} {fn!r:.40}")
    try:
        result = fn(**values)
    except VizgradError:
        raise
    except Exception as err:  # the user's build() failed: show their frames, not ours
        raise _failed(f"{path.name}:{func}()", err, path) from None
    items = _flatten(result)
    bad = [v for v in items if not is_value(v)]
    if not items or bad:
        got = type(bad[0]).__name__ if bad else "an empty list"
        raise ModelLoadError(
            f"{path.name}:{func}() must return a Value or a list of Values, got {got}"
        )
    return items[0], items[1:]
