"""The README's dependency table names every dependency pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _table_names() -> set[str]:
    """Package names in the first column of the README's dependency table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Dependencies and what each is for", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or set(cells[1].strip()) <= {"-"} or cells[1].strip() == "package":
            continue
        first = re.sub(r"\*[^*]*\*", "", cells[1])  # drop "*dev:*", "*train:*" ...
        names |= {n.strip().lower() for n in first.split(",") if n.strip()}
    return names


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        specs += extra
    return {re.split(r"[\[<>=!~; ]", s, maxsplit=1)[0].lower() for s in specs}


def test_every_declared_dependency_is_in_the_readme_table() -> None:
    listed = _table_names()
    assert "flask" in listed and "numpy" in listed  # the table was found and read
    assert _declared() - listed == set()
