"""Tables as a reader finds them: a folder of ``.chessAI`` files, a table read block by block, the cache of
decoded blocks.  ``Util.tablebase`` is the face built on them.
"""
