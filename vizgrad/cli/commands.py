"""The ``vizgrad`` command: render the chapter's examples and your own graphs, check gradients.

This module only parses arguments and delegates (to :mod:`vizgrad.export.batch`,
:mod:`vizgrad.graph.examples`, :mod:`vizgrad.core.expr`, :mod:`vizgrad.graph.gradcheck`). A
:class:`~vizgrad.exceptions.VizgradError` becomes a click error: exit code 2
for a usage mistake, 1 for a failure while rendering; never a traceback.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any, Callable

import click

from .. import __version__
from .args import drawing_options as _drawing_options
from .args import errors as _errors
from .args import notes as _notes
from .args import parse_format as _parse_format
from .args import parse_sets as _parse_sets
from .args import parse_size as _parse_size
from .args import build_limits as _build_limits
from .args import ranged as _ranged
from .args import read_option as _checked
from .check import check as _check
from ..runtime.gc_pause import frozen_heap, paused_collector
from .progress import Phases as _Phases
from ..export.budget import DEFAULT_MAX_SECONDS, MAX_CELLS
from ..runtime.watchdog import DEFAULT_BUILD_MEMORY, DEFAULT_BUILD_SECONDS
from ..exceptions import (
    ExpressionError,
    GraphFormatError,
    ModelLoadError,
    OptionError,
    UnknownExampleError,
)
from ..i18n import languages
from ..options import StepArg, parse_step
from ..options import Options as DrawOptions

__all__ = ["main"]

#: commands that live in other modules, imported only when used: name -> (module, attribute)
LAZY_COMMANDS = {"serve": ("vizgrad.lab.cli", "serve"), "train": ("vizgrad.cli.train", "train")}


def _unavailable(name: str, message: str, short: str) -> click.Command:
    """A stand-in for a command whose dependencies are missing: it says what to install."""

    def fail() -> None:
        raise click.ClickException(message)

    return click.Command(name, callback=fail, help=message, short_help=f"(unavailable: {short})",
                         context_settings={"ignore_unknown_options": True,
                                           "allow_extra_args": True})


class _Group(click.Group):
    """A group that also offers commands from optional modules (``serve`` from the lab)."""

    def _lazy(self, name: str) -> click.Command | None:
        module_name, attr = LAZY_COMMANDS[name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name and module_name.startswith(err.name):
                return None  # the module is not part of this install
            return _unavailable(name, f"'vizgrad {name}' needs the {err.name!r} package: "
                                      f"pip install {err.name}", f"pip install {err.name}")
        except ImportError as err:  # a broken install: say so, keep the other commands working
            return _unavailable(name, f"'vizgrad {name}' cannot be loaded: {err}", "broken install")
        cmd = getattr(module, attr, None)
        return cmd if isinstance(cmd, click.Command) else None

    def list_commands(self, ctx: click.Context) -> list[str]:
        lazy = [n for n in LAZY_COMMANDS if n not in self.commands and self._lazy(n) is not None]
        return sorted([*super().list_commands(ctx), *lazy])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None and cmd_name in LAZY_COMMANDS:
            cmd = self._lazy(cmd_name)
        return cmd


@click.group(cls=_Group,
             context_settings={"help_option_names": ["--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="vizgrad",
                      message="%(prog)s %(version)s")
def main() -> None:
    """See backpropagation: render the chapter's graphs step by step, check gradients.

    \b
    Examples:
      vizgrad render                        # the whole gallery into gallery/
      vizgrad render fork --format svg,gif  # one example, two formats
      vizgrad render --expr "(a*b)*(a+b)" --set a=-2 --set b=3 -o q.svg
      vizgrad render fork -o fork.anim.svg  # every step in one animated SVG
      vizgrad render path/to/model.py:build --out out/
      vizgrad check fork --h 1e-6
    """


@main.command()
@click.argument("targets", nargs=-1, metavar="[EXAMPLE | MODEL.py[:FUNC] | GRAPH.json]...")
@click.option("--expr", "-e", metavar="EXPRESSION",
              help='An expression to render, e.g. "(a*b)*(a+b)"; variables come from --set.')
@click.option("--set", "values", multiple=True, callback=_parse_sets, metavar="NAME=NUMBER",
              help="A variable or example input value (repeatable), e.g. --set a=-2.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one file; its suffix names the format (.svg .anim.svg .dot .json "
                   ".html .gif .mp4 .webp .png .pdf; .anim.svg is the animated SVG).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("gallery"),
              show_default=True, help="The folder a batch export writes into.")
@click.option("--format", "formats", callback=_parse_format, metavar="LIST",
              help="Comma-separated formats of a batch: svg, animated-svg, gif, png, mp4, "
                   "json, dot, html [default: all but png and mp4].")
@click.option("--frames", is_flag=True, help="Also write one PNG frame per step.")
@click.option("--step", callback=lambda c, p, v: _checked(parse_step, v), metavar="K",
              help="The step the single pictures (NAME.svg, .dot, .png, -o) show and the "
                   "player opens at: a number (0 is the inputs), first, last or final "
                   "[default: the final view; the player: step 0].")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=2, show_default=True,
              help="Worker processes for a batch.")
@click.option("--max-cells", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"Refuse a step player holding more than N values × steps "
                   f"[default: {MAX_CELLS}].")
@click.option("--max-bytes", callback=_parse_size, metavar="SIZE",
              help="Refuse an export estimated to write more than this, e.g. 500M or 2G "
                   "[default: 200M].")
@click.option("--max-seconds", type=float, callback=_ranged("max_seconds"),
              default=DEFAULT_MAX_SECONDS, show_default=True, metavar="SECONDS",
              help="Refuse an export estimated to take longer than this (0 < SECONDS <= "
                   "86400).")
@_build_limits
@click.option("--force", is_flag=True,
              help="With --preset slides -o NAME.svg: replace NAME-k.svg files that vizgrad "
                   "did not write (by default they are kept and the set is refused).")
@click.option("--merge-constants/--no-merge-constants", default=None,
              help="Draw once per layer every number micrograd wraps in every neuron; "
                   "--no-merge-constants keeps every copy. By default a net's inputs are "
                   "drawn once per sample and feature (x[s][i]).")
@_drawing_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def render(targets: tuple[str, ...], expr: str | None, values: dict[str, float],
           output: Path | None, out: Path, formats: tuple[str, ...] | None, frames: bool,
           step: StepArg, jobs: int, max_cells: int | None, max_bytes: int | None,
           max_seconds: float, build_seconds: float | None, build_memory: int | None,
           force: bool, merge_constants: bool | None, quiet: bool, **drawing: Any) -> None:
    """Render examples (default: all), an expression or a model file.

    A batch writes, per graph, OUT/NAME/NAME.svg and one SVG per step in
    OUT/NAME/steps/, an animated SVG of every step (NAME.anim.svg: CSS only,
    no script), the GIF, the node-link JSON, the DOT and a self-contained
    HTML step player. With no targets it writes the whole gallery in every
    language (or in the one --lang names): English in OUT/NAME/ with
    OUT/README.md, Chinese in OUT/NAME/zh/ with OUT/README.zh.md (by default
    the SVG, the animated SVG and the player, and fork's SVG per step; JSON
    and DOT are shared).

    \b
    Targets:
      fork softmax-nll ...     chapter examples (see 'vizgrad list')
      path/model.py[:build]    build() returns a Value or a list of Values
                               (the first is the root); micrograd's too
      graph.json               a graph saved by -o graph.json or vizgrad.to_json

    Every limit (--max-nodes, --max-cells, --max-bytes, --max-seconds) is
    checked before anything is written; the estimates are rough upper bounds.
    """
    from .model_file import is_model_spec
    from .targets import expr_graph, graph_of, title_of
    from ..export.batch import TRANSLATED_FORMATS, Job, Options, gallery_jobs

    net = drawing.pop("model", None)  # a name in the model file, not a Python object
    if expr is not None and targets:
        raise click.UsageError("give either --expr or targets, not both")
    if net is not None and not any(is_model_spec(t) for t in targets):
        raise click.BadParameter(f"{net!r} would name a net in a model file; give one as "
                                 "path/to/model.py:build", param_hint="'--model'")
    if output is not None and formats is not None:
        raise click.UsageError("-o names its format by its suffix; drop --format (or use --out)")
    if output is not None and frames:
        raise click.UsageError("--frames writes a folder of PNGs; use --out DIR instead of -o")
    everything = expr is None and not targets
    given = {k: v for k, v in drawing.items() if v is not None}
    if everything and "backend" not in given:
        given["backend"] = "embedded"  # the committed gallery must not depend on the machine
    if merge_constants is not None:
        given["merge_constants"] = "layer" if merge_constants else False
    lang = given.get("lang")
    chosen: dict[str, Any] = {"max_seconds": max_seconds, "max_cells": max_cells,
                              "max_bytes": max_bytes, "formats": formats or None}
    opts = Options(step=step, frames=frames, drawing=DrawOptions(**given),
                   **{k: v for k, v in chosen.items() if v is not None})  # else the defaults
    phases = _Phases(output is not None and not quiet and output.suffix.lower() not in
                     (".gif", ".mp4", ".webp"))  # an animation has its bar of frames
    with _errors({ExpressionError: "'--expr'" if expr is not None else "'--set'",
                  UnknownExampleError: "'TARGETS'", ModelLoadError: "'TARGETS'",
                  GraphFormatError: "'TARGETS'", OptionError: None}), phases:
        with paused_collector(), _notes():  # the graphs' build: millions of objects
            phases("trace")
            if expr is not None:
                job_list = [Job("expr", expr_graph(expr, values), expr.strip())]
            elif everything:  # every language, unless --lang names one (not $VIZGRAD_LANG)
                job_list = gallery_jobs([lang] if lang else languages(), None,
                                        formats or TRANSLATED_FORMATS, **values)
            else:
                limits = (build_seconds or min(DEFAULT_BUILD_SECONDS, max_seconds),
                          build_memory or DEFAULT_BUILD_MEMORY)
                job_list = [Job(*graph_of(t, values, net, limits), title_of(t),
                                _example_shrink(t)) for t in dict.fromkeys(targets)]
        with frozen_heap():  # drawing's collections leave the graphs alone
            _write(job_list, output, out, opts, jobs, quiet, everything, phases, force)
        if everything:  # the gallery's training example, beside the chapter's
            from ..training.gallery import write_gallery

            write_gallery(out, [lang] if lang else languages(), formats)


def _write(job_list: list[Any], output: Path | None, out: Path, opts: Any, jobs: int,
           quiet: bool, everything: bool, phases: Callable[[str], None] | None = None,
           force: bool = False) -> None:
    """Write the jobs' files: one file (``-o``) or a batch into ``out``."""
    from ..export.batch import export, resolved, units, write_one

    if output is not None:
        if len(job_list) != 1:
            raise click.UsageError("-o writes one file: give one target (or use --out DIR)")
        job = job_list[0]
        animation = output.suffix.lower() in (".gif", ".mp4", ".webp")
        if quiet or not animation:
            written = write_one(job.graph, output, opts, title=job.title, name=job.name,
                                on_phase=phases, force=force)
        else:
            with _bar(len(job.graph.graph["steps"]), "rendering frames") as bar:
                written = write_one(job.graph, output, opts, title=job.title, name=job.name,
                                    on_step=bar.update)
        if not quiet:
            if isinstance(phases, _Phases):
                phases.__exit__(None, None, None)  # the bar ends before the summary line
            more = f" ({len(written)} slides)" if len(written) > 1 else ""
            click.echo(f"wrote {', '.join(map(str, written))}{more}", err=True)
        return
    job_list, opts = resolved(job_list, opts)  # laid out once, for the bar and the export
    if quiet:
        report = export(job_list, out, opts, workers=jobs, readme=everything,
                        readme_extra=_training_section(opts))
    else:
        with _bar(units(job_list, opts), "rendering") as bar:
            report = export(job_list, out, opts, workers=jobs, readme=everything,
                            readme_extra=_training_section(opts),
                            on_done=lambda label: bar.update(0, label),
                            on_step=bar.update)
    if not quiet:
        click.echo(
            f"rendered {len(report.names)} graph{'s' if len(report.names) != 1 else ''} into "
            f"{out}/: {len(report.files)} files, {len(report.changed)} changed, "
            f"in {report.seconds:.1f} s ({jobs} process{'es' if jobs != 1 else ''})", err=True)


