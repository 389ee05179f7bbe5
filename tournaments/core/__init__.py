"""The tournament's core: its aggregate, who may do what, the one write path,
the stream type and its projections.

- ``aggregate``: the tournament's stream, and loading its state (once per request)
- ``access``: who may read, direct, score-keep or create: written once
- ``writes``: ``append_as_director``, the one validated append of every command
- ``stream``, ``projection``: the stream type (validation through ``rules``) and the
  read models it rewrites after each append
- ``headers``: a tournament's header row, read without the aggregate
- ``events``: the tournament stream's events that are the system's, not the rules'
- ``api``, ``pages``, ``forms``, ``serializers``: what every feature's API views,
  pages, forms and serializers share
- ``errors``, ``converters``, ``uploads``
"""
