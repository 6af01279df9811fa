"""The training player: one self-contained page (no network, works from ``file://``) that
plays a recorded :class:`~vizgrad.training.record.Training`.

The loss curve with the current step marked (click or drag to move), the net's parameters
and grads as coloured cells (data on one scale for the whole run, grads on each step's own
scale with its end written, so no step goes white), a picked parameter's own curve and its
update in the chapter's notation, the prediction over the input plane for 2-D inputs, play,
pause, keys and speed, and the chosen steps' forward and backward pass in the step player.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import Any

from .data import TrainingData as Training
from ..i18n import catalogue, resolve

__all__ = ["MAX_BYTES", "PLANE_SIZE", "page_data", "plane", "training_html", "notebook_html"]

#: the prediction over the input plane: this many points a side
PLANE_SIZE = 32
#: the page's size budget: detailed steps are added while it holds
MAX_BYTES = 10_000_000


def _asset(name: str) -> str:
    return resources.files("vizgrad.training").joinpath("assets", name).read_text("utf-8")


def _hash(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _json_block(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _plain_block(page: str) -> str:
    """A page kept as the text of a ``<script type="text/plain">``: ``</script`` and ``<!--``
    are written ``<\\/script`` and ``<\\!--`` (the script turns them back)."""
    if "<\\/script" in page or "<\\!--" in page:
        raise ValueError("a detailed step's page holds an escaped script end already")
    return page.replace("</script", "<\\/script").replace("<!--", "<\\!--")


def _finite(xs: list[float]) -> list[float | None]:
    return [x if x == x and abs(x) != float("inf") else None for x in xs]


def plane(training: Training, n: int = PLANE_SIZE) -> dict[str, Any] | None:
    """The net's output on an ``n × n`` grid over the samples' box (padded by a quarter),
    per step, rounded to 2 decimals: for a net with 2 inputs, samples and readable
    activations; else None."""
    from .net import forward

    shape = training.net
    if (training.samples is None or shape["inputs"] != 2 or None in shape["activations"]
            or not training.samples[0]):
        return None
    import numpy as np

    xs = np.asarray(training.samples[0], dtype=float)
    lo, hi = xs.min(axis=0), xs.max(axis=0)
    pad = (hi - lo) * 0.25 + 1e-9
    lo, hi = lo - pad, hi + pad
    gx, gy = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    pts = np.array([[x, y] for y in gy for x in gx])
    values = [[round(v, 2) if v == v else None for v in forward(shape, d, pts)]
              for d in training.run.data]
    return {"n": n, "x0": float(lo[0]), "x1": float(hi[0]), "y0": float(lo[1]),
            "y1": float(hi[1]), "values": values}


def page_data(training: Training, lang: str) -> dict[str, Any]:
    """What the page's script reads."""
    words = {k.split(".", 1)[1]: v for k, v in catalogue(lang).items() if k.startswith("train.")}
    run = training.run
    # the parameter shown first: the one whose grads move most over the run
    pick = max(range(len(training.names)),
               key=lambda i: sum(abs(g[i]) for g in run.grads if g[i] == g[i])) if len(run) else 0
    data: dict[str, Any] = {
        "words": words, "names": training.names, "net": training.net, "lrs": training.lrs,
        "loss": _finite(run.losses), "data": [_finite(r) for r in run.data],
        "grad": [_finite(r) for r in run.grads], "pick": pick, "plane": plane(training),
        "samples": None if training.samples is None else
        {"x": training.samples[0], "y": training.samples[1]}}
    if training.compare is not None:
        c = training.compare
        data["compare"] = {"loss": _finite(c.losses + [float("nan")] * (len(run) - len(c)))[
            :len(run)], "grad": [_finite(r) for r in c.grads[:len(run)]]}
    else:
        data["compare"] = None
    return data


def _details(training: Training, lang: str, room: int) -> dict[str, str]:
    """The chosen steps' step players (the layer view), the first, the last and then the
    others, as many as fit in ``room`` bytes."""
    from ..graph.collapse import fold_outside
    from ..graph.convert import to_networkx
    from ..player.page import player_html

    ks = sorted(k for k in training.details if k < len(training.run))
    order = sorted(ks, key=lambda k: (k not in (ks[0], ks[-1]), k)) if ks else []
    out: dict[str, str] = {}
    for k in order:
        # the loss and its penalty after the net in one box, as the overview draws them
        page = player_html(fold_outside(to_networkx(training.details[k])), collapse="layer",
                           lang=lang, max_views=0,
                           title=f"{training.title}: step {k}")
        size = len(_plain_block(page).encode("utf-8")) + 60  # as the page holds it
        if size > room:
            break  # the others are as large: the same net, another step
        room -= size
        out[str(k)] = page
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def _notes(training: Training, lang: str) -> list[str]:
    w = catalogue(lang)
    notes = []
    run = training.run
    if run.stopped:
        what = (w["train.overflowed"] if run.stopped_value == "overflow"
                else w["train.is"].format(value=run.stopped_value))
        text = w["train.stopped"].format(what=what, k=run.stopped_at)
        notes.append(f'<p class="note stop" role="alert">{html.escape(text)}</p>')
    zero = {"accumulated": "train.accumulated", "reset": "train.reset"}.get(training.run.zero_grad)
    if zero:
        notes.append(f'<p class="note">{html.escape(w[zero])}</p>')
    if training.compare is not None:
        notes.append(f'<p class="note">{html.escape(w["train.compare"])}: '
                     f'{html.escape(w["train.accumulated"])}</p>')
    if training.compare_reason:
        text = w[f"train.cannot_{training.compare_reason}"]
        notes.append(f'<p class="note">{html.escape(text)}</p>')
    return notes


