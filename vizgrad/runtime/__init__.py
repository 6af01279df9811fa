"""The process around a drawing: atomic file writes, child processes, the collector's pause.

Standard library only, below every other layer: ``files`` (write a file whole or not at
all, sweep what a killed run left), ``children`` (child processes that die with their
parent), ``gc_pause`` (the garbage collector paused around a one-shot command's bulk work).
"""

__all__: list[str] = []
