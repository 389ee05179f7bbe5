"""Ratings files and estimates: tsh ``.t``/``config.tsh``, ``.TOU`` and ABSP files in
and out, ratings bodies' lists, the rating estimates and the ratings exports' API.
"""
