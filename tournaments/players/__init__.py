"""The field and the team: registration, corrections, late entries, missed rounds,
withdrawals, players' accounts, co-directors and scorekeepers.
"""
