"""Writing files: the batch export behind ``vizgrad render``, its jobs, budget and workers.

``batch`` (every format of every graph, atomically), ``jobs`` (what one graph renders),
``budget`` (bytes and seconds estimated before anything is drawn), ``pool`` (the worker
processes) and ``gallery_page`` (the gallery's README pages).
"""

__all__: list[str] = []
