"""Prizes: a division's prize table (typed as lines or sent as JSON) and its
winners, computed by ``rules.prizes``, never stored.
"""
