"""How work runs: threads and worker processes, progress bars, whether anyone watches (headless runs), memory
handed back to the system.
"""
