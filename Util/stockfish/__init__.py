"""Stockfish as an opponent and a judge (notebook 05): one guarded process, the AI against Stockfish, Stockfish
defending drawn positions.
"""
