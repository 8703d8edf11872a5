"""From instruction text to what a semantic builder consumes: the semantic table (``registry``:
mnemonic -> builder, handler kinds, encoding suffixes), operand text -> typed, pre-resolved
register/constant accessors (``operands``), the RDNA3/RDNA4 formats, encoding lengths and
mnemonic renames onto the gfx9 table (``rdna``), and the typed reads and fault messages the
families share (``common``). The listing -> ``Program`` step that uses all of this and every
family is ``engine.decode``, one floor up.
"""
