"""Rulesets: every difference between rulebooks, as data.

A ruleset is a TOML file in ``scoring/rulesets/``. Each rule is written with its source::

    id = "m-league"
    name = "M.League"
    extends = "base"              # optional: start from another file, override a few keys

    [rules]
    open_tanyao = { value = true, source = "seed 002, line 41" }

Loading validates everything once (unknown keys, wrong types, contradictions are
:class:`RulesetError` naming the file and key) and returns a frozen :class:`Ruleset`.
Nothing writes to a ruleset while scoring; variants are built with :func:`with_overrides`.
"""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from scoring.errors import RulesetError

RULESET_DIR = Path(__file__).with_name("rulesets")

Kazoe = Literal["yakuman", "sanbaiman", "none"]
Renhou = Literal["none", "mangan", "baiman", "yakuman", "han5"]
MultiRon = Literal["head_bump", "double", "triple"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """All the rules that change a score or a game. Defaults are the common riichi ones
    (documented in ``rulesets/base.toml``, which every shipped file extends)."""

    id: str
    name: str
    scoring: Literal["riichi", "zung_jung"] = "riichi"

    # --- tiles and dora ---------------------------------------------------------------
    #: Red fives per suit, e.g. {"m": 1, "p": 2, "s": 1}. All zero: no red fives.
    red_fives: dict[str, int] = field(default_factory=lambda: {"m": 1, "p": 1, "s": 1})
    dora: bool = True
    ura_dora: bool = True
    kan_dora: bool = True
    kan_ura_dora: bool = True

    # --- yaku switches ----------------------------------------------------------------
    ippatsu: bool = True
    open_tanyao: bool = True
    #: Count these hands as double yakuman: kokushi 13-wait, suuankou tanki, junsei
    #: chuuren, daisuushii.
    double_yakuman: bool = False
    #: Several yakuman in one hand add up (False: the hand counts one yakuman).
    yakuman_stacking: bool = True
    #: What 13+ han scores: a yakuman, a sanbaiman, or (none) no cap below yakuman = sanbaiman.
    kazoe: Kazoe = "yakuman"
    #: Round 4 han 30 fu and 3 han 60 fu up to mangan.
    kiriage: bool = False
    renhou: Renhou = "none"
    nagashi_mangan: bool = True
    ryuuiisou_needs_hatsu: bool = False
    #: Kokushi may rob a closed kan.
    chankan_ankan_kokushi: bool = True
    #: Fu of a pair of a wind that is both seat and round wind (2 or 4).
    double_wind_pair_fu: int = 4
    #: Fu of an open hand with no fu items won by ron (a "pinfu shape"): 30 everywhere
    #: we know, but some rulebooks state it explicitly.
    open_pinfu_fu: int = 30
    #: Minimum han to win (ryanhan shibari would be 2; counted without dora).
    min_han: int = 1

    # --- payments ---------------------------------------------------------------------
    honba_value: int = 300
    riichi_stick_value: int = 1000
    #: Yakuman ids that make the player who fed the deciding tile liable (pao).
    pao: tuple[str, ...] = ("daisangen", "daisuushii")
    #: Pao also for a rinshan win after a daiminkan (the kan's discarder pays).
    pao_rinshan_daiminkan: bool = False
    #: Several players ron one discard: head bump (first in turn order only), or double
    #: ron paid (a third ron is an abortive draw), or up to triple ron paid.
    multi_ron: MultiRon = "double"
    #: Honba go to every winner of a multiple ron (False: the first winner only).
    multi_ron_honba_each: bool = False

    #: Where each rule comes from: rule name -> source text.
    sources: dict[str, str] = field(default_factory=dict)
    #: Parent ruleset id, for ``agari rules show``.
    extends: str | None = None

    def source_of(self, rule: str) -> str:
        return self.sources.get(rule, "not stated; common default (see base.toml)")

    @property
    def red_five_total(self) -> int:
        return sum(self.red_fives.values())


RULE_FIELDS: dict[str, dataclasses.Field[Any]] = {
    f.name: f
    for f in dataclasses.fields(Ruleset)
    if f.name not in {"id", "name", "sources", "extends"}
}
_HINTS = typing.get_type_hints(Ruleset)


def _check_type(file: str, key: str, value: Any) -> Any:
    """Validate (and normalise lists to tuples) one rule value against its declared type."""
    hint = _HINTS[key]
    origin = typing.get_origin(hint)
    ok: bool
    if origin is Literal:
        ok = value in typing.get_args(hint)
        if not ok:
            raise RulesetError(
                f"{file}: rule {key!r} must be one of {list(typing.get_args(hint))}, not {value!r}",
                code="bad_ruleset_value",
            )
        return value
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif origin is tuple:
        ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
        value = tuple(value) if ok else value
    elif origin is dict:
        ok = isinstance(value, dict) and all(
            k in ("m", "p", "s") and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 4
            for k, v in value.items()
        )
        if ok:
            value = {"m": 0, "p": 0, "s": 0} | dict(value)
    elif origin in (types.UnionType, typing.Union):
        ok = value is None or isinstance(value, str)
    else:  # pragma: no cover - a field type this loader does not know yet
        raise RulesetError(f"{file}: rule {key!r} has an unsupported type {hint}")
    if not ok:
        raise RulesetError(
            f"{file}: rule {key!r} has the wrong type: {value!r} (expected {hint})",
            code="bad_ruleset_value",
        )
    return value


def _validate(rs: Ruleset, file: str) -> None:
    """Contradictions that no single type check catches."""
    if rs.kan_ura_dora and not (rs.kan_dora and rs.ura_dora):
        raise RulesetError(
            f"{file}: kan_ura_dora needs both kan_dora and ura_dora", code="ruleset_contradiction"
        )
    if rs.double_wind_pair_fu not in (2, 4):
        raise RulesetError(f"{file}: double_wind_pair_fu must be 2 or 4", code="bad_ruleset_value")
    if rs.min_han < 1:
        raise RulesetError(f"{file}: min_han must be at least 1", code="bad_ruleset_value")


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesetError(f"unknown ruleset {path.stem!r}", code="unknown_ruleset") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path.name}: not valid TOML: {exc}", code="bad_ruleset_file") from exc


