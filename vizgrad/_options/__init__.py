"""The parts of :mod:`vizgrad.options`, the front door that re-exports them.

- :mod:`.table`: every drawing option, its default, check and help (``OPTIONS``);
- :mod:`.steps`: what a step means (``"final"``, ``"first"``, ``"last"``, a number);
- :mod:`.ranges`: the numbers that bound or tune a run (``--h``, ``--max-seconds``, ...).
"""

__all__: list[str] = []
