"""The layer map: every folder and root module of the package, lowest layer first.

A module may import from its own layer or a lower one, never a higher one, and no two
modules import each other, directly or round a circle (``tests/test_layers.py`` reads this
table and checks every import: top-level, inside a function and under ``TYPE_CHECKING``).
The pipeline reads top to bottom: a Value (``core``) is traced (``tracing``), turned into a
graph (``graph``), laid out once into a Scene (``scene``), written (``write``, ``player``),
exported as files (``export``), and offered by the command line, the embeds and the lab.

    >>> layer_of("vizgrad.scene.layout.run")
    'scene'
    >>> layer_of("vizgrad.options"), layer_of("vizgrad")
    ('options', 'facade')
    >>> [name for name, _, _ in LAYERS][:4]
    ['base', 'runtime', 'core', 'tracing']
"""

from __future__ import annotations

__all__ = ["LAYERS", "layer_of", "rank"]

#: (layer, its members: sub-packages or root modules, what it holds), lowest first
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("base", ("_version", "exceptions", "i18n", "_layers"),
     "the version, every error vizgrad raises, the words of each language, this map"),
    ("runtime", ("runtime",),
     "atomic file writes, child processes, the collector's pause (standard library only)"),
    ("core", ("core",),
     "the Value, groups, nn, the expression parser, numerals (standard library only)"),
    ("tracing", ("tracing",),
     "the trace: the walk, the backward records, names and roles"),
    ("style", ("style",),
     "words and numbers of a picture, text widths, themes, presets"),
    ("graph", ("graph",),
     "networkx graphs, JSON and its checks, columns, samples, examples, gradcheck, collapse/"),
    ("options", ("options", "_options"),
     "every drawing option once: default, check, help (the front door; its parts in _options/)"),
    ("scene", ("scene",),
     "the graph drawn, laid out once (layout/ runs Graphviz), the Scene, its looks"),
    ("write", ("write",),
     "SVG, animated SVG, slides, playback; raster/ for PNG, GIF and MP4"),
    ("player", ("player",),
     "the self-contained HTML step player, its views and script bundle"),
    ("export", ("export",),
     "the batch export: jobs, the budget, worker processes, the gallery's pages"),
    ("training", ("training",),
     "vizgrad train: gradient descent recorded, the training player, its summary and film"),
    ("embed", ("embed",),
     "notebooks, Sphinx and MkDocs"),
    ("lab", ("lab",),
     "vizgrad serve: the chapter's lab as a web service"),
    ("cli", ("cli",),
     "the vizgrad command: render, check, list, serve, train"),
    ("facade", ("", "__main__", "engine", "collapse", "examples", "nn", "markdown", "sphinx"),
     "the package's front door and the documented import paths, re-exported"),
)


def layer_of(module: str) -> str:
    """The layer of a dotted module name ``vizgrad.…``: its longest listed prefix."""
    rest = module.split(".")[1:]
    for size in range(len(rest), -1, -1):
        prefix = ".".join(rest[:size])
        for name, members, _ in LAYERS:
            if prefix in members:
                return name
    raise KeyError(f"{module} is in no layer of vizgrad._layers.LAYERS")


def rank(layer: str) -> int:
    """The height of a layer: 0 for the lowest."""
    return [name for name, _, _ in LAYERS].index(layer)
