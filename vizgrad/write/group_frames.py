"""The frames of groups opened in place, drawn into a scene's SVG: a tinted rectangle
round each opened group's members, and its label (a click on it closes the group).

Used by :meth:`vizgrad.write.svg.Drawing.svg` and by the player's views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..scene import ids
from ..scene.frames import PAD, label_band
from .svgout import xml_text

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["frame_svg", "frames_of", "with_frames"]

_TINT = "#8da0cb"  # ColorBrewer Set2 blue: membership, apart from the highlight and the grads
_ALPHA = {"light": "0.16", "dark": "0.22"}

def frame_svg(scene: Scene, frame: dict[str, Any], prefix: str,
              suffix: str = "") -> tuple[str, str]:
    """An opened group's frame (a tinted rectangle, drawn first: its members lie inside it)
    and its label in the frame's top band (drawn last; a click on it closes the group)."""
    f = scene.preset.font * 0.85
    th = scene.theme
    x, y, w, h = frame["rect"]
    path = xml_text(frame["path"])
    box = (f'<g id="{prefix}{ids.frame(suffix)}" class="vg-frame" data-path="{path}">'
           f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" rx="{f * 0.6:.2f}" '
           f'fill="{_TINT}" fill-opacity="{_ALPHA[th.name]}" stroke="{_TINT}" '
           f'stroke-width="1.5"/></g>')
    lx, ly = frame["at"]
    label = (f'<text id="{prefix}{ids.frame_label(suffix)}" class="vg-frame-label" '
             f'data-path="{path}" x="{lx:.2f}" y="{ly:.2f}" '
             f'font-size="{f:.2f}" font-weight="bold" fill="{th.text}">'
             f'{xml_text(frame["label"])} ▴</text>')
    return box, label


def frames_of(scene: Scene) -> list[dict[str, Any]]:
    """The frames of the groups a scene opens in place (its ``opened``; none: ``[]``),
    outermost first, in the picture's points, with their labels."""
    if scene.opened is None:
        return []
    dx, dy = scene.graph_box[:2]
    out = []
    for fr in scene.opened.frames:
        x, y, w, h = fr.rect
        out.append({"path": fr.path, "label": fr.label,
                    "rect": [round(x + dx, 2), round(y + dy, 2), round(w, 2), round(h, 2)],
                    "at": [round(x + dx + PAD, 2),
                           round(y + dy + label_band(scene.preset) * 0.72, 2)]})
    return out


def with_frames(scene: Scene, svg: str, frames: list[dict[str, Any]], prefix: str) -> str:
    """``svg`` (the scene's) with each frame drawn first and its label last; the first
    frame's ids are ``frame`` and ``frame-label``, the next ``frame-1`` … ."""
    at = svg.index("/>\n", svg.index('class="vg-background"')) + 3
    end = svg.rindex("</svg>")
    boxes, labels = [], []
    for k, frame in enumerate(frames):
        box, label = frame_svg(scene, frame, prefix, f"-{k}" if k else "")
        boxes.append(box + "\n")
        labels.append(label + "\n")
    return svg[:at] + "".join(boxes) + svg[at:end] + "".join(labels) + svg[end:]
