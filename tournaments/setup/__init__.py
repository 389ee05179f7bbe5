"""The tournament itself: creating it, its settings, divisions, publication, and its
public list and pages.
"""