def _rules_of(doc: dict[str, Any], file: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``[rules]`` table as plain values plus their sources."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, entry in doc.get("rules", {}).items():
        if key not in RULE_FIELDS:
            raise RulesetError(f"{file}: unknown rule {key!r}", code="unknown_rule")
        if not (isinstance(entry, dict) and "value" in entry and "source" in entry):
            raise RulesetError(
                f'{file}: rule {key!r} must be written as {{ value = ..., source = "..." }}',
                code="bad_ruleset_file",
            )
        extra = set(entry) - {"value", "source"}
        if extra:
            raise RulesetError(
                f"{file}: rule {key!r} has unknown fields {sorted(extra)}", code="bad_ruleset_file"
            )
        values[key] = _check_type(file, key, entry["value"])
        sources[key] = str(entry["source"])
    return values, sources


def _load_chain(
    ruleset_id: str, seen: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, str], str, str | None]:
    if ruleset_id in seen:
        raise RulesetError(
            f"ruleset {ruleset_id!r} extends itself via {' -> '.join(seen)}", code="ruleset_cycle"
        )
    if not ruleset_id.replace("-", "").replace("_", "").isalnum():
        raise RulesetError(f"unknown ruleset {ruleset_id!r}", code="unknown_ruleset")
    path = RULESET_DIR / f"{ruleset_id}.toml"
    doc = _read(path)
    file = path.name
    unknown = set(doc) - {"id", "name", "extends", "description", "rules"}
    if unknown:
        raise RulesetError(f"{file}: unknown top-level keys {sorted(unknown)}", code="unknown_rule")
    if doc.get("id") != ruleset_id:
        raise RulesetError(
            f"{file}: id {doc.get('id')!r} does not match the file name", code="bad_ruleset_file"
        )
    parent = doc.get("extends")
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if parent is not None:
        values, sources, _, _ = _load_chain(str(parent), (*seen, ruleset_id))
        sources = dict(sources)
    own_values, own_sources = _rules_of(doc, file)
    values = values | own_values
    sources |= own_sources
    return values, sources, str(doc.get("name", ruleset_id)), parent


@cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    """The shipped ruleset of that id. Raises :class:`RulesetError` (``unknown_ruleset``)."""
    if not isinstance(ruleset_id, str):
        raise RulesetError(
            f"ruleset must be an id string, not {ruleset_id!r}", code="unknown_ruleset"
        )
    values, sources, name, parent = _load_chain(ruleset_id, ())
    rs = Ruleset(id=ruleset_id, name=name, sources=sources, extends=parent, **values)
    _validate(rs, f"{ruleset_id}.toml")
    return rs


def with_overrides(base: Ruleset, overrides: dict[str, Any]) -> Ruleset:
    """A variant of ``base`` with some rules replaced (a user's per-request overrides)."""
    if not isinstance(overrides, dict):
        raise RulesetError(
            "ruleset overrides must be an object of rule: value", code="bad_ruleset_value"
        )
    checked: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in RULE_FIELDS:
            raise RulesetError(f"overrides: unknown rule {key!r}", code="unknown_rule")
        checked[key] = _check_type("overrides", key, value)
    sources = dict(base.sources) | {k: "per-request override" for k in checked}
    rs = dataclasses.replace(base, sources=sources, **checked)
    _validate(rs, "overrides")
    return rs


def resolve_ruleset(spec: str | dict[str, Any] | Ruleset) -> Ruleset:
    """A ruleset from the ``ruleset`` field of a request: an id or ``{"base", "overrides"}``."""
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        return load_ruleset(spec)
    if isinstance(spec, dict):
        extra = set(spec) - {"base", "overrides"}
        if extra or "base" not in spec:
            raise RulesetError(
                'ruleset must be an id or {"base": id, "overrides": {...}}',
                code="bad_ruleset_value",
            )
        return with_overrides(load_ruleset(spec["base"]), spec.get("overrides") or {})
    raise RulesetError(f"ruleset must be an id or an object, not {spec!r}", code="unknown_ruleset")


def list_rulesets() -> list[str]:
    """Ids of every shipped ruleset (``base`` excluded: it is only a parent)."""
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml") if p.stem != "base")
