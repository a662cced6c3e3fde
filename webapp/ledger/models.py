"""The ledger's two tables, declared once for SQLite and PostgreSQL (SQLAlchemy 2.0 ORM).

A table's state (scores, dealer, honba, sticks, end of game) is never stored: it is
derived by replaying its entries through :func:`scoring.api.replay_game`, so the rows
below are the whole truth and an undo is a plain delete of the last entry.
The schema itself is created by the Alembic migrations in ``webapp/migrations``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: JSON everywhere, JSONB on PostgreSQL (smaller, validated on the way in).
JSONType = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameTable(Base):
    """One game at one physical (or online) table: its rules, players and write token."""

    __tablename__ = "ledger_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    #: The ``ruleset`` field of a request: an id or ``{"base": id, "overrides": {...}}``.
    ruleset: Mapped[Any] = mapped_column(JSONType)
    #: Starting seat -> player name, ``{"E": ..., "S": ..., "W": ..., "N": ...}``.
    players: Mapped[dict[str, str]] = mapped_column(JSONType)
    #: SHA-256 of the write token: the token itself is shown once and never stored.
    token_hash: Mapped[str] = mapped_column(String(64))
    #: Bumped by every write (entry or undo); the ETag that pollers compare.
    revision: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    entries: Mapped[list[Entry]] = relationship(
        back_populates="table", order_by="Entry.seq", cascade="all, delete-orphan"
    )


class Entry(Base):
    """One recorded hand outcome (a win, a draw, a chombo...), appended in order."""

    __tablename__ = "ledger_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_ledger_entries_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("ledger_tables.id", ondelete="CASCADE"), index=True
    )
    #: 1, 2, 3... per table, with no gaps: the unique pair (table_id, seq) is what stops two
    #: writers from both appending "hand 7".
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[GameTable] = relationship(back_populates="entries")
