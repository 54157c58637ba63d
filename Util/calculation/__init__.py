"""Computing tables into files (sub-tables first, checkpoints, resume) and counting the boards of each S_n.
"""
