"""Scoring a duplicate session: matchpoints, IMPs, VPs, adjusted scores and rankings.

Pure functions over plain numbers (`matchpoints`, `imps`, `vp`, `ranking`), the adjusted-score
rules of Laws 12 and 81 (`adjusted`), and `session`, an in-memory model of one session's
results that the scoring database feeds.  Nothing here touches files or a database.
"""
