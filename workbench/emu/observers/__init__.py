"""Observers the engine and the handlers call only when a launch asks for them (one attribute
test when off): the per-launch ``trace`` (LDS records, instruction mix, bytes moved), ``check``
mode (LDS races, uninitialised reads, early register reads, barrier mismatches, livelocks),
the ``stream`` recorder that feeds ``workbench.timing``, and opcode ``coverage`` against the
semantic table. They read the decoder's types; nothing below them imports them.
"""
