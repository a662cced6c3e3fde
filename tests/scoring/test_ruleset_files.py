"""The shipped ruleset files: every stated rule of RULESETS.md's hand-value table as data,
every source citation checkable, and the loader's errors naming the file and the key."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scoring import ruleset as ruleset_module
from scoring.errors import RulesetError
from scoring.ruleset import (
    declared_in,
    list_rulesets,
    load_ruleset,
    resolve_ruleset,
    rule_names,
    with_overrides,
)
from tests.conftest import shared_path

SHIPPED = [
    "ema",
    "jpml-a",
    "jpml-b",
    "m-league",
    "mahjong-soul",
    "tenhou",
    "tenpane",
    "wrc",
    "wsom",
]

# RULESETS.md, "Hand value" table: (ruleset, rule, value) for every cell that is stated.
HAND_TABLE = [
    ("jpml-a", "red_fives", {"m": 0, "p": 0, "s": 0}),
    ("jpml-b", "red_fives", {"m": 0, "p": 0, "s": 0}),
    ("m-league", "red_fives", {"m": 1, "p": 1, "s": 1}),
    ("tenpane", "red_fives", {"m": 1, "p": 2, "s": 1}),
    ("jpml-a", "ura_dora", False),
    ("jpml-b", "ura_dora", True),
    ("tenpane", "ura_dora", True),
    ("jpml-a", "kan_dora", False),
    ("jpml-a", "kan_ura_dora", False),
    ("jpml-b", "kan_dora", True),
    ("jpml-b", "kan_ura_dora", True),
    ("tenpane", "kan_dora", True),
    ("tenpane", "kan_ura_dora", True),
    ("jpml-a", "ippatsu", False),
    ("jpml-b", "ippatsu", True),
    ("m-league", "ippatsu", True),
    ("tenpane", "ippatsu", True),
    ("jpml-b", "open_tanyao", True),
    ("m-league", "open_tanyao", True),
    ("tenpane", "open_tanyao", True),
    ("jpml-a", "double_yakuman", False),
    ("jpml-b", "double_yakuman", False),
    ("m-league", "double_yakuman", False),
    ("jpml-a", "yakuman_stacking", False),
    ("jpml-b", "yakuman_stacking", False),
    ("m-league", "yakuman_stacking", True),
    ("jpml-a", "kazoe", "sanbaiman"),
    ("jpml-b", "kazoe", "sanbaiman"),
    ("m-league", "kazoe", "none"),
    ("tenpane", "kazoe", "yakuman"),
    ("jpml-b", "kiriage", True),
    ("m-league", "kiriage", True),
    ("jpml-b", "open_pinfu_fu", 30),
    ("jpml-b", "renhou", "mangan"),
    ("m-league", "renhou", "none"),
    ("jpml-a", "nagashi_mangan", False),
    ("jpml-b", "nagashi_mangan", False),
    ("m-league", "nagashi_mangan", False),
    ("tenpane", "nagashi_mangan", True),
    ("jpml-a", "ryuuiisou_needs_hatsu", True),
    ("jpml-a", "ryuuiisou_hatsu_triplet", True),
    ("jpml-a", "min_han", 1),
    ("m-league", "min_han", 1),
    ("tenpane", "min_han", 1),
    ("m-league", "chankan_ankan_kokushi", False),
    ("jpml-a", "pao", ("daisuushii", "daisangen", "suukantsu")),
    ("jpml-b", "pao", ("daisangen", "daisuushii", "suukantsu")),
    ("jpml-b", "pao_rinshan_daiminkan", True),
    ("m-league", "pao", ("daisangen", "daisuushii", "suukantsu")),
    ("tenpane", "pao", ("daisangen", "daisuushii", "suukantsu")),
    ("tenpane", "pao_rinshan_daiminkan", False),
    ("jpml-a", "multi_ron", "head_bump"),
    ("jpml-b", "multi_ron", "head_bump"),
    ("m-league", "multi_ron", "head_bump"),
    ("tenpane", "multi_ron", "triple"),
    ("tenpane", "multi_ron_honba_each", True),
    ("m-league", "honba_value", 300),
    # WSOM's game flow (RULESETS.md: no dora, no riichi, Zung Jung scoring).
    ("wsom", "scoring", "zung_jung"),
    ("wsom", "dora", False),
    ("wsom", "red_fives", {"m": 0, "p": 0, "s": 0}),
    ("wsom", "game.riichi", False),
    ("wsom", "game.renchan_on_win", False),
    ("wsom", "game.renchan_on_tenpai", False),
    # The researched rulesets where the base default would pay wrong (wrc.toml [WRCorg]).
    ("wrc", "red_fives", {"m": 0, "p": 0, "s": 0}),
    ("wrc", "kiriage", True),
    ("wrc", "renhou", "mangan"),
    ("wrc", "nagashi_mangan", False),
    ("mahjong-soul", "double_yakuman", True),
]


@pytest.mark.parametrize(
    "ruleset, rule, value",
    [pytest.param(r, k, v, id=f"{r.replace('-', '_')}_{k}") for r, k, v in HAND_TABLE],
)
def test_hand_value_table(ruleset: str, rule: str, value: Any) -> None:
    rs = load_ruleset(ruleset)
    assert rs.value_of(rule) == value
    # A stated rule must carry its own citation, not the base default's.
    assert declared_in(ruleset)[rule] == ruleset


def test_jpml_a_triple_ron_is_an_abortive_draw() -> None:
    # Seed 001 line 7: atamahane on a double ron, a triple ron is a re-deal.
    assert "triple_ron" in load_ruleset("jpml-a").game.abortive_draws


def test_tenpane_triple_ron_is_paid_not_drawn() -> None:
    assert "triple_ron" not in load_ruleset("tenpane").game.abortive_draws


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_shipped_ruleset_loads_with_a_source_for_every_rule(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    assert ruleset_id in list_rulesets()
    for rule in rule_names():
        assert rs.source_of(rule).strip(), rule
    # Every game rule is written, with its source, in the file or a parent (base.toml
    # cites the ordinary defaults); none falls back to an uncited code default.
    origin = declared_in(ruleset_id)
    assert [k for k, v in origin.items() if v == "default" and k.startswith("game.")] == []


SEED_FILES = {
    "000": "000_0933ffae278a6359.txt",
    "001": "001_5f56c206460bf512.txt",
    "002": "002_2a948fa8bc99867c.txt",
    "003": "003_15dbff576c52892e.txt",
    "004": "004_c43b0bee04f720e1.txt",
}
CITATION = re.compile(r"seed (\d{3}), lines? (\d+)(?:-(\d+))?")


def test_seed_citations_point_at_real_lines() -> None:
    """Every "seed NNN, line N" in a ruleset points at a non-empty line of that seed."""
    seeds = shared_path("seeds")
    checked = 0
    for path in sorted(Path(ruleset_module.RULESET_DIR).glob("*.toml")):
        for seed, first, last in CITATION.findall(path.read_text(encoding="utf-8")):
            lines = (seeds / SEED_FILES[seed]).read_text(encoding="utf-8").splitlines()
            for n in range(int(first), int(last or first) + 1):
                assert 1 <= n <= len(lines) and lines[n - 1].strip(), (path.name, seed, n)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    "ruleset_id, rule, words",
    [
        # Spot checks that a citation says what the rule says (in the seed's language).
        ("jpml-a", "game.tobi", "минус"),
        ("jpml-b", "game.tie_break", "дилеру"),
        ("m-league", "game.tie_break", "4:3:3"),
        ("m-league", "game.tobi", "토비"),
        ("tenpane", "game.extension_target", "30,100"),
        ("tenpane", "game.chombo_flat_payment", "3,000"),
    ],
)
def test_citation_matches_seed_text(ruleset_id: str, rule: str, words: str) -> None:
    seeds = shared_path("seeds")
    seed, line, _ = CITATION.findall(load_ruleset(ruleset_id).source_of(rule))[0]
    text = (seeds / SEED_FILES[seed]).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert words in text


def test_researched_rulesets_cite_urls() -> None:
    for ruleset_id in ("tenhou", "mahjong-soul", "wrc", "ema"):
        text = (Path(ruleset_module.RULESET_DIR) / f"{ruleset_id}.toml").read_text()
        assert "https://" in text or "http://" in text, ruleset_id
        # Each [TAG] a source uses is defined (with its address) in the file's header.
        for tag in set(re.findall(r'source = "\[(\w+)\]', text)):
            assert re.search(rf"^#\s+\[{tag}\]\s+https?://", text, re.M), (ruleset_id, tag)


def test_declared_in_marks_base_defaults() -> None:
    origin = declared_in("m-league")
    assert origin["game.tobi"] == "m-league"
    assert origin["game.noten_payment_total"] == "base"
    assert declared_in("ema")["game.uma"] == "wrc"  # inherited from its parent file


def test_ema_extends_wrc() -> None:
    ema, wrc = load_ruleset("ema"), load_ruleset("wrc")
    assert ema.extends == "wrc"
    assert ema.game.uma == wrc.game.uma == (15, 5, -5, -15)
    assert ema.red_fives == {"m": 0, "p": 0, "s": 0}


# --- the loader's errors name the file and the key ----------------------------------------------


@pytest.fixture
def ruleset_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private rulesets folder holding a copy of base.toml (the loader's cache cleared)."""
    base = (Path(ruleset_module.RULESET_DIR) / "base.toml").read_text(encoding="utf-8")
    (tmp_path / "base.toml").write_text(base, encoding="utf-8")
    monkeypatch.setattr(ruleset_module, "RULESET_DIR", tmp_path)
    load_ruleset.cache_clear()
    yield tmp_path
    load_ruleset.cache_clear()


