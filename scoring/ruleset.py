"""Rulesets: every difference between rulebooks, as data.

A ruleset is a TOML file in ``scoring/rulesets/``. Each rule is written with its source::

    id = "m-league"
    name = "M.League"
    extends = "base"              # optional: start from another file, override a few keys

    [rules]                       # what a hand is worth
    open_tanyao = { value = true, source = "seed 002, line 41" }

    [game]                        # the game around the hands: flow and final settlement
    start_points = { value = 25000, source = "seed 002, line 19" }

Every rule not written in a file comes from its parent (in the end ``base.toml``, whose
values are the ordinary riichi defaults). Loading validates everything once (unknown keys,
wrong types, contradictions are :class:`RulesetError` naming the file and key) and
returns a frozen :class:`Ruleset`.
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
from scoring.limits import MAX_POINTS

RULESET_DIR = Path(__file__).with_name("rulesets")

Kazoe = Literal["yakuman", "sanbaiman", "none"]
Renhou = Literal["none", "mangan", "baiman", "yakuman", "han5"]
MultiRon = Literal["head_bump", "double", "triple"]


Length = Literal["east", "hanchan"]
Extension = Literal["none", "sudden_death"]
AbortiveKind = Literal["four_winds", "nine_terminals", "four_kans", "four_riichi", "triple_ron"]
NagashiSettlement = Literal["win", "draw"]
AllLastStop = Literal["none", "choice"]
TieBreak = Literal["seat_order", "shared", "split_433"]
SticksAtEnd = Literal["nobody", "first"]
Chombo = Literal["final_penalty", "mangan_payments", "flat_payments"]
FalseCall = Literal["dead_hand", "chombo", "deposit"]

ABORTIVE_KINDS: tuple[str, ...] = typing.get_args(AbortiveKind)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRules:
    """The rules of the game around the hands: who deals next, when the game ends, and how
    the final table scores become a result. Written in a ruleset's ``[game]`` table; used by
    :mod:`scoring.game` (the replay) and :mod:`scoring.standings` (the final settlement)."""

    # --- length and end of the game ------------------------------------------------------
    #: East round only (tonpuusen) or east and south (hanchan).
    length: Length = "hanchan"
    #: After the last scheduled hand, if nobody has ``extension_target`` points, play on in
    #: the next wind as sudden death (the game ends the moment someone reaches the target).
    extension: Extension = "none"
    extension_target: int = 30000
    #: How many further wind rounds sudden death may last (then the game ends anyway).
    extension_rounds: int = 1
    #: The game ends when a player goes below zero (exactly 0 plays on).
    tobi: bool = True
    #: All-last: the dealer may choose to stop after a win / after being tenpai at a draw.
    agari_yame: AllLastStop = "none"
    tenpai_yame: AllLastStop = "none"
    #: All-last: the game ends by itself when the dealer wins / is tenpai and is first.
    top_dealer_win_ends: bool = True
    top_dealer_tenpai_ends: bool = True
    #: All-last exhaustive draw: the dealer may declare noten (not after riichi), which
    #: ends the game (M.League).
    dealer_noten_declaration: bool = False

    # --- dealer, counters, draws ---------------------------------------------------------
    renchan_on_win: bool = True
    renchan_on_tenpai: bool = True
    renchan_on_abortive: bool = True
    #: Honba counters exist at all (Zung Jung has none).
    honba: bool = True
    abortive_honba: bool = True
    abortive_draws: tuple[AbortiveKind, ...] = ABORTIVE_KINDS  # type: ignore[assignment]
    #: Nagashi mangan settles as a mangan tsumo "win" (deal and sticks follow the win) or as
    #: an exhaustive draw with mangan payments instead of noten payments.
    nagashi_settlement: NagashiSettlement = "draw"
    #: Total noten payment at an exhaustive draw (split between the noten players).
    noten_payment_total: int = 3000
    riichi: bool = True
    #: Riichi needs at least one stick's worth of points.
    riichi_needs_points: bool = True

    # --- penalties -----------------------------------------------------------------------
    chombo: Chombo = "mangan_payments"
    #: Result units taken off a chombo's final figure (``final_penalty``).
    chombo_penalty: int = 20
    chombo_deliberate_multiplier: int = 1
    #: Points paid to each other player (``flat_payments``).
    chombo_flat_payment: int = 3000
    false_call: FalseCall = "dead_hand"
    false_call_deposit: int = 1000

    # --- final settlement ----------------------------------------------------------------
    start_points: int = 25000
    return_points: int = 30000
    #: Placement bonus in result units, 1st to 4th.
    uma: tuple[int, ...] = (0, 0, 0, 0)
    #: Uma by how many players finish above ``return_points`` (JPML-A); empty: use ``uma``.
    uma_by_players_above: dict[int, tuple[int, ...]] = field(default_factory=dict)
    tie_break: TieBreak = "seat_order"
    sticks_at_end: SticksAtEnd = "first"
    #: Table points per result unit (1000 = 1.0).
    points_per_unit: int = 1000

    @property
    def oka(self) -> int:
        """Points the first place collects from the difference of start and return points.

        >>> load_ruleset("m-league").game.oka
        20000
        """
        return 4 * (self.return_points - self.start_points)


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
    #: ... and as a triplet or kan, not the pair (a rulebook asking for "a pon of hatsu").
    ryuuiisou_hatsu_triplet: bool = False
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

    # --- Zung Jung (only read when scoring = "zung_jung") ------------------------------
    #: Pattern-value table: a ``scoring/zungjung/table_*.toml`` id, each value with its source.
    zj_table: Literal["v3.3", "v1.03"] = "v3.3"
    #: Fewest points that may win (5 forbids the 1-point chicken hand; 0: no minimum).
    zj_min_points: int = 0
    #: "formal": above 25 the discarder pays 3V-50, the others 25; "uniform": all pay V.
    zj_payoff: Literal["formal", "uniform"] = "formal"

    #: The game around the hands (``[game]`` table).
    game: GameRules = field(default_factory=GameRules)

    #: Where each rule comes from: rule name -> source text.
    sources: dict[str, str] = field(default_factory=dict)
    #: Parent ruleset id, for ``agari rules show``.
    extends: str | None = None

    def source_of(self, rule: str) -> str:
        """Where ``rule`` comes from; game rules are named ``game.<name>``."""
        return self.sources.get(rule, "not stated; common default (see base.toml)")

    def value_of(self, rule: str) -> Any:
        """The value of a hand rule or of a ``game.<name>`` rule."""
        if rule.startswith("game."):
            return getattr(self.game, rule[5:])
        return getattr(self, rule)

    @property
    def red_five_total(self) -> int:
        return sum(self.red_fives.values())


RULE_FIELDS: dict[str, dataclasses.Field[Any]] = {
    f.name: f
    for f in dataclasses.fields(Ruleset)
    if f.name not in {"id", "name", "sources", "extends", "game"}
}
GAME_FIELDS: dict[str, dataclasses.Field[Any]] = {f.name: f for f in dataclasses.fields(GameRules)}
_HINTS = typing.get_type_hints(Ruleset)
_GAME_HINTS = typing.get_type_hints(GameRules)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_bounds(where: str, value: Any) -> None:
    """Every number a rule carries stays within +-MAX_POINTS: JavaScript clients read numbers
    as doubles (:mod:`scoring.limits`), and no real rule comes near it (a start of 10**12
    points is a typo or a probe, refused with ``out_of_range``)."""
    rows = value.values() if isinstance(value, dict) else (value,)
    for row in rows:
        for v in row if isinstance(row, tuple) else (row,):
            if _is_int(v) and abs(v) > MAX_POINTS:
                raise RulesetError(
                    f"{where} {v} is out of range: -{MAX_POINTS} to {MAX_POINTS}",
                    code="out_of_range",
                )


def _check_game_type(file: str, key: str, value: Any) -> Any:
    """Validate one ``[game]`` value (lists become tuples, uma table keys become ints)."""
    hint = _GAME_HINTS[key]
    origin = typing.get_origin(hint)
    where = f"{file}: rule 'game.{key}'"
    if origin is Literal:
        if value not in typing.get_args(hint):
            raise RulesetError(
                f"{where} must be one of {list(typing.get_args(hint))}, not {value!r}",
                code="bad_ruleset_value",
            )
        return value
    ok: bool
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = _is_int(value)
    elif origin is tuple and typing.get_args(hint)[0] is int:
        ok = isinstance(value, (list, tuple)) and len(value) == 4 and all(map(_is_int, value))
        value = tuple(value) if ok else value
    elif origin is tuple:  # a tuple of Literal names
        allowed = typing.get_args(typing.get_args(hint)[0])
        ok = isinstance(value, (list, tuple)) and all(v in allowed for v in value)
        if not ok:
            raise RulesetError(
                f"{where} must be a list of {list(allowed)}, not {value!r}",
                code="bad_ruleset_value",
            )
        value = tuple(value)
    elif origin is dict:
        ok = isinstance(value, dict)
        table: dict[int, tuple[int, ...]] = {}
        for k, row in value.items() if ok else ():
            if not (str(k) in ("0", "1", "2", "3", "4") and isinstance(row, (list, tuple))):
                ok = False
                break
            if not (len(row) == 4 and all(map(_is_int, row))):
                ok = False
                break
            table[int(k)] = tuple(row)
        value = table if ok else value
    else:  # pragma: no cover - a field type this loader does not know yet
        raise RulesetError(f"{where} has an unsupported type {hint}")
    if not ok:
        raise RulesetError(
            f"{where} has the wrong type: {value!r} (expected {hint})", code="bad_ruleset_value"
        )
    _check_bounds(where, value)
    return value


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
        if not ok:  # the one dict rule, red_fives: say what is wanted, not the bare hint
            raise RulesetError(
                f"{file}: rule {key!r} must map the suits m, p, s to a count of red fives "
                f"from 0 to 4 (a suit has four fives), not {value!r}",
                code="bad_ruleset_value",
            )
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
    _check_bounds(f"{file}: rule {key!r}", value)
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
    if rs.zj_min_points < 0:
        raise RulesetError(f"{file}: zj_min_points must not be negative", code="bad_ruleset_value")
    _validate_game(rs, file)


def _validate_game(rs: Ruleset, file: str) -> None:
    g = rs.game

    def bad(key: str, why: str, code: str = "ruleset_contradiction") -> RulesetError:
        return RulesetError(f"{file}: rule 'game.{key}' {why}", code=code)

    # A third ron must lead somewhere: paid (triple), or an abortive draw.
    if rs.multi_ron == "double" and "triple_ron" not in g.abortive_draws:
        raise bad("abortive_draws", "must list triple_ron when multi_ron is 'double'")
    if rs.multi_ron == "triple" and "triple_ron" in g.abortive_draws:
        raise bad("abortive_draws", "lists triple_ron, but multi_ron 'triple' pays a triple ron")
    if not g.riichi and "four_riichi" in g.abortive_draws:
        raise bad("abortive_draws", "lists four_riichi in a game without riichi")
    if g.nagashi_settlement == "win" and not rs.nagashi_mangan:
        raise bad("nagashi_settlement", "is 'win' but the ruleset has no nagashi mangan")
    if g.start_points < 0 or g.return_points < g.start_points:
        raise bad("return_points", "must be at least start_points (and both not negative)")
    if g.points_per_unit < 1:
        raise bad("points_per_unit", "must be at least 1", "bad_ruleset_value")
    if g.extension_target < 0 or g.extension_rounds < 0:
        raise bad("extension_target", "and extension_rounds must not be negative")
    rounds = (1 if g.length == "east" else 2) + (
        g.extension_rounds if g.extension == "sudden_death" else 0
    )
    if g.extension == "sudden_death" and (g.extension_rounds < 1 or rounds > 4):
        raise bad("extension_rounds", "must be at least 1, and no round is played after north")
    if g.noten_payment_total < 0 or g.noten_payment_total % 6:
        # It is split among 1, 2 or 3 players on either side.
        raise bad("noten_payment_total", "must split evenly: a non-negative multiple of 6")
    for count, row in g.uma_by_players_above.items():
        if sum(row) != 0:
            raise bad("uma_by_players_above", f"row {count} sums to {sum(row)}, not 0")
    if sum(g.uma) != 0:
        raise bad("uma", f"sums to {sum(g.uma)}, not 0")
    if g.chombo_deliberate_multiplier < 1 or g.chombo_penalty < 0 or g.chombo_flat_payment < 0:
        raise bad("chombo_penalty", "and the chombo multiplier/payment must be positive")


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesetError(
            f"unknown ruleset {path.stem!r}; the shipped ones: {', '.join(list_rulesets())}",
            code="unknown_ruleset",
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path.name}: not valid TOML: {exc}", code="bad_ruleset_file") from exc


def _rules_of(
    doc: dict[str, Any], file: str, table: str = "rules"
) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``[rules]`` (or ``[game]``) table as plain values plus their sources. Game rules
    are keyed ``game.<name>`` in both returned dicts."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    fields = GAME_FIELDS if table == "game" else RULE_FIELDS
    prefix = "game." if table == "game" else ""
    entries = doc.get(table, {})
    if not isinstance(entries, dict):
        raise RulesetError(f"{file}: [{table}] must be a table", code="bad_ruleset_file")
    for key, entry in entries.items():
        if key not in fields:
            raise RulesetError(f"{file}: unknown rule {prefix + key!r}", code="unknown_rule")
        if not (isinstance(entry, dict) and "value" in entry and "source" in entry):
            raise RulesetError(
                f"{file}: rule {prefix + key!r} must be written as "
                '{ value = ..., source = "..." }',
                code="bad_ruleset_file",
            )
        extra = set(entry) - {"value", "source"}
        if extra:
            raise RulesetError(
                f"{file}: rule {prefix + key!r} has unknown fields {sorted(extra)}",
                code="bad_ruleset_file",
            )
        if table == "game":
            values[prefix + key] = _check_game_type(file, key, entry["value"])
        else:
            values[key] = _check_type(file, key, entry["value"])
        sources[prefix + key] = str(entry["source"])
    return values, sources


def _load_chain(
    ruleset_id: str, seen: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, str], str, str | None]:
    if ruleset_id in seen:
        raise RulesetError(
            f"ruleset {ruleset_id!r} extends itself via {' -> '.join(seen)}", code="ruleset_cycle"
        )
    if not ruleset_id.replace("-", "").replace("_", "").isalnum():
        raise RulesetError(
            f"unknown ruleset {ruleset_id[:40]!r}; the shipped ones: {', '.join(list_rulesets())}",
            code="unknown_ruleset",
        )
    path = RULESET_DIR / f"{ruleset_id}.toml"
    doc = _read(path)
    file = path.name
    unknown = set(doc) - {"id", "name", "extends", "description", "rules", "game"}
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
    game_values, game_sources = _rules_of(doc, file, "game")
    values = values | own_values | game_values
    sources |= own_sources | game_sources
    return values, sources, str(doc.get("name", ruleset_id)), parent


@cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    """The shipped ruleset of that id. Raises :class:`RulesetError` (``unknown_ruleset``)."""
    if not isinstance(ruleset_id, str):
        raise RulesetError(
            f"ruleset must be an id string, not {ruleset_id!r}", code="unknown_ruleset"
        )
    values, sources, name, parent = _load_chain(ruleset_id, ())
    hand, game = _split(values)
    rs = Ruleset(
        id=ruleset_id, name=name, sources=sources, extends=parent, game=GameRules(**game), **hand
    )
    _validate(rs, f"{ruleset_id}.toml")
    return rs


def _split(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Flat ``{rule: value, "game.x": value}`` into hand rules and game rules."""
    hand = {k: v for k, v in values.items() if not k.startswith("game.")}
    game = {k[5:]: v for k, v in values.items() if k.startswith("game.")}
    return hand, game


