"""The JSON requests of CONTRACT.md, parsed into frozen values once, at the edge.

``parse_score_request(obj)`` turns one ``agari score`` object into a :class:`ScoreRequest`;
``parse_settle_request(obj)`` does the same for ``agari settle``. Both raise
:class:`~scoring.errors.RequestError` for unknown fields or wrong types,
:class:`~scoring.errors.NotationError` for bad tiles and
:class:`~scoring.errors.InvalidHandError` for impossible tile counts (too many or too few
tiles, a fifth copy, a red five the ruleset does not have). A :class:`ScoreRequest` that
exists is therefore a physically possible 14-tile hand; riichi-specific contradictions
(riichi with an open hand, chankan on tsumo, ...) are checked by
:meth:`scoring.context.WinContext.validate`.

Nagashi mangan is not a hand shape: send ``"flags": ["nagashi_mangan"]`` with ``win``
``"tsumo"`` (the default then); ``closed`` and ``win_tile`` may then be omitted, and the
result is paid as a mangan tsumo, with ``honba`` and ``riichi_sticks`` as given, save where
the ruleset settles nagashi mangan as a draw (``game.nagashi_settlement``, as Tenhou does):
they then stay on the table and a ``nagashi_as_draw`` warning says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from scoring.errors import InvalidHandError, NotationError, RequestError
from scoring.hand import Meld
from scoring.limits import MAX_COUNTER, check_range
from scoring.notation import format_tiles, parse_tiles
from scoring.ruleset import Ruleset, resolve_ruleset
from scoring.tiles import NUM_KINDS, SUITS, WIND_LETTERS, Tile

Win = Literal["ron", "tsumo"]
Seat = Literal["E", "S", "W", "N"]

#: Flags of CONTRACT.md plus ``nagashi_mangan`` (Agari's own, see the module docstring).
FLAGS: tuple[str, ...] = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
    "nagashi_mangan",
)

DEFAULT_RULESET = "tenhou"
#: Dora (or ura) indicators on a table: one, plus one per kan, four kans at most.
MAX_INDICATORS = 5

SCORE_FIELDS = frozenset(
    {
        "ruleset",
        "closed",
        "win_tile",
        "win",
        "melds",
        "round_wind",
        "seat_wind",
        "discarder",
        "dora_indicators",
        "ura_indicators",
        "flags",
        "honba",
        "riichi_sticks",
        "pao",
    }
)
#: Fields a settle request holds once for the whole table, not in each win.
TABLE_FIELDS = frozenset({"ruleset", "honba", "riichi_sticks", "discarder"})
SETTLE_FIELDS = TABLE_FIELDS | {"wins"}
MELD_FIELDS = frozenset({"kind", "tiles", "from"})


@dataclass(frozen=True, slots=True)
class ScoreRequest:
    """One win and its situation, validated for tile counts.

    ``closed`` holds the concealed tiles *without* the winning tile; ``win_tile`` is
    ``None`` only for a nagashi mangan. Seats are the winds ``E S W N`` (``E`` = dealer).
    """

    ruleset: Ruleset
    closed: tuple[Tile, ...]
    win_tile: Tile | None
    win: Win
    melds: tuple[Meld, ...] = ()
    round_wind: Seat = "E"
    seat_wind: Seat = "E"
    discarder: Seat | None = None
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    flags: frozenset[str] = frozenset()
    honba: int = 0
    riichi_sticks: int = 0
    pao: Seat | None = None
    #: Things assumed because the request left them out (shown in the response).
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def is_tsumo(self) -> bool:
        return self.win == "tsumo"

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "E"

    @property
    def is_nagashi(self) -> bool:
        return "nagashi_mangan" in self.flags

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every tile of the hand: concealed, winning tile and melds."""
        win = () if self.win_tile is None else (self.win_tile,)
        return self.closed + win + tuple(t for m in self.melds for t in m.tiles)


@dataclass(frozen=True, slots=True)
class SettleRequest:
    """The wins on one discard (or one tsumo) with the table state."""

    ruleset: Ruleset
    wins: tuple[ScoreRequest, ...]
    honba: int = 0
    riichi_sticks: int = 0
    discarder: Seat | None = None


