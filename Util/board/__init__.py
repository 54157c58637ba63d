"""The board as the thesis writes it down: material (which pieces), the thesis's integer, the board's symmetries.
"""
