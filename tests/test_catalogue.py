"""The catalogue of words: every key in every language, sorted, with the same fields."""

from __future__ import annotations

import json
import re
from importlib import resources

from vizgrad.i18n import catalogue, languages

FIELD = re.compile(r"\{(\w+)\}")


def _raw(lang: str) -> str:
    path = resources.files("vizgrad").joinpath("locales", f"{lang}.json")
    return path.read_text(encoding="utf-8")


def test_every_key_exists_in_every_language():
    keys = {lang: set(catalogue(lang)) for lang in languages()}
    assert languages() == ("en", "zh")
    for lang, have in keys.items():
        assert have == keys["en"], (lang, sorted(have ^ keys["en"]))
        assert all(catalogue(lang)[k].strip() for k in have), lang


def test_keys_are_sorted_in_the_files():
    for lang in languages():
        keys = list(json.loads(_raw(lang)))
        assert keys == sorted(keys), lang


def test_translations_fill_the_same_fields():
    en, zh = catalogue("en"), catalogue("zh")
    for key in en:
        if en[key] == "{detail}":  # English shows the server's sentence; others word it
            assert set(FIELD.findall(zh[key])) <= {"code", "column", "detail"}, key
            continue
        assert set(FIELD.findall(en[key])) == set(FIELD.findall(zh[key])), key


def test_the_chapters_chinese_words():
    zh = catalogue("zh")
    assert zh["box.data"] == "前向值" and zh["pending"] == "待计算"
    assert zh["lab.h"] == "中心差分步长 h" and zh["lab.check.col.error"] == "误差"
    assert zh["node.input"] == "输入节点" and zh["node.op"] == "运算节点"
    assert zh["lab.input"].format(name="a", lo="−20", hi="20") == "输入 a（−20–20）"
    assert zh["caption.step"].format(k=0, n=7) == "步骤 0 / 7"
    assert zh["player.col.grad"].startswith("累计梯度")
