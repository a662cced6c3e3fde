from __future__ import annotations

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