# --- field readers -----------------------------------------------------------------------


def _check_fields(obj: Any, allowed: frozenset[str], what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise RequestError(f"{what} must be a JSON object, not {obj!r}", code="bad_request")
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise RequestError(
            f"{what}: unknown field(s) {', '.join(map(repr, unknown))}; "
            f"allowed: {', '.join(sorted(allowed))}",
            code="unknown_field",
        )
    return obj


def _seat(value: Any, name: str, *, optional: bool) -> Any:
    if value is None and optional:
        return None
    if not (isinstance(value, str) and len(value) == 1 and value in WIND_LETTERS):
        raise RequestError(f"{name} must be one of E S W N, not {value!r}", code="bad_seat")
    return value


def _win_kind(value: Any) -> Literal["ron", "tsumo"]:
    if value not in ("ron", "tsumo"):
        raise RequestError(f"win must be 'ron' or 'tsumo', not {value!r}", code="bad_win")
    return value


def _count(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError(f"{name} must be a whole number >= 0, not {value!r}", code="bad_count")
    return check_range(value, name, 0, MAX_COUNTER)  # honba 10**30 is not a table


def _tiles(value: Any, name: str) -> tuple[Tile, ...]:
    if not isinstance(value, str):
        raise RequestError(f"{name} must be an MPSZ string, not {value!r}", code="bad_request")
    try:
        return parse_tiles(value)
    except NotationError as exc:
        raise NotationError(f"{name}: {exc.message}", code=exc.code) from exc


def _one_tile(value: Any, name: str) -> Tile:
    tiles = _tiles(value, name)
    if len(tiles) != 1:
        raise NotationError(f"{name} must be one tile, not {value!r}", code="bad_tile")
    return tiles[0]


def _indicators(value: Any, name: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):  # also accept one MPSZ string "4p1z"
        return _tiles(value, name)
    if not isinstance(value, list):
        raise RequestError(f"{name} must be a list of tiles, not {value!r}", code="bad_request")
    return tuple(_one_tile(v, f"{name}[{i}]") for i, v in enumerate(value))


def _meld(value: Any, i: int) -> Meld:
    obj = _check_fields(value, MELD_FIELDS, f"melds[{i}]")
    for key in ("kind", "tiles"):
        if key not in obj:
            raise RequestError(f"melds[{i}] needs {key!r}", code="missing_field")
    kind = obj["kind"]
    if not isinstance(kind, str):
        raise RequestError(f"melds[{i}].kind must be a string, not {kind!r}", code="bad_meld")
    tiles = tuple(sorted(_tiles(obj["tiles"], f"melds[{i}].tiles"), key=lambda t: t.kind))
    try:
        return Meld(kind, tiles, obj.get("from"))  # type: ignore[arg-type]
    except NotationError as exc:
        raise NotationError(f"melds[{i}]: {exc.message}", code=exc.code) from exc


def _flags(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise RequestError(f"flags must be a list of strings, not {value!r}", code="bad_request")
    unknown = sorted(set(value) - set(FLAGS))
    if unknown:
        raise RequestError(
            f"unknown flag(s) {', '.join(map(repr, unknown))}; known: {' '.join(FLAGS)}",
            code="unknown_flag",
        )
    return frozenset(value)


def check_tile_counts(req: ScoreRequest) -> None:
    """Raise :class:`InvalidHandError` unless the tiles can exist together in one set.

    Counts 14 tiles (a kan counting as three), at most four copies of any kind across the
    hand and its indicators, and no more red fives per suit than the ruleset has.
    """
    if req.is_nagashi and req.win_tile is None and not req.closed and not req.melds:
        return
    if req.win_tile is None:
        raise InvalidHandError("win_tile is missing", code="missing_win_tile")
    size = len(req.closed) + 1 + 3 * len(req.melds)
    if size > 14:
        raise InvalidHandError(
            f"too many tiles: closed {len(req.closed)} + winning tile + {len(req.melds)} "
            f"meld(s) make {size}, a hand has 14 (a kan counting as 3)",
            code="too_many_tiles",
        )
    if size < 14:
        raise InvalidHandError(
            f"too few tiles: closed {len(req.closed)} + winning tile + {len(req.melds)} "
            f"meld(s) make {size}, a hand has 14 (a kan counting as 3)",
            code="too_few_tiles",
        )
    for name, indicators in (("dora", req.dora_indicators), ("ura", req.ura_indicators)):
        # One indicator at the start, one more per kan, and a game has at most four kans.
        if len(indicators) > MAX_INDICATORS:
            raise InvalidHandError(
                f"{len(indicators)} {name} indicators: there are at most {MAX_INDICATORS} "
                "(one, and one more per kan of at most four)",
                code="too_many_indicators",
            )
    seen = [0] * NUM_KINDS
    reds = {"m": 0, "p": 0, "s": 0}
    for t in req.all_tiles + req.dora_indicators + req.ura_indicators:
        seen[t.kind] += 1
        if t.red:
            reds[SUITS[t.kind // 9]] += 1
    for kind, n in enumerate(seen):
        if n > 4:
            name = str(Tile(kind))
            raise InvalidHandError(
                f"{n} copies of {name} (hand and indicators): a set has only four",
                code="fifth_copy",
            )
    for suit, n in reds.items():
        allowed = req.ruleset.red_fives.get(suit, 0)
        if n > allowed:
            raise InvalidHandError(
                f"{n} red 0{suit} but the ruleset {req.ruleset.id!r} has {allowed} per set",
                code="red_five_not_in_ruleset",
            )


def parse_score_request(
    obj: Any, *, table: dict[str, Any] | None = None, ruleset: Ruleset | None = None
) -> ScoreRequest:
    """A validated :class:`ScoreRequest` from one CONTRACT.md score object.

    ``table`` and ``ruleset`` are used by settle: the table fields come from the settle
    object instead of the win.

    >>> r = parse_score_request({"closed": "123m456p789s1122z", "win_tile": "2z",
    ...     "win": "tsumo", "seat_wind": "S", "round_wind": "E"})
    >>> r.win, str(r.win_tile), len(r.closed), r.ruleset.id
    ('tsumo', '2z', 13, 'tenhou')
    """
    allowed = SCORE_FIELDS - TABLE_FIELDS if table is not None else SCORE_FIELDS
    obj = _check_fields(obj, allowed, "score request")
    src = dict(obj) | (table or {})
    warnings: list[str] = []
    flags = _flags(src.get("flags"))
    nagashi = "nagashi_mangan" in flags

    if ruleset is None:
        if "ruleset" not in src:
            warnings.append(f"no ruleset given; scored under {DEFAULT_RULESET!r}")
        ruleset = resolve_ruleset(src.get("ruleset", DEFAULT_RULESET))

    win = _win_kind(src.get("win", "tsumo" if nagashi else None))

    if "closed" not in src and not nagashi:
        raise RequestError("score request needs 'closed'", code="missing_field")
    closed = _tiles(src.get("closed", ""), "closed")
    if src.get("win_tile") is None:
        if not nagashi:
            raise InvalidHandError("win_tile is missing", code="missing_win_tile")
        win_tile = None
    else:
        win_tile = _one_tile(src["win_tile"], "win_tile")

    melds_raw = src.get("melds") or []
    if not isinstance(melds_raw, list):
        raise RequestError(f"melds must be a list, not {melds_raw!r}", code="bad_request")
    melds = tuple(_meld(m, i) for i, m in enumerate(melds_raw))

    for key in ("round_wind", "seat_wind"):
        if key not in src:
            warnings.append(f"no {key} given; assumed E")
    round_wind = _seat(src.get("round_wind", "E"), "round_wind", optional=False)
    seat_wind = _seat(src.get("seat_wind", "E"), "seat_wind", optional=False)
    discarder = _seat(src.get("discarder"), "discarder", optional=True)
    pao = _seat(src.get("pao"), "pao", optional=True)

    req = ScoreRequest(
        ruleset=ruleset,
        closed=closed,
        win_tile=win_tile,
        win=win,
        melds=melds,
        round_wind=round_wind,
        seat_wind=seat_wind,
        discarder=discarder,
        dora_indicators=_indicators(src.get("dora_indicators"), "dora_indicators"),
        ura_indicators=_indicators(src.get("ura_indicators"), "ura_indicators"),
        flags=flags,
        honba=_count(src.get("honba", 0), "honba"),
        riichi_sticks=_count(src.get("riichi_sticks", 0), "riichi_sticks"),
        pao=pao,
        warnings=tuple(warnings),
    )
    _check_seats(req)
    check_tile_counts(req)
    return req


def _check_seats(req: ScoreRequest) -> None:
    if req.win == "ron":
        if req.discarder is None:
            raise RequestError(
                "a ron needs 'discarder' (the seat that dealt in)", code="missing_discarder"
            )
        if req.discarder == req.seat_wind:
            raise InvalidHandError(
                f"the winner {req.seat_wind} cannot ron their own discard",
                code="ron_from_self",
            )
    elif req.discarder is not None:
        raise InvalidHandError(
            f"a tsumo has no discarder (got {req.discarder!r})", code="tsumo_with_discarder"
        )
    if req.pao is not None and req.pao == req.seat_wind:
        raise InvalidHandError(
            f"the winner {req.seat_wind} cannot be liable (pao) for their own hand",
            code="pao_is_winner",
        )


def check_context(obj: Any) -> None:
    """Refuse a what-if context (a score request's fields; the hand's own come from the
    photo and replace any given) with an unknown field or a wrong value, as
    :func:`parse_score_request` would. Checked once, up front: otherwise every candidate's
    score would carry the same error and the bad field would pass as answered.

    >>> check_context({"ruleset": "tenhou", "win": "ron", "discarder": "W", "honba": 1})
    >>> check_context({"honba": "1"})
    Traceback (most recent call last):
    ...
    scoring.errors.RequestError: honba must be a whole number >= 0, not '1'
    """
    obj = _check_fields(obj, SCORE_FIELDS, "context")
    if "ruleset" in obj:
        resolve_ruleset(obj["ruleset"])
    if "win" in obj:
        _win_kind(obj["win"])
    for key in ("round_wind", "seat_wind", "discarder", "pao"):
        if key in obj:
            _seat(obj[key], key, optional=key in ("discarder", "pao"))
    _flags(obj.get("flags"))
    for key in ("honba", "riichi_sticks"):
        if key in obj:
            _count(obj[key], key)


def check_one_discard(wins: list[ScoreRequest]) -> None:
    """Several rons on one discard share the table: the round, the discarded tile, the dora
    indicators (and the ura, for the riichi winners who turn them over), and one set of
    tiles. Each win alone passes its own checks, so a mismatch is only seen here; scoring it
    anyway would pay for a table that cannot exist. Used by settle and by the game replay's
    (and so the ledger's) several wins given as score requests."""
    first = wins[0]

    def shown(tiles: tuple[Tile, ...]) -> str:  # an order-free MPSZ string, for comparing
        return format_tiles(tiles, sort=True)

    shared = (
        ("round_wind", lambda w: w.round_wind),
        ("win_tile", lambda w: str(w.win_tile)),
        ("dora_indicators", lambda w: shown(w.dora_indicators)),
    )
    for i, w in enumerate(wins[1:], start=1):
        for name, value in shared:
            if value(w) != value(first):
                raise InvalidHandError(
                    f"wins[{i}].{name} {value(w)!r} differs from wins[0]'s {value(first)!r}: "
                    "wins on one discard share it",
                    code="inconsistent_wins",
                )
    ura_sets = {w.ura_indicators for w in wins if w.ura_indicators}
    if len({shown(u) for u in ura_sets}) > 1:
        raise InvalidHandError(
            f"the wins give different ura indicators {sorted(shown(u) for u in ura_sets)!r}: "
            "wins on one discard share them",
            code="inconsistent_wins",
        )
    # The discard is one tile held by every winner; indicators lie once on the table.
    seen = [0] * NUM_KINDS
    table = [first.win_tile, *first.dora_indicators, *next(iter(ura_sets), ())]
    hands = [t for w in wins for t in w.closed + tuple(x for m in w.melds for x in m.tiles)]
    for t in table + hands:
        if t is not None:
            seen[t.kind] += 1
    for kind, n in enumerate(seen):
        if n > 4:
            raise InvalidHandError(
                f"{n} copies of {Tile(kind)} across the winners' hands and the indicators: "
                "a set has only four",
                code="fifth_copy",
            )


def parse_settle_request(obj: Any) -> SettleRequest:
    """A validated :class:`SettleRequest` from one CONTRACT.md settle object."""
    obj = _check_fields(obj, SETTLE_FIELDS, "settle request")
    wins_raw = obj.get("wins")
    if not isinstance(wins_raw, list) or not wins_raw:
        raise RequestError("settle request needs a non-empty list 'wins'", code="missing_field")
    ruleset = resolve_ruleset(obj.get("ruleset", DEFAULT_RULESET))
    table = {k: obj[k] for k in ("honba", "riichi_sticks", "discarder") if k in obj}
    wins: list[ScoreRequest] = []
    for i, w in enumerate(wins_raw):
        try:
            wins.append(parse_score_request(w, table=table, ruleset=ruleset))
        except (RequestError, NotationError, InvalidHandError) as exc:
            raise type(exc)(f"wins[{i}]: {exc.message}", code=exc.code) from exc
    if "ruleset" not in obj:  # said in each paid result, as score says it
        assumed = f"no ruleset given; scored under {DEFAULT_RULESET!r}"
        wins = [replace(w, warnings=(assumed, *w.warnings)) for w in wins]
    seats = [w.seat_wind for w in wins]
    if len(set(seats)) != len(seats):
        raise InvalidHandError(f"two wins by the same seat: {seats}", code="duplicate_winner")
    if len(wins) > 1 and any(w.is_tsumo for w in wins):
        raise InvalidHandError(
            "several wins on one hand must all be ron on one discard", code="multi_tsumo"
        )
    if len(wins) > 1:
        check_one_discard(wins)
    return SettleRequest(
        ruleset=ruleset,
        wins=tuple(wins),
        honba=_count(obj.get("honba", 0), "honba"),
        riichi_sticks=_count(obj.get("riichi_sticks", 0), "riichi_sticks"),
        discarder=_seat(obj.get("discarder"), "discarder", optional=True),
    )


def request_from_hand(
    hand: str,
    *,
    ron_from: str | None = None,
    seat_wind: str = "E",
    round_wind: str = "E",
    dora: tuple[str, ...] = (),
    ura: tuple[str, ...] = (),
    flags: tuple[str, ...] = (),
    ruleset: str = DEFAULT_RULESET,
    honba: int = 0,
    riichi_sticks: int = 0,
) -> dict[str, Any]:
    """A CONTRACT.md score request from the one-line hand notation (``agari score HAND``).

    >>> r = request_from_hand("234m406p78s11z+9s pon:555z@left", ron_from="W", seat_wind="S")
    >>> r["closed"], r["win_tile"], r["win"], r["melds"]
    ('234m406p78s11z', '9s', 'ron', [{'kind': 'pon', 'tiles': '555z', 'from': 'left'}])
    """
    from scoring.hand import Hand

    h = Hand.parse(hand)
    melds = [
        {"kind": m.kind, "tiles": format_tiles(m.tiles)} | ({"from": m.from_} if m.from_ else {})
        for m in h.melds
    ]
    req: dict[str, Any] = {
        "ruleset": ruleset,
        "closed": format_tiles(h.closed),
        "win_tile": str(h.win_tile),
        "win": "tsumo" if ron_from is None else "ron",
        "melds": melds,
        "round_wind": round_wind,
        "seat_wind": seat_wind,
        "dora_indicators": list(dora),
        "ura_indicators": list(ura),
        "flags": list(flags),
        "honba": honba,
        "riichi_sticks": riichi_sticks,
    }
    if ron_from is not None:
        req["discarder"] = ron_from
    return req


__all__ = [
    "FLAGS",
    "ScoreRequest",
    "Seat",
    "SettleRequest",
    "Win",
    "check_context",
    "check_tile_counts",
    "parse_score_request",
    "parse_settle_request",
    "request_from_hand",
]
