"""Benchmarks that print numbers (``python -m Util bench``): computing tables, and probing them (``--probe``).
"""
