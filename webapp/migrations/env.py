"""Alembic environment for the table ledger.

Run programmatically by :func:`webapp.ledger.db.upgrade`, which passes an open connection
in ``config.attributes["connection"]``; there is no alembic.ini and no logging set-up here
(the app owns logging). To write a new revision by hand::

    alembic -x url=sqlite:////tmp/x.db -c /dev/null revision -m "..."   # then edit versions/
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from webapp.ledger.models import Base

# A fixed key: app servers sharing one PostgreSQL database migrate one at a time.
PG_MIGRATION_LOCK = 0x61676172  # "agar"


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("the ledger migrations run only through webapp.ledger.db.upgrade")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things in place: let Alembic copy-and-move tables.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATION_LOCK})
        context.run_migrations()


run_migrations_online()