def write(folder: Path, body: str) -> None:
    head = 'id = "t"\nname = "test"\nextends = "base"\n'
    (folder / "t.toml").write_text(head + body, encoding="utf-8")


@pytest.mark.parametrize(
    "body, code, words",
    [
        ('[game]\nbust = { value = true, source = "x" }\n', "unknown_rule", "'game.bust'"),
        ('[game]\ntobi = { value = "yes", source = "x" }\n', "bad_ruleset_value", "game.tobi"),
        ("[game]\ntobi = true\n", "bad_ruleset_file", "game.tobi"),
        (
            '[game]\numa = { value = [10, 5, -5, -15], source = "x" }\n',
            "ruleset_contradiction",
            "game.uma",
        ),
        (
            '[game]\numa_by_players_above = { value = { "7" = [1, 0, 0, -1] }, source = "x" }\n',
            "bad_ruleset_value",
            "game.uma_by_players_above",
        ),
        (
            '[game]\nabortive_draws = { value = ["rain"], source = "x" }\n',
            "bad_ruleset_value",
            "game.abortive_draws",
        ),
        (
            '[game]\nabortive_draws = { value = [], source = "x" }\n',
            "ruleset_contradiction",
            "triple_ron",
        ),
        (
            '[game]\nnagashi_settlement = { value = "win", source = "x" }\n'
            '[rules]\nnagashi_mangan = { value = false, source = "x" }\n',
            "ruleset_contradiction",
            "game.nagashi_settlement",
        ),
        (
            '[game]\nreturn_points = { value = 20000, source = "x" }\n',
            "ruleset_contradiction",
            "game.return_points",
        ),
        ("[stuff]\nx = 1\n", "unknown_rule", "stuff"),
    ],
)
def test_bad_ruleset_file(ruleset_dir: Path, body: str, code: str, words: str) -> None:
    write(ruleset_dir, body)
    with pytest.raises(RulesetError) as err:
        load_ruleset("t")
    assert err.value.code == code
    assert "t.toml" in err.value.message
    assert words in err.value.message


def test_extends_overrides_a_few_game_keys(ruleset_dir: Path) -> None:
    write(ruleset_dir, '[game]\ntobi = { value = false, source = "house rule" }\n')
    rs = load_ruleset("t")
    assert rs.game.tobi is False and rs.source_of("game.tobi") == "house rule"
    assert rs.game.start_points == 25000  # from base.toml


def test_game_overrides_per_request() -> None:
    base = load_ruleset("m-league")
    rs = resolve_ruleset({"base": "m-league", "overrides": {"game": {"tobi": True}}})
    assert rs.game.tobi is True and base.game.tobi is False  # the shipped one is untouched
    assert rs.source_of("game.tobi") == "per-request override"
    assert with_overrides(base, {"game.uma": [20, 10, -10, -20]}).game.uma == (20, 10, -10, -20)
    with pytest.raises(RulesetError) as err:
        with_overrides(base, {"game": {"tobbi": True}})
    assert err.value.code == "unknown_rule"
    with pytest.raises(RulesetError):
        with_overrides(base, {"game": {"tobi": "no"}})
    with pytest.raises(RulesetError) as err:
        with_overrides(base, {"game": {"abortive_draws": []}, "multi_ron": "double"})
    assert err.value.code == "ruleset_contradiction"
