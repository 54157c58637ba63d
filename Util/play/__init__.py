"""Games against the AI (thesis chapters 4 and 5): the set-up, typed moves, the session, its records, the
verdicts and hints, mutual zugzwangs, random starts, and the words a person reads about all of them.
"""
