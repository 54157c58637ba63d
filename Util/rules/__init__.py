"""The rules of chess on whole numpy arrays of table indices: geometry, legality, moves and un-moves, exits into
smaller tables, en passant.  They are the specification the compiled kernels are tested equal to.
"""
