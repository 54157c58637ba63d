"""Games against the AI: how a game ends, its records, the session, the trainer's verdicts and hints (thesis
chapters 4 and 5).
"""
