"""The Zung Jung pattern table, loaded from the ``table_*.toml`` data files beside this module.

Values, names, series and the source of every value are data; the code only knows pattern
ids. A table file may ``extends`` another and then lists only the values that differ (the
v1.03 table is v3.3 with three values changed).

>>> t = load_table("v3.3")
>>> len(t.patterns), t.patterns["pure_one_suit"].value, load_table("v1.03").value("pure_one_suit")
(44, 80, 100)
>>> t.is_listed_limit("big_four_winds"), t.is_listed_limit("big_three_dragons")
(True, False)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from scoring.errors import RulesetError

_DIR = Path(__file__).parent

#: Table ids and their files. Ruleset field ``zj_table`` names one of these ids.
TABLE_FILES = {"v3.3": "table_v3_3.toml", "v1.03": "table_v1_03.toml"}

CATEGORIES = {
    "1": "Trivial Patterns",
    "2": "One-Suit Patterns",
    "3": "Honor Tiles",
    "4": "Triplets and Kong",
    "5": "Identical Sets",
    "6": "Similar Sets",
    "7": "Consecutive Sets",
    "8": "Terminals",
    "9": "Incidental Bonuses",
    "10": "Irregular Hands",
}


@dataclass(frozen=True, slots=True)
class Pattern:
    """One of the 44 patterns: Kwan's number, its series, name and point value."""

    id: str
    number: str
    series: str
    name: str
    zh: str
    value: int
    source: str
    #: Counted once per qualifying set (only 3.1 Value Honor).
    per_set: bool = False

    @property
    def category(self) -> str:
        return CATEGORIES[self.number.split(".")[0]]

    @property
    def grade(self) -> tuple[int, ...]:
        """Sort key inside a series: a higher grade excludes the lower ones."""
        return tuple(int(p) for p in self.number.split("."))


@dataclass(frozen=True, slots=True)
class Table:
    """A complete pattern table plus the constants of the scheme, each with its source."""

    id: str
    title: str
    source: str
    patterns: dict[str, Pattern]
    compound_limit: int
    chicken_value: int
    par: int
    constant_sources: dict[str, str]

    def value(self, pattern_id: str) -> int:
        return self.patterns[pattern_id].value

    def is_listed_limit(self, pattern_id: str) -> bool:
        """A single pattern worth the compound limit or more scores alone (WSOM.md §2.3)."""
        return self.patterns[pattern_id].value >= self.compound_limit

    def describe(self) -> list[dict[str, Any]]:
        """Every pattern as a plain dict, in Kwan's order (for ``agari rules show``)."""
        return [
            {
                "id": p.id,
                "number": p.number,
                "category": p.category,
                "name": p.name,
                "zh": p.zh,
                "value": p.value,
                "per_set": p.per_set,
                "source": p.source,
            }
            for p in sorted(self.patterns.values(), key=lambda p: p.grade)
        ]


def _read(table_id: str) -> dict[str, Any]:
    if table_id not in TABLE_FILES:
        raise RulesetError(
            f"unknown Zung Jung table {table_id!r} (known: {sorted(TABLE_FILES)})",
            code="unknown_zj_table",
        )
    with (_DIR / TABLE_FILES[table_id]).open("rb") as fh:
        return tomllib.load(fh)


def _constant(doc: dict[str, Any], key: str, file: str) -> tuple[int, str]:
    entry = doc["meta"].get(key)
    if not (isinstance(entry, dict) and isinstance(entry.get("value"), int) and "source" in entry):
        raise RulesetError(f"{file}: meta.{key} needs {{ value = int, source = str }}")
    return entry["value"], str(entry["source"])


@cache
def load_table(table_id: str) -> Table:
    """The table of that id, with its parent's values filled in. Cached: tables are constant."""
    doc = _read(table_id)
    file = TABLE_FILES[table_id]
    meta = doc["meta"]
    parent = meta.get("extends")
    if parent is None:
        patterns = {
            pid: Pattern(
                id=pid,
                number=e["number"],
                series=e["series"],
                name=e["name"],
                zh=e["zh"],
                value=e["value"],
                source=e["source"],
                per_set=e.get("per_set", False),
            )
            for pid, e in doc["patterns"].items()
        }
        consts = {k: _constant(doc, k, file) for k in ("compound_limit", "chicken_value", "par")}
        return Table(
            id=table_id,
            title=meta["title"],
            source=meta["source"],
            patterns=patterns,
            compound_limit=consts["compound_limit"][0],
            chicken_value=consts["chicken_value"][0],
            par=consts["par"][0],
            constant_sources={k: v[1] for k, v in consts.items()},
        )
    base = load_table(parent)
    patterns = dict(base.patterns)
    for pid, e in doc.get("patterns", {}).items():
        if pid not in patterns or set(e) != {"value", "source"}:
            raise RulesetError(
                f"{file}: {pid!r} must be a pattern of {parent} given as {{ value, source }}"
            )
        patterns[pid] = replace(patterns[pid], value=e["value"], source=e["source"])
    return replace(base, id=table_id, title=meta["title"], source=meta["source"], patterns=patterns)
