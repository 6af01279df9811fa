"""One SVG that plays every step with CSS animations: no script, one standalone file.

It plays step 0, 1, … to the last step, then rests on the final view, and
loops (or plays once). Every shape is written once, with the final view's
colours, so a viewer without CSS animation (``rsvg-convert``, a reader who
asks for reduced motion) shows the final view. What changes between steps
is toggled by ``@keyframes`` with ``step-end`` timing:

- a text whose words or colours change gets one element per distinct
  version; each version is visible (``opacity``) in its own steps;
- a box, circle, edge or arrowhead keeps one element, and its ``fill``,
  ``stroke``, ``stroke-width``, ``stroke-dasharray`` and ``opacity`` change.

Elements that change the same way share one ``@keyframes`` rule. Ids,
classes and keyframe names carry a short hash of the content, so two such
SVGs inlined in one page never collide::

    >>> from vizgrad import examples, draw
    >>> svg = draw(examples.graph("fork")).animated_svg(hold=1.5)
    >>> "@keyframes" in svg and "prefers-reduced-motion" in svg and "<script" not in svg
    True
    >>> svg == draw(examples.graph("fork")).animated_svg(hold=1.5)
    True
    >>> draw(examples.graph("fork")).animated_svg(hold=0)
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: hold must be a number of seconds from 0.1 to 600, got 0
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ..exceptions import OptionError
from ..scene.shapes import Shape
from .svgout import layered, shape_element, svg_document
from ..scene.pacing import pace

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["DEFAULT_FINAL_HOLD", "DEFAULT_HOLD", "animated_svg", "check_timing", "frame_times"]

#: Seconds each step is shown: None, its caption's reading time (:mod:`vizgrad.scene.pacing`,
#: the pace of the GIF and the player's Play too)
DEFAULT_HOLD = None
#: Seconds the final view is shown before the animation starts again: None, its reading time
DEFAULT_FINAL_HOLD = None
_LIMITS = (0.1, 600.0)  # seconds a step or the final view may be shown
# stands for the prefix until the content is hashed: XML cannot carry it, so no text has it
_TOKEN = "\x01"

Look = dict[str, str]
Props = dict[str, str]


def check_timing(hold: Any, final_hold: Any, loop: Any) -> None:
    """Refuse timings that are not a number of seconds in range, and a ``loop`` that is
    not True or False."""
    lo, hi = _LIMITS
    for name, value in (("hold", hold), ("final_hold", final_hold)):
        if value is None:  # the reading pace
            continue
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not lo <= value <= hi):
            raise OptionError(f"{name} must be a number of seconds from {lo:g} to {hi:g}, "
                              f"got {value!r}")
    if not isinstance(loop, bool):
        raise OptionError(f"loop must be True (play again and again) or False (play once and "
                          f"rest on the final view), got {loop!r}")


def frame_times(scene: Scene, hold: float | None = DEFAULT_HOLD,
                final_hold: float | None = DEFAULT_FINAL_HOLD) -> list[tuple[float, float]]:
    """Start and end, in seconds, of each frame: steps 0 … last, then the final view; a
    ``None`` hold is each frame's reading time (:func:`vizgrad.scene.pacing.pace`).

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> frame_times(scene_of(examples.graph("shared-node")), 2, 4)
    [(0.0, 2.0), (2.0, 4.0), (4.0, 6.0), (6.0, 8.0), (8.0, 12.0)]
    """
    out, t = [], 0.0
    paced = pace(scene) if hold is None or final_hold is None else []
    for f in range(scene.last + 2):
        given = final_hold if f == scene.last + 1 else hold
        d = float(paced[f] if given is None else given)
        out.append((t, t + d))
        t += d
    return out


def _num(x: float) -> str:
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _paint(sh: Shape, lk: Look, hatch: str) -> Props:
    """The CSS paint of a non-text shape in look ``lk`` (every property, defaults filled)."""
    fill = "none" if sh.kind == "path" else lk.get("fill", "#000")
    if lk.get("hatch") and sh.kind != "path":
        fill = f"url(#{hatch})"
    stroke = lk.get("stroke") or "none"
    stroked = stroke != "none"
    return {"fill": fill, "stroke": stroke,
            "stroke-width": (lk.get("sw") or "1") if stroked else "1",
            "stroke-dasharray": (lk.get("dash") or "none") if stroked else "none"}


class _Sheet:
    """The style sheet: one ``@keyframes`` per distinct way elements change, shared."""

    def __init__(self, times: list[tuple[float, float]], prefix: str, loop: bool) -> None:
        self.total = times[-1][1]
        self.starts = [_num(100 * a / self.total) + "%" for a, _ in times]
        self.prefix, self.loop = prefix, loop
        self.rules: dict[tuple[Any, ...], str] = {}

    def cls(self, frames: list[Props], static: Props) -> str:
        """The class that makes an element change through ``frames`` (one CSS property
        dict per frame), written with ``static``; ``""`` if it never changes."""
        changes, prev = [], static
        for f, props in enumerate(frames):
            if props == prev:
                continue
            diff = tuple((p, v) for p, v in props.items() if prev.get(p) != v)
            if diff:
                changes.append((f, diff))
            prev = props
        if not changes:
            return ""
        key = tuple(changes)
        if key not in self.rules:
            self.rules[key] = f"{self.prefix}k{len(self.rules)}"
        return self.rules[key]

    def css(self) -> str:
        p = self.prefix
        sel = f"[class*={p}k]"
        count = "infinite" if self.loop else "1"
        out = [(f"{sel}{{animation-duration:{_num(self.total)}s;"
                f"animation-timing-function:step-end;animation-iteration-count:{count};"
                f"animation-fill-mode:both}}")]
        for key, name in self.rules.items():
            steps = "".join(self.starts[f] + "{" + ";".join(f"{k}:{v}" for k, v in diff) + "}"
                            for f, diff in key)
            out.append(f".{name}{{animation-name:{name}}}@keyframes {name}{{{steps}}}")
        out.append(f"@media (prefers-reduced-motion:reduce){{{sel}{{animation:none}}}}")
        return "\n" + "\n".join(out) + "\n"


def _texts(sh: Shape, looks: list[Look], sheet: _Sheet, prefix: str, hatch: str) -> list[str]:
    """One element per distinct version of a text, each visible in its own frames."""
    versions: dict[tuple[tuple[str, str], ...], list[int]] = {}
    for f, lk in enumerate(looks):
        if not lk.get("hidden"):
            versions.setdefault(tuple(sorted(lk.items())), []).append(f)
    last = len(looks) - 1
    on, off = {"opacity": "1"}, {"opacity": "0"}
    out = []
    for j, (look, frames) in enumerate(versions.items()):
        shown = set(frames)
        ident = f"{prefix}{sh.id}" if len(versions) == 1 else f"{prefix}{sh.id}.{j}"
        static = on if last in shown else off
        cls = sheet.cls([on if f in shown else off for f in range(len(looks))], static)
        head = f'id="{ident}" class="{sh.cls}{" " + cls if cls else ""}"'
        if static is off:
            head += ' opacity="0"'
        out.append(shape_element(sh, dict(look), head, hatch))
    return out


def _figure(sh: Shape, looks: list[Look], sheet: _Sheet, prefix: str, hatch: str) -> str | None:
    """One element of a box, circle, edge or arrowhead, its paint changing per frame."""
    shown = [f for f, lk in enumerate(looks) if not lk.get("hidden")]
    if not shown:
        return None
    base = looks[-1] if shown[-1] == len(looks) - 1 else looks[shown[-1]]
    static = {**_paint(sh, base, hatch), "opacity": "1" if shown[-1] == len(looks) - 1 else "0"}
    frames, prev = [], static
    for lk in looks:
        props = ({**_paint(sh, lk, hatch), "opacity": "1"} if not lk.get("hidden")
                 else {**prev, "opacity": "0"})
        frames.append(props)
        prev = props
    cls = sheet.cls(frames, static)
    head = f'id="{prefix}{sh.id}" class="{sh.cls}{" " + cls if cls else ""}"'
    if static["opacity"] == "0":
        head += ' opacity="0"'
    return shape_element(sh, base, head, hatch)


def _document(scene: Scene, looks: dict[str, list[Look]], times: list[tuple[float, float]],
              loop: bool, title: str, desc: str) -> str:
    """The document, with :data:`_TOKEN` where the prefix goes."""
    prefix = _TOKEN
    sheet = _Sheet(times, prefix, loop)
    hatch = f"{prefix}vg-hatch-{scene.theme.name}"
    body: list[str] = []
    for sh in layered(scene):
        seq = looks[sh.id]
        if sh.kind == "text":
            body += _texts(sh, seq, sheet, prefix, hatch)
        else:
            element = _figure(sh, seq, sheet, prefix, hatch)
            if element is not None:
                body.append(element)
    return svg_document(scene, {}, title=title, desc=desc, prefix=prefix,
                        extra_class="vg-animated", shapes=body, style=sheet.css())


def animated_svg(scene: Scene, *, hold: float | None = DEFAULT_HOLD,
                 final_hold: float | None = DEFAULT_FINAL_HOLD, loop: bool = True,
                 title: str = "", desc: str = "") -> str:
    """The animated SVG text of ``scene``: each step for ``hold`` seconds, then the final
    view for ``final_hold`` seconds (by default, each for its caption's reading time, as
    the GIF and the player); again and again with ``loop``, else once, resting on the
    final view. Same scene and options, same bytes."""
    check_timing(hold, final_hold, loop)
    frames: list[int | None] = [*range(scene.last + 1), None]
    per_frame = [scene.look(k, st) for k, st in zip(frames[:-1], scene.states())]
    per_frame.append(scene.look(None))
    looks = {sh.id: [lk.get(sh.id, {}) for lk in per_frame] for sh in scene.shapes}
    times = frame_times(scene, hold, final_hold)
    draft = _document(scene, looks, times, loop, title, desc)
    prefix = "v" + hashlib.sha256(draft.encode("utf-8")).hexdigest()[:6] + "-"
    return draft.replace(_TOKEN, prefix)
