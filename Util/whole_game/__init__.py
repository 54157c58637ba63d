"""The whole-game chess engine: rules at speed (bitboards compiled with numba), position keys equal to
Polyglot's, and an iterative-deepening alpha-beta search over a tapered, weighted evaluation.

``kernels/`` holds the compiled loops (they never import the Python that drives them); the modules here
turn python-chess boards into the kernels' arrays and back (:mod:`.position`), count moves
(:mod:`.perft`), hold the evaluation's weights (:mod:`.evaluation`) and drive the search (:mod:`.search`).
``python -m Util.whole_game.precompile`` compiles the kernels into numba's cache (the setup runs it);
``perft_check`` checks perft against the shared suites' published counts and ``feature_worth`` measures what
each search feature adds.
"""
