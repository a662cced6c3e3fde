"""Small helpers for the ledger's pages (kept out of the views so they stay short)."""

from __future__ import annotations

from scoring.errors import AgariError
from scoring.ruleset import list_rulesets, load_ruleset


def ruleset_options() -> list[tuple[str, str]]:
    """(id, name) of every shipped ruleset; one that fails to load is offered by id."""
    out = []
    for rid in list_rulesets():
        try:
            out.append((rid, load_ruleset(rid).name))
        except AgariError:
            out.append((rid, rid))
    return out
