"""The engine's inner loops, compiled with numba: one position at a time, at the speed of C.

:mod:`Util.retrograde` states the algorithm; these modules run its hot steps
(plain Python loops compiled to machine code, which release the interpreter
lock so that the engine's threads use every core).  Each module builds only
on those listed before it, and none imports the engine:

* :mod:`~Util.retrograde_kernels.board`: the packed index scheme (:class:`~Util.retrograde_kernels.board.PackedLayout`)
  and one position's squares and moves;
* :mod:`~Util.retrograde_kernels.entries`: a position's entries (identical pieces, the
  diagonal mirror), and giving all of them a value at once;
* :mod:`~Util.retrograde_kernels.blocks`: predecessors of a block of positions, and the
  forward check of loss candidates;
* :mod:`~Util.retrograde_kernels.counters`: the loss counters kept in the DTM bytes;
* :mod:`~Util.retrograde_kernels.plies`: the kernels of a ply (mark wins, mark losses,
  pull, mates);
* :mod:`~Util.retrograde_kernels.sorting`: exits grouped by ply, positions put in order,
  bytes counted;
* :mod:`~Util.retrograde_kernels.legality` and :mod:`~Util.retrograde_kernels.exits`: the first
  pass's rules and exit bytes (the compiled twins of :mod:`Util.rules.legality` and
  :mod:`Util.rules.exits`);
* :mod:`~Util.retrograde_kernels.precompile`: :func:`~Util.retrograde_kernels.precompile.warm_up`
  loads every kernel's compiled code (cached on disk: compiled once per machine).

This package's ``__init__`` imports nothing: importing numba costs 0.4 s,
which a probe that never computes should not pay.
"""
