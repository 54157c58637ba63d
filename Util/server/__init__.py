"""The tablebase server (``python -m Util serve``): the lichess-shaped HTTP API and the trainer page; the answers
apart from any web framework.
"""
