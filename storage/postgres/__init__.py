"""PostgreSQL behind the storage port (asyncpg): several processes sharing one database.

Chosen by ``DATABASE_URL=postgresql://…`` (:func:`storage.backends.open_store`).
"""

from storage.postgres.migrate import migrate
from storage.postgres.store import PgStorage

__all__ = ["PgStorage", "migrate"]
