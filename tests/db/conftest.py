"""Fixtures of the database tests: a throwaway PostgreSQL cluster (see :mod:`.postgres`)."""

from .postgres import postgres_url

__all__ = ["postgres_url"]