def with_overrides(base: Ruleset, overrides: dict[str, Any]) -> Ruleset:
    """A variant of ``base`` with some rules replaced (a user's per-request overrides).

    Game rules are given as ``{"game": {"tobi": false}}`` or as ``{"game.tobi": false}``.
    """
    if not isinstance(overrides, dict):
        raise RulesetError(
            "ruleset overrides must be an object of rule: value", code="bad_ruleset_value"
        )
    flat: dict[str, Any] = {}
    for key, value in overrides.items():
        if key == "game":
            if not isinstance(value, dict):
                raise RulesetError(
                    "overrides: 'game' must be an object of rule: value", code="bad_ruleset_value"
                )
            flat |= {f"game.{k}": v for k, v in value.items()}
        else:
            flat[key] = value
    checked: dict[str, Any] = {}
    for key, value in flat.items():
        name = key[5:] if key.startswith("game.") else key
        if key.startswith("game.") and name in GAME_FIELDS:
            checked[key] = _check_game_type("overrides", name, value)
        elif not key.startswith("game.") and key in RULE_FIELDS:
            checked[key] = _check_type("overrides", key, value)
        else:
            raise RulesetError(f"overrides: unknown rule {key!r}", code="unknown_rule")
    sources = dict(base.sources) | {k: "per-request override" for k in checked}
    hand, game = _split(checked)
    rs = dataclasses.replace(
        base, sources=sources, game=dataclasses.replace(base.game, **game), **hand
    )
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
        base = spec["base"]
        if not isinstance(base, str):
            # Checked here: load_ruleset's cache hashes its argument before its own check,
            # so a list or object there was a TypeError (a 500, a CLI traceback).
            raise RulesetError(
                f"the ruleset's base must be an id string, not {base!r}", code="unknown_ruleset"
            )
        overrides = spec.get("overrides")  # absent or null: none; [] or 0 is refused
        return with_overrides(load_ruleset(base), {} if overrides is None else overrides)
    raise RulesetError(f"ruleset must be an id or an object, not {spec!r}", code="unknown_ruleset")


def rule_names() -> list[str]:
    """Every rule a ruleset has, hand rules first, then ``game.<name>``, in declaration order."""
    return [*RULE_FIELDS, *(f"game.{k}" for k in GAME_FIELDS)]


def declared_in(ruleset_id: str) -> dict[str, str]:
    """Rule -> the id of the file that sets it (the ruleset itself, a parent, or ``base``).

    A rule no file sets takes the dataclass default documented in this module; it is
    reported as ``"default"``.
    """
    chain: list[tuple[str, set[str]]] = []
    current: str | None = ruleset_id
    while current is not None:
        doc = _read(RULESET_DIR / f"{current}.toml")
        keys = set(doc.get("rules", {})) | {f"game.{k}" for k in doc.get("game", {})}
        chain.append((current, keys))
        parent = doc.get("extends")
        current = str(parent) if parent is not None else None
    out: dict[str, str] = {}
    for rule in rule_names():
        out[rule] = next((rid for rid, keys in chain if rule in keys), "default")
    return out


def list_rulesets() -> list[str]:
    """Ids of every shipped ruleset (``base`` excluded: it is only a parent)."""
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml") if p.stem != "base")