def training_html(training: Training, lang: str | None = None,
                  max_bytes: int = MAX_BYTES) -> str:
    """The training player as one page of text; the same record gives the same bytes.
    The chosen steps' step players are added while the page stays within ``max_bytes``."""
    lang = resolve(lang)
    w = catalogue(lang)
    data = page_data(training, lang)
    base = len(_json_block(data).encode("utf-8")) + 40_000
    details = _details(training, lang, max_bytes - base)
    script = _asset("train.js")
    hashes = {_hash(script)}
    for page in details.values():
        hashes.update(re.findall(r"'sha256-([A-Za-z0-9+/=]+)'", page))
    csp = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; "
           "script-src " + " ".join(f"'sha256-{h}'" for h in sorted(hashes)))
    title = w["train.title"].format(name=training.title)
    opens = ""
    if details:
        steps = ", ".join(details)
        buttons = "".join(f'<button class="open" data-step="{k}">'
                          f'{html.escape(w["train.open"].format(k=k))}</button>'
                          for k in details)
        hint = html.escape(w["train.open_hint"].format(steps=steps))
        opens = (f'<section class="opens needs-js"><p>{hint}'
                 f'</p>{buttons}</section><section id="detail" hidden><div class="bar">'
                 f'<strong id="detail-title"></strong><button id="close">'
                 f'{html.escape(w["train.close"])}</button></div>'
                 f'<iframe id="detail-frame" title="step player"></iframe></section>')
    plane_fig = ""
    if data["plane"] is not None:
        plane_fig = (f'<figure><figcaption>{html.escape(w["train.boundary"])}</figcaption>'
                     f'<canvas id="plane" width="320" height="320"></canvas></figure>')
    compare = ""
    if data["compare"] is not None:
        compare = '<figure><figcaption id="cname"></figcaption><div id="ccurve"></div></figure>'
    loss_more = "" if data["compare"] is None else "; " + w["train.compare"]
    speeds = "".join(f'<option value="{s}"{" selected" if s == 1 else ""}>{s}×</option>'
                     for s in (0.5, 1, 2, 4))
    e = html.escape
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title><style>{_asset("train.css")}</style></head>
<body><main><h1>{e(title)}</h1>
{"".join(_notes(training, lang))}
<p class="nojs">{e(w["train.nojs"])}</p>
<div class="bar needs-js" role="group"><button id="prev">{e(w["train.prev"])}</button>
<button id="play">{e(w["train.play"])}</button><button id="next">{e(w["train.next"])}</button>
<label>{e(w["train.speed"])} <select id="speed">{speeds}</select></label>
<input id="slider" type="range" min="0" value="0" aria-label="{e(w["train.at"].format(k=""))}">
<span id="status" aria-live="polite"></span></div>
<p class="needs-js">{e(w["train.keys"])} {e(w["train.pick"])}</p>
<div class="panels needs-js"><div>
<figure><figcaption>{e(w["train.curve"])}{loss_more}</figcaption><div id="loss"></div></figure>
<figure><figcaption id="ucap"></figcaption><div id="update"></div></figure>
<figure><figcaption id="dcap"></figcaption><div class="layers" id="data"></div></figure>
<figure><figcaption id="gcap"></figcaption><div class="layers" id="grad"></div></figure>
</div><div>
{plane_fig}
<figure><figcaption id="pname"></figcaption><div id="pcurve"></div><div id="gcurve"></div>
</figure>
{compare}</div></div>
{opens}
</main>
<script type="application/json" id="vg-train">{_json_block(data)}</script>
{"".join(f'<script type="text/plain" id="vg-detail-{k}">{_plain_block(p)}</script>'
         for k, p in details.items())}
<script>{script}</script></body></html>
"""


def notebook_html(training: Training) -> str:
    """The player in a notebook cell: the page in a sandboxed frame."""
    page = training_html(training)
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" style="width:100%;height:900px;'
            'border:0" sandbox="allow-scripts"></iframe>')
