"""Running Graphviz: the only place a layout program starts.

``run`` (DOT text in, positions out; embedded WebAssembly or the system ``dot``),
``geometry`` (the DOT that sizes every box, and the positions read back), ``embedded``
(the WebAssembly Graphviz in a worker process) and ``wasm_worker`` (that process).
"""

__all__: list[str] = []
