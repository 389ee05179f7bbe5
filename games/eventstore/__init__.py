"""The append-only event store: one table for every stream, validated appends.

A package of its own (a Django app, label ``eventstore``) that knows no game and no
tournament: each stream type registers what the store needs from it (how to decode,
validate and project its events, and where its projections record their version),
from its app's ``ready()``. Its modules, by role:

* ``store``: append, read and load streams (optimistic concurrency, the state cache);
* ``streams``: stream keys, recorded events, the ``StreamType`` contract and the
  registry of stream types;
* ``codec``: the one codec of events (JSON payloads by registered type names);
* ``errors``: the store's errors, and the refusal of an event by a stream's rules;
* ``chain``: the hash chain over each stream's events;
* ``cache``: each process's states by stream and version;
* ``sql``: binary cursors and the bulk insert of rows as arrays;
* ``rebuild``, ``repair``, ``backup``, ``warmup``: rebuilding projections, repairing
  stale ones, backups and their verification, warming a server process;
* ``models``: the ``event_log`` table; ``admin``: the log shown read-only.

This module imports nothing: Django imports it before the models are ready.
"""
