"""A table as data: the DTM and exit byte values, the index scheme (``Layout``), the table type (``DtmTable``),
the stored index (where a position's value is kept in a file), and the two interfaces tables are used through
(``PositionTable``, ``TableSource``).
"""
