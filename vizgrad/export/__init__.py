"""Writing files: the batch export behind ``vizgrad render``, its jobs, budget and workers.

``batch`` (every format of every graph, atomically), ``tasks`` (what each task of it
writes), ``checks`` (every limit, before anything is written), ``one_file`` (``-o FILE``),
``jobs`` (what one graph renders), ``budget`` and ``slide_budget`` (bytes and seconds
estimated before anything is drawn), ``pool`` (the worker processes) and ``gallery_page``
(the gallery's README pages).
"""

__all__: list[str] = []
