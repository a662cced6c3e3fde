"""Every third-party package Agari's code imports is declared in pyproject.toml (runtime or
an extra), not only installed because another dependency pulls it in: werkzeug came with
flask and was imported directly, so a flask that dropped or moved it would break the app
with nothing in pyproject.toml to say why."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "webapp", "datasets")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        specs += extra
    return {_normal(re.split(r"[\[<>=!~; ]", s, maxsplit=1)[0]) for s in specs}


def _imported() -> dict[str, set[str]]:
    """Top-level module -> the files importing it (absolute imports, anywhere in a file)."""
    found: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.partition(".")[0]
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_imported_package_is_declared() -> None:
    installed = importlib.metadata.packages_distributions()
    declared = _declared()
    undeclared = {}
    for module, files in _imported().items():
        if module in sys.stdlib_module_names or module in PACKAGES or module == "__future__":
            continue
        # A training-only package may not be installed here: its module name is its name.
        dists = {_normal(d) for d in installed.get(module, [module])}
        if not dists & declared:
            undeclared[module] = sorted(files)
    assert "flask" in _imported() and "flask" in declared  # the scan and the file were read
    assert undeclared == {}
