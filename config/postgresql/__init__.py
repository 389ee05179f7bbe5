"""Django's PostgreSQL backend with a health check that needs no round trip when the
connection is plainly sound (see base.DatabaseWrapper)."""
