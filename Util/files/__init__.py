"""The ``.chessAI`` file formats: read and written whole (versions 1-4), the random-access blocks of version 4,
ISA-L's inflate for versions 1-3.
"""
