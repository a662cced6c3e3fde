from __future__ import annotations

import pytest

from webapp import create_app


def test_home_answers() -> None:
    client = create_app({"TESTING": True}).test_client()
    resp = client.get("/")
    assert resp.status_code == 200
    assert b"Agari" in resp.data


def test_config_layers_defaults_environment_and_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGARI_MAX_IMAGE_PIXELS", "1000000")
    monkeypatch.setenv("AGARI_DEFAULT_RULESET", '"m-league"')
    app = create_app({"TESTING": True, "MAX_IMAGE_PIXELS": 2_000_000})
    assert app.config["MAX_IMAGE_PIXELS"] == 2_000_000  # the test overrides win
    assert app.config["DEFAULT_RULESET"] == "m-league"  # from the environment
    assert app.config["MAX_CONTENT_LENGTH"] == 25 * 1024 * 1024  # the default


def test_every_listed_blueprint_is_registered() -> None:
    from webapp.app import BLUEPRINTS

    app = create_app({"TESTING": True})
    assert {"pages", "api", "overlay"} <= set(app.blueprints)
    assert len(app.blueprints) == len(BLUEPRINTS)
