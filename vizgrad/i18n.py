"""The user-facing words of every picture, page and message, in each language.

Each language is one JSON file in ``vizgrad/locales/`` (``en.json``,
``zh.json``); adding a language is adding a file with the same keys. Numbers
and formulae are the same in every language; only the words change::

    >>> t("caption.step", "zh", k=7, n=7)
    '步骤 7 / 7'
    >>> t("phase.backward", "en")
    'backward'
    >>> resolve(None) in languages()
    True

The language is the ``lang`` argument, else the environment variable
``VIZGRAD_LANG``, else English.
"""

from __future__ import annotations

import functools
import json
import os
from importlib import resources
from typing import Any

from .exceptions import OptionError

__all__ = ["DEFAULT", "ENV_VAR", "catalogue", "languages", "resolve", "t"]

DEFAULT = "en"
ENV_VAR = "VIZGRAD_LANG"


@functools.lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The language codes that have a catalogue, sorted.

    >>> languages()
    ('en', 'zh')
    """
    files = resources.files(__package__).joinpath("locales").iterdir()
    return tuple(sorted(f.name[:-5] for f in files if f.name.endswith(".json")))


@functools.lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """Every key and its text in one language (a language code from :func:`languages`)."""
    if lang not in languages():
        raise OptionError(f"unknown language {lang!r}; choose one of {list(languages())}")
    path = resources.files(__package__).joinpath("locales", f"{lang}.json")
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def resolve(lang: str | None) -> str:
    """The language to use: ``lang``, else ``$VIZGRAD_LANG``, else ``"en"``.

    A region or encoding suffix is dropped (``zh-CN``, ``zh_CN.UTF-8`` → ``zh``).
    """
    where = "lang"
    if lang is None:
        lang, where = os.environ.get(ENV_VAR) or DEFAULT, ENV_VAR
    if not isinstance(lang, str):
        raise OptionError(f"lang must be a language code such as 'en' or 'zh', got {lang!r}")
    code = lang.replace("_", "-").split(".")[0].split("-")[0].lower()
    if code not in languages():
        raise OptionError(f"unknown language {lang!r} ({where}); choose one of {list(languages())}")
    return code


def t(key: str, lang: str = DEFAULT, **values: Any) -> str:
    """The text of ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    text = catalogue(lang)[key]
    return text.format(**values) if values else text
