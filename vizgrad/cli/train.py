"""``vizgrad train MODEL.py[:FUNC] --steps N --lr LR -o OUT``: record gradient descent on a
student's own net and write it as a training player (``.html``), ``.json``, an ``.svg``
summary, a ``.gif`` or an ``.mp4``.

Everything is checked, and the whole run recorded, before the one file is written: a bad
input writes nothing (exit 2). A loss that becomes NaN or infinite stops the run; the steps
before it are written and the message names the step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .args import build_limits as _build_limits
from .args import errors as _errors
from .args import parse_size as _parse_size
from ..exceptions import ModelLoadError, OptionError, RenderError, TrainingError

__all__ = ["train"]

_SUFFIXES = (".html", ".json", ".svg", ".gif", ".mp4")


def _detail(ctx: click.Context, param: click.Parameter, text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r}: give step numbers separated by commas, "
                                 "e.g. --detail 0,10,99") from None


def _samples(module: Any, text: str | None) -> tuple[Any, Any] | None:
    names = (text or "xs,ys").split(",")
    if len(names) != 2:
        raise click.BadParameter(f"{text!r}: give two names, inputs and targets, e.g. xs,ys",
                                 param_hint="'--samples'")
    found = [getattr(module, n.strip(), None) for n in names]
    if None in found:
        if text is not None:
            raise click.BadParameter(f"the model file has no {names[found.index(None)]!r}",
                                     param_hint="'--samples'")
        return None
    return found[0], found[1]


@click.command()
@click.argument("target", metavar="MODEL.py[:FUNC]")
@click.option("--steps", type=int, default=100, show_default=True,
              help="How many times FUNC is called: one gradient-descent step each.")
@click.option("--lr", default="0.05", show_default=True, metavar="LR",
              help='The learning rate: a number ≥ 0 or an expression in the step k, '
                   'e.g. "1 - 0.9*k/100" (read by the safe parser, never eval).')
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write; its suffix names the format: .html (the training "
                   "player), .json, .svg (a summary), .gif or .mp4.")
@click.option("--model", "model_name", metavar="NAME",
              help="The net: a name in the model file (default: FUNC returns it beside the "
                   "loss, or the one net of the module whose parameters are in the loss).")
@click.option("--samples", metavar="XS,YS",
              help="The module's inputs and targets, for the predictions and the input plane "
                   "[default: xs,ys if the module has them].")
@click.option("--compare", type=click.Choice(["no-zero-grad"]),
              help="Train a second time without zeroing the grads before each backward().")
@click.option("--detail", callback=_detail, metavar="K,K,...",
              help="The steps whose forward and backward pass the player can open "
                   "[default: the first, the middle and the last, as the page's budget allows].")
@click.option("--max-bytes", callback=_parse_size, metavar="SIZE",
              help="The budget: of the player page's detailed steps [default: 10M], or of "
                   "a .gif or .mp4, checked before training [default: 200M].")
@click.option("--lang", type=click.Choice(["en", "zh"]), default=None,
              help="The page's language [default: $VIZGRAD_LANG, else en].")
@_build_limits
@click.option("--quiet", "-q", is_flag=True, help="No summary line.")
def train(target: str, steps: int, lr: str, output: Path, model_name: str | None,
          samples: str | None, compare: str | None, detail: list[int] | None,
          max_bytes: int | None, lang: str | None, build_seconds: float | None,
          build_memory: int | None, quiet: bool) -> None:
    """Train a net by gradient descent and watch it learn.

    FUNC (default build) builds the loss from the net's current parameters and
    returns it. It may zero the grads and call backward() itself; if it leaves
    the loss's grad at 0, vizgrad zeroes every parameter's grad and calls
    loss.backward(). After call k every parameter moves: p.data += -lr * p.grad.

    \b
    Examples:
      vizgrad train model.py --steps 100 --lr 0.05 -o training.html
      vizgrad train model.py:loss --lr "1 - 0.9*k/100" -o training.gif
      vizgrad train model.py:loss --compare no-zero-grad -o zero-grad.html
    """
    from .model_file import find_net, is_net, open_function, run_user
    from ..runtime.watchdog import DEFAULT_BUILD_MEMORY, DEFAULT_BUILD_SECONDS, bounded
    from ..training import train as run_training

    if output.suffix.lower() not in _SUFFIXES:
        raise click.BadParameter(f"{output.name}: write one of {', '.join(_SUFFIXES)}",
                                 param_hint="'-o'")
    if output.suffix.lower() in (".gif", ".mp4"):
        from ..export.budget import DEFAULT_MAX_BYTES
        from ..training.film import check_budget

        try:
            check_budget(steps, max_bytes or DEFAULT_MAX_BYTES, output.name)
        except RenderError as err:
            raise click.BadParameter(str(err), param_hint="'--max-bytes'") from None
    with _errors({ModelLoadError: "'MODEL.py[:FUNC]'", TrainingError: None,
                  OptionError: None}):
        limits = (build_seconds or DEFAULT_BUILD_SECONDS, build_memory or DEFAULT_BUILD_MEMORY)
        with bounded(*limits, target, ("--build-seconds", "--build-memory")):
            module, fn, path = open_function(target)  # its import runs the user's code too
        net = None
        if model_name is not None:
            net = getattr(module, model_name, None)
            if not is_net(net):
                raise ModelLoadError(f"--model {model_name}: {path.name} has no net called "
                                     f"{model_name!r} (a net has parameters())")

        def find(loss: Any) -> Any:
            found = find_net(module, path.name, [loss])
            return None if found is None else found[1]

        try:
            training = run_training(fn, steps, lr, model=net, samples=_samples(module, samples),
                                    compare=compare, detail=detail, find=find,
                                    guard=lambda f: run_user(f, path, limits),
                                    title=path.stem)
        except TrainingError as err:
            raise click.BadParameter(str(err), param_hint=_hint(str(err))) from None
        try:
            training.save(output, lang=lang, max_bytes=max_bytes)
        except RenderError as err:
            raise click.ClickException(str(err)) from None
    for note in (training.run.stopped, training.compare_note):
        if note:
            click.echo(f"note: {note}", err=True)
    if not quiet:
        run = training.run
        click.echo(f"wrote {output}: {len(run)} steps, loss {run.losses[0]:.6g} → "
                   f"{run.losses[-1]:.6g}" if len(run) else f"wrote {output}: no step", err=True)


def _hint(message: str) -> str | None:
    for word, hint in (("--lr", "'--lr'"), ("steps must", "'--steps'"), ("detail", "'--detail'"),
                       ("compare", "'--compare'")):
        if message.startswith(word) or word in message[:20]:
            return hint
    return "'MODEL.py[:FUNC]'"
