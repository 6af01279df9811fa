"""Running the user's code: a file imported by path, a function called, and what they raise
turned into vizgrad's errors with the user's own traceback frames (not vizgrad's).

A failure in the user's code is a :class:`~vizgrad.exceptions.ModelRunError`; a graph
that cannot be read is a :class:`~vizgrad.exceptions.ModelLoadError` (exit 2)::

    >>> with unreadable("net.py:build()"):  # doctest: +NORMALIZE_WHITESPACE
    ...     raise KeyError("data")
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.ModelLoadError: net.py:build() returned a graph vizgrad cannot read:
        reading it raised KeyError: 'data'
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..exceptions import ModelLoadError, ModelRunError, VizgradError
from ..runtime.watchdog import WatchdogStop, bounded

__all__ = ["failed", "import_file", "run_user", "unreadable", "where"]


def where(err: BaseException, path: Path) -> str:
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


def failed(what: str, err: BaseException, path: Path) -> ModelRunError:
    return ModelRunError(f"{what} raised {type(err).__name__}: {err}{where(err, path)}"
                         f"{_user_frames(err)}")


def import_file(path: Path) -> Any:
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
        raise failed(f"importing {path.name}", err, path) from None
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
        raise failed(f"{path.name}:{getattr(fn, '__name__', 'build')}()", err, path) from None
