"""Step 6: parsing the hand row in one reading direction into concealed tiles, melds and
the winning tile, each parse with a penalty for what it leaves unexplained."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vision.grouping import settings
from vision.grouping.values import GroupingWarning, MeldGroup, Token, _kind


@dataclass(frozen=True, slots=True)
class _Parse:
    concealed: tuple[Token, ...]
    win: Token | None
    melds: tuple[MeldGroup, ...]
    penalty: float
    warnings: tuple[GroupingWarning, ...]


def _meld_of(tokens: Sequence[Token]) -> tuple[MeldGroup, float, list[GroupingWarning]] | None:
    """The meld these places form, its penalty and warnings; None if not meld-shaped.

    Shape first (sideways, stacked and face-down places), then the tiles are checked.
    """
    n = len(tokens)
    side = [k for k, t in enumerate(tokens) if t.sideways]
    down = [k for k, t in enumerate(tokens) if t.face_down]
    stacked = [k for k, t in enumerate(tokens) if t.stacked is not None]
    dets = tuple(d for t in tokens for d in ((t.det,) if t.stacked is None else (t.det, t.stacked)))
    tiles = tuple(
        x
        for t in tokens
        for x in ((t.tile,) if t.stacked_tile is None else (t.tile, t.stacked_tile))
    )
    warnings: list[GroupingWarning] = []
    penalty = 0.0
    if n == 4 and not side and len(down) >= 2 and down in ([0, 3], [1, 2], [0, 1, 2, 3]):
        visible = [t.tile for t in tokens if not t.face_down]
        if not visible:
            warnings.append(
                GroupingWarning("unknown_ankan", "a closed kan shows no face: which tile?", dets)
            )
            return MeldGroup("ankan", (settings.FACE_DOWN,) * 4, None, dets), 0.0, warnings
        kinds = {_kind(t) for t in visible}
        if len(kinds) > 1:
            warnings.append(
                GroupingWarning(
                    "meld_mismatch", f"a closed kan shows different tiles {visible}", dets
                )
            )
            penalty += settings.P_MELD_MISMATCH
        plain = next((t for t in visible if t[0] != "0"), "5" + visible[0][1])
        hidden = [plain] * (4 - len(visible))
        return MeldGroup("ankan", (*visible, *hidden), None, dets), penalty, warnings
    if len(side) != 1 or down or len(stacked) > 1 or (stacked and stacked != side):
        return None
    pos = side[0]
    if n == 3:
        source = settings.DIRECTIONS[pos]
        if stacked:
            kind = "kakan"
        else:
            is_run = _is_run(sorted(_kind(t) or 0 for t in tiles))
            kind = "chi" if is_run else "pon"
            if is_run and pos != 0:
                warnings.append(
                    GroupingWarning(
                        "chi_not_from_left",
                        "a chi's called tile is sideways but not first (a chi is only called "
                        "from the left player)",
                        dets,
                    )
                )
                penalty += settings.P_CHI_NOT_LEFT
    elif n == 4 and not stacked:
        kind = "daiminkan"
        source = "left" if pos == 0 else "right" if pos == 3 else "across"
    else:
        return None
    if kind != "chi" and len({_kind(t) for t in tiles}) != 1:
        warnings.append(
            GroupingWarning(
                "meld_mismatch", f"a {kind} should be one tile four or three times: {tiles}", dets
            )
        )
        penalty += settings.P_MELD_MISMATCH
    return MeldGroup(kind, tiles, source, dets), penalty, warnings


def _meld_shaped(tiles: Sequence[str]) -> bool:
    """Whether these tiles could be one meld: three or four of a kind, or a run of three.

    >>> _meld_shaped(["3p", "2p", "4p"]), _meld_shaped(["6z"] * 4), _meld_shaped(["1m", "1m", "2m"])
    (True, True, False)
    """
    kinds = [_kind(t) for t in tiles]
    if any(k is None for k in kinds):
        return False
    return len(set(kinds)) == 1 or _is_run(sorted(k for k in kinds if k is not None))


def _is_run(kinds: Sequence[int]) -> bool:
    """Whether these tile kinds (sorted) are three in a row of one suit (a chi's).

    >>> _is_run([0, 1, 2]), _is_run([7, 8, 9]), _is_run([27, 28, 29])
    (True, False, False)
    """
    return (
        len(kinds) == 3
        and kinds[0] < 27
        and list(kinds) == [kinds[0], kinds[0] + 1, kinds[0] + 2]
        and kinds[0] // 9 == kinds[2] // 9
    )


def _meld_window(window: Sequence[Token]) -> bool:
    """Whether these row places could be one meld as laid: a closed kan's face-down pattern,
    or at most one sideways tile and meld-shaped faces."""
    down = [k for k, t in enumerate(window) if t.face_down]
    if down:
        shown = {_kind(t.tile) for t in window if not t.face_down}
        return (
            len(window) == 4
            and down in ([0, 3], [1, 2])
            and not any(t.sideways for t in window)
            and len(shown) <= 1
        )
    return sum(t.sideways for t in window) <= 1 and _meld_shaped([t.tile for t in window])


def _meld_tiling(tokens: Sequence[Token]) -> list[Sequence[Token]] | None:
    """Meld-shaped windows (:func:`_meld_window`) covering ``tokens`` exactly, first found
    (threes before fours), or None.

    >>> toks = [Token(i, t, False) for i, t in enumerate(["1m", "1m", "1m", "2p", "3p", "4p"])]
    >>> [[t.tile for t in w] for w in _meld_tiling(toks)]
    [['1m', '1m', '1m'], ['2p', '3p', '4p']]
    >>> _meld_tiling(toks[:4]) is None
    True
    """
    if not tokens:
        return []
    for n in (3, 4):
        window = tokens[:n]
        if len(window) == n and _meld_window(window):
            rest = _meld_tiling(tokens[n:])
            if rest is not None:
                return [window, *rest]
    return None


def _parse(tokens: Sequence[Token]) -> list[_Parse]:
    """Every plausible reading of the places left to right, melds on the right."""
    results: list[_Parse] = []
    n = len(tokens)
    ends: list[tuple[int, Token | None, float]] = [(n, None, 0.0)]
    if n >= 2 and not tokens[-1].face_down and tokens[-1].gap_before > settings.GAP:
        ends.append((n - 1, tokens[-1], settings.P_WIN_AFTER_MELDS))
    gap_of = {t.det: t.gap_before for t in tokens}
    for end, far_win, base in ends:
        for melds, start, pen, warns in _meld_suffixes(tokens, end):
            if far_win is not None and not melds:
                continue  # a gapped last tile without melds is the ordinary case below
            prefix = tokens[:start]
            # A hole as wide as a tile between two melds: a tile may be missing there (a kan
            # then reads as a pon), or a meld be split otherwise. Said, not penalised.
            holes = [
                (*a.dets, *b.dets)
                for a, b in itertools.pairwise(melds)
                if gap_of[b.dets[0]] > settings.MELD_HOLE
            ]
            extra = [
                GroupingWarning(
                    "gap_between_melds",
                    "a gap as wide as a tile between two melds: a tile may be missing there",
                    tuple(i for h in holes for i in h),
                )
            ] * bool(holes)
            if far_win is not None:
                extra.append(
                    GroupingWarning(
                        "win_after_melds",
                        "the tile set apart after the melds is read as the winning tile",
                        (far_win.det,),
                    )
                )
            for win, wpen, wwarn in _win_options(prefix, far_win):
                results.append(
                    _finish(prefix, win, melds, base + pen + wpen, [*warns, *wwarn, *extra])
                )
    return results


def _meld_suffixes(
    tokens: Sequence[Token], end: int
) -> list[tuple[tuple[MeldGroup, ...], int, float, list[GroupingWarning]]]:
    """Melds read from the right end leftwards: (melds left to right, start, penalty, warns)."""
    out: list[tuple[tuple[MeldGroup, ...], int, float, list[GroupingWarning]]] = [
        ((), end, 0.0, [])
    ]
    for length in (3, 4):
        start = end - length
        if start < 0:
            continue
        found = _meld_of(tokens[start:end])
        if found is None:
            continue
        meld, pen, warns = found
        inner = [t for t in tokens[start + 1 : end] if t.gap_before > settings.GAP]
        if inner:
            pen += settings.P_GAP_IN_MELD * len(inner)
            warns = [
                *warns,
                GroupingWarning(
                    "gap_in_meld", "a gap splits the tiles read as one meld", meld.dets
                ),
            ]
        if start > 0 and tokens[start].gap_before <= settings.GAP:
            pen += settings.P_NO_GAP_BEFORE_MELD
        for melds, s2, p2, w2 in _meld_suffixes(tokens, start):
            if len(melds) >= 4:
                continue
            out.append(((*melds, meld), s2, pen + p2, [*w2, *warns]))
    return out


def _win_options(
    prefix: Sequence[Token], far_win: Token | None
) -> list[tuple[Token | None, float, list[GroupingWarning]]]:
    if far_win is not None:
        return [(far_win, 0.0, [])]
    if not prefix:
        return [(None, settings.P_NO_WIN, [])]
    options: list[tuple[Token | None, float, list[GroupingWarning]]] = []
    last, first = prefix[-1], prefix[0]
    if not last.face_down and (
        last.sideways or (len(prefix) > 1 and last.gap_before > settings.GAP)
    ):
        options.append((last, 0.0, []))
    if (
        len(prefix) > 1
        and not first.face_down
        and (first.sideways or prefix[1].gap_before > settings.GAP)
    ):
        options.append((first, settings.P_WIN_LEFT, []))
    if not options:
        options.append(
            (
                last,
                settings.P_NO_WIN,
                [
                    GroupingWarning(
                        "no_winning_tile",
                        "no tile is set apart or laid sideways as the winning tile; "
                        "the last concealed tile is assumed",
                        (last.det,),
                    )
                ],
            )
        )
    return options


def _hidden_red_fives(
    prefix: Sequence[Token], melds: tuple[MeldGroup, ...], warnings: list[GroupingWarning]
) -> tuple[MeldGroup, ...]:
    """A closed kan of fives showing no red five holds it face down, when no red five of
    that suit shows elsewhere: the four fives of a suit include its red one (one per suit,
    :data:`RED_FIVES`; rules without red fives read the kan's fives plain). Each kan so read
    is named in ``warnings`` (``face_down_red_five``)."""
    shown = {t for tok in prefix for t in (tok.tile, tok.stacked_tile) if t} | {
        t for m in melds for t in m.tiles
    }
    out = []
    for m in melds:
        suit = m.tiles[0][1] if m.tiles[0] != settings.FACE_DOWN else ""
        if (
            settings.RED_FIVES
            and m.kind == "ankan"
            and suit in "mps"
            and all(t == "5" + suit for t in m.tiles)
            and "0" + suit not in shown
        ):
            m = replace(m, tiles=(*m.tiles[:-1], "0" + suit))
            warnings.append(
                GroupingWarning(
                    "face_down_red_five",
                    "a closed kan of fives: a face-down tile is read as the suit's red five "
                    "when none shows (the four fives hold it under the usual rules)",
                    m.dets,
                )
            )
        out.append(m)
    return tuple(out)


def _finish(
    prefix: Sequence[Token],
    win: Token | None,
    melds: tuple[MeldGroup, ...],
    penalty: float,
    warnings: list[GroupingWarning],
) -> _Parse:
    concealed = tuple(t for t in prefix if t is not win)
    melds = _hidden_red_fives(prefix, melds, warnings)
    down = [t.det for t in concealed if t.face_down]
    if win is not None and win.face_down:
        down.append(win.det)
    # Gaps inside the concealed part: the only expected one sets the winning tile apart.
    apart = [
        t
        for k, t in enumerate(prefix)
        if k > 0 and t.gap_before > settings.GAP and t is not win and prefix[k - 1] is not win
    ]
    inside = [t.det for t in apart]
    # Tiles the layout leaves unexplained: each costs its penalty and is named.
    unexplained = (
        (
            [t.det for t in concealed if t.sideways],
            settings.P_SIDEWAYS_CONCEALED,
            "unexpected_sideways",
            "a sideways tile among the concealed tiles belongs to no meld",
        ),
        (
            down,
            settings.P_FACE_DOWN_CONCEALED,
            "face_down_in_concealed",
            "a face-down tile among the concealed tiles (a closed kan shows two)",
        ),
        (
            [t.det for t in (*concealed, *([win] if win else [])) if t.stacked is not None],
            settings.P_STACK_OUTSIDE_MELD,
            "unexpected_stack",
            "a tile stacked on a tile that is in no meld",
        ),
        (
            inside,
            settings.P_GAP_IN_CONCEALED,
            "gap_in_concealed",
            "a gap among the concealed tiles that sets no winning tile apart",
        ),
    )
    for found, cost, code, message in unexplained:
        if found:
            penalty += cost * len(found)
            warnings.append(GroupingWarning(code, message, tuple(found)))
    # Of those gaps, the wide ones cost more (named by the same warning): see WIDE_GAP.
    wide = sum(t.gap_before > settings.WIDE_GAP for t in apart)
    penalty += (settings.P_WIDE_GAP_IN_CONCEALED - settings.P_GAP_IN_CONCEALED) * wide
    kans = sum(len(m.tiles) == 4 for m in melds)
    count = len(concealed) + (win is not None) + 3 * len(melds) + kans
    expected = 14 + kans
    if count != expected:
        penalty += settings.P_COUNT * abs(count - expected)
        code = "too_many_tiles" if count > expected else "too_few_tiles"
        dets = tuple(t.det for t in concealed)
        warnings.append(
            GroupingWarning(
                code,
                f"the hand has {count} tiles where {expected} are expected "
                f"({len(melds)} melds, {kans} kans)",
                dets,
                (("count", count), ("expected", expected)),
            )
        )
    return _Parse(concealed, win, melds, penalty, tuple(warnings))
