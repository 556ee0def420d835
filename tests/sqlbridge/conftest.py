"""Fixtures of the bridge's tests: a throwaway PostgreSQL cluster (see :mod:`tests.db.postgres`)."""

from ..db.postgres import postgres_url

__all__ = ["postgres_url"]
