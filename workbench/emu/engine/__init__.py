"""The wave/workgroup engine: a listing compiled into a ``Program`` of handlers (``decode``),
the initial wave state from the kernel descriptor (``abi``), the lock-step scheduler with
divergence, barriers, budget, watchdog and Ctrl-C (``scheduler``), one launch from memory map
to copy-back (``launch``, the entry point ``execute``), and device printf read back from its
buffer (``printf``). The top floor: it drives the semantics and attaches the observers.
"""
