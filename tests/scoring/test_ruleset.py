from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import RulesetError
from scoring.ruleset import list_rulesets, load_ruleset, resolve_ruleset, with_overrides


def test_tenhou_loads_with_sources() -> None:
    rs = load_ruleset("tenhou")
    assert rs.kiriage is False
    assert "7700" in rs.source_of("kiriage")
    assert "tenhou" in list_rulesets()


@pytest.mark.parametrize("bad", ["nope", "../etc/passwd", ""])
def test_unknown_ruleset(bad: str) -> None:
    with pytest.raises(RulesetError) as err:
        load_ruleset(bad)
    assert err.value.code == "unknown_ruleset"


def test_overrides_validate() -> None:
    rs = resolve_ruleset({"base": "tenhou", "overrides": {"kiriage": True}})
    assert rs.kiriage is True
    with pytest.raises(RulesetError):
        with_overrides(rs, {"kiriage": "yes"})
    with pytest.raises(RulesetError):
        with_overrides(rs, {"no_such_rule": 1})


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"base": ["tenhou"]}, "unknown_ruleset"),
        ({"base": {"base": "tenhou"}}, "unknown_ruleset"),
        ({"base": "tenhou", "overrides": []}, "bad_ruleset_value"),
        ({"base": "tenhou", "overrides": 0}, "bad_ruleset_value"),
    ],
)
def test_a_malformed_ruleset_object_is_a_ruleset_error(spec: dict[str, Any], code: str) -> None:
    # A list as the base was a TypeError from load_ruleset's cache (a 500 / a traceback).
    with pytest.raises(RulesetError) as info:
        resolve_ruleset(spec)
    assert info.value.code == code


@pytest.mark.parametrize("red_fives", [{"m": 5}, {"x": 1}, {"m": True}, {"m": -1}, ["m"]], ids=repr)
def test_a_bad_red_fives_override_says_what_is_wanted(red_fives: Any) -> None:
    # {"m": 5} is a dict of str to int; "wrong type (expected dict[str, int])" read as nonsense.
    with pytest.raises(RulesetError) as info:
        resolve_ruleset({"base": "tenhou", "overrides": {"red_fives": red_fives}})
    assert info.value.code == "bad_ruleset_value"
    assert "m, p, s to a count of red fives from 0 to 4" in info.value.message
