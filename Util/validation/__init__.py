"""Checking our tables against the references the chess world trusts: Gaviota, Syzygy, python-chess's move
generation, one ply deep.
"""
