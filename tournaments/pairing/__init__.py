"""Pairing: a round's pairings (by the system or by hand), a division's pairing
rules, and the pairings pages.
"""