def _training_section(opts: Any) -> Callable[[str], str]:
    """The gallery page's section of the training example, in a language."""
    from ..training.gallery import readme_section

    return lambda lang: readme_section(lang, opts.formats)


def _example_shrink(target: str) -> dict[str, Any]:
    """An example's own collapse level (the mlp is drawn by neuron); nothing for a file."""
    from ..graph import examples

    level = examples.collapse_level(target) if target in examples.names() else None
    return {"collapse": level} if level else {}


def _bar(length: int, label: str) -> Any:
    """A progress bar on stderr counting pictures (step SVGs, frames), with the time left."""
    return click.progressbar(length=max(length, 1), label=label, file=sys.stderr,
                             show_eta=True, show_pos=True,
                             item_show_func=lambda item: item)


@main.command("list")
@click.option("--json", "as_json", is_flag=True,
              help="Print names, descriptions and inputs as JSON.")
def list_(as_json: bool) -> None:
    """List the chapter's examples with one-line descriptions."""
    from ..graph import examples

    names = examples.names()
    if as_json:
        click.echo(json.dumps([{"name": n, "description": examples.describe(n),
                                "inputs": examples.defaults(n)} for n in names], indent=1))
        return
    width = max(map(len, names))
    for n in names:
        click.echo(f"{n:<{width}}  {examples.describe(n)}")


main.add_command(_check)  # its own module: the table, its kinks and its verdict
