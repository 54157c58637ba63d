"""The ``.chessAI`` file formats: read and written whole (versions 1-4, ``chessai``), the random-access blocks
of version 4 (``blocks``), the one-stream pickles of versions 1-3 and checkpoints (``pickled``), ISA-L's
inflate for versions 1-3 (``inflate``).
"""
