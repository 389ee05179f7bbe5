"""Results: a slip, an amendment, a forfeit, a game recorded on a board; standings
and scorecards, the public pages every result reaches; and what the games app asks
of a game's tournament (``games.py``, registered at start-up).
"""
