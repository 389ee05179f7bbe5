"""Results: a slip, an amendment, a forfeit, a game recorded on a board; standings
and scorecards, the public pages every result reaches.
"""
