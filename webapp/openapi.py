"""The OpenAPI 3.1 document of ``/api/v1``, written by hand from ``../shared/api/CONTRACT.md``.

Schemas state the contract's minimum; responses may carry more fields (the contract allows
additions), requests may not (unknown input fields are an error).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scoring.limits import MAX_COUNTER, MAX_POINTS
from scoring.request import FLAGS as REQUEST_FLAGS
from webapp.ledger.openapi import LEDGER_SCHEMAS, SECURITY_SCHEMES, ledger_paths

SEAT = {"type": "string", "enum": ["E", "S", "W", "N"]}
TILE = {"type": "string", "pattern": "^[0-9][mps]$|^[1-7]z$", "examples": ["5m", "0p", "7z"]}
TILES = {"type": "string", "description": "MPSZ notation", "examples": ["234m406p78s11z"]}
DELTAS = {
    "type": "object",
    "properties": {s: {"type": "integer"} for s in "ESWN"},
    "required": list("ESWN"),
}
#: Honba, riichi sticks, chombo; and a points figure (scoring.limits: past these, out_of_range).
COUNTER = {"type": "integer", "minimum": 0, "maximum": MAX_COUNTER}
POINTS = {"type": "integer", "minimum": -MAX_POINTS, "maximum": MAX_POINTS}
POINTS_BY_SEAT = {**DELTAS, "properties": dict.fromkeys("ESWN", POINTS)}
#: The flags the scoring engine accepts (CONTRACT.md's, plus ``nagashi_mangan``).
FLAGS = list(REQUEST_FLAGS)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "code": {"type": "string", "description": "stable, machine-readable"},
                    "message": {"type": "string"},
                },
                "required": ["code", "message"],
            }
        },
        "required": ["error"],
    },
    "Ruleset": {
        "oneOf": [
            {"type": "string", "description": "a shipped ruleset id (GET /api/v1/rulesets)"},
            {
                "type": "object",
                "properties": {"base": {"type": "string"}, "overrides": {"type": "object"}},
                "required": ["base"],
                "additionalProperties": False,
            },
        ]
    },
    "Meld": {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["chi", "pon", "daiminkan", "kakan", "ankan"]},
            "tiles": TILES,
            "from": {"type": "string", "enum": ["left", "across", "right"]},
        },
        "required": ["kind", "tiles"],
    },
    "ScoreRequest": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "ruleset": _ref("Ruleset"),
            "closed": {**TILES, "description": "concealed tiles without the winning tile"},
            "win_tile": TILE,
            "win": {"type": "string", "enum": ["ron", "tsumo"]},
            "melds": {"type": "array", "items": _ref("Meld")},
            "round_wind": SEAT,
            "seat_wind": SEAT,
            "discarder": SEAT,
            "dora_indicators": {"type": "array", "items": TILE},
            "ura_indicators": {"type": "array", "items": TILE},
            "flags": {"type": "array", "items": {"type": "string", "enum": FLAGS}},
            "honba": COUNTER,
            "riichi_sticks": COUNTER,
            "pao": {"oneOf": [SEAT, {"type": "null"}]},
        },
        "required": ["closed", "win_tile", "win"],
    },
    "ScoreResponse": {
        "type": "object",
        "properties": {
            # han and fu are 0 under a Zung Jung ruleset (wsom, zung-jung), which scores
            # additive patterns instead: see "scoring", "value" and yaku[].value.
            "han": {"type": "integer"},
            "fu": {"type": "integer"},
            "value": {
                "type": "integer",
                "description": "Zung Jung: the hand value V (points is what is paid)",
            },
            "scoring": {"type": "string", "enum": ["riichi", "zung_jung"]},
            "limit": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "string",
                        "enum": [
                            "mangan",
                            "haneman",
                            "baiman",
                            "sanbaiman",
                            "yakuman",
                            "compound_limit",
                            "listed_limit",
                        ],
                    },
                ]
            },
            "yakuman": {"type": "integer"},
            "yaku": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "han": {
                            "type": "integer",
                            "description": "riichi rulesets; 0 under Zung Jung (patterns "
                            "have points: see value)",
                        },
                        "name": {"type": "string", "description": "Zung Jung patterns"},
                        "value": {"type": "integer", "description": "Zung Jung pattern points"},
                        "number": {"type": "string", "description": "Zung Jung pattern number"},
                    },
                    "required": ["id"],
                },
            },
            "fu_details": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"fu": {"type": "integer"}, "reason": {"type": "string"}},
                },
            },
            "points": {
                "type": "integer",
                "description": "before honba and sticks: ron, what the discarder pays; "
                "tsumo, the sum of all payments",
            },
            "deltas": DELTAS,
            "alternatives": {"type": "array"},
            "warnings": {"type": "array"},
        },
        "required": ["han", "fu", "limit", "yaku", "fu_details", "points", "deltas"],
    },
    "SettleRequest": {
        "type": "object",
        "properties": {
            "ruleset": _ref("Ruleset"),
            "honba": COUNTER,
            "riichi_sticks": COUNTER,
            "discarder": SEAT,
            "wins": {"type": "array", "items": _ref("ScoreRequest")},
        },
        "required": ["wins"],
    },
    "SettleResponse": {
        "type": "object",
        "properties": {
            "results": {"type": "array", "items": _ref("ScoreResponse")},
            "deltas": DELTAS,
        },
    },
    "Detection": {
        "type": "object",
        "properties": {
            "tile": {"type": "string", "description": "MPSZ tile, or x for a face-down tile"},
            "box": {
                "type": "array",
                "items": {"type": "number"},
                "minItems": 4,
                "maxItems": 4,
                "description": "x1, y1, x2, y2 in pixels of the upright photo",
            },
            "confidence": {"type": "number"},
            "sideways": {"type": "boolean"},
        },
        "required": ["tile", "box", "confidence"],
    },
    "GroupRequest": {
        "type": "object",
        "properties": {
            "width": {"type": "integer"},
            "height": {"type": "integer"},
            "detections": {"type": "array", "items": _ref("Detection")},
            "context": {
                "type": "object",
                "description": "score request fields (ruleset, win, winds, flags...) for the "
                "score of each uncertain tile's candidates",
            },
        },
        "required": ["width", "height", "detections"],
    },
    "GroupResponse": {
        "type": "object",
        "properties": {
            "hand_tiles": {"type": "array", "items": {"type": "string"}},
            "hand": {"oneOf": [{"type": "object"}, {"type": "null"}]},
            "warnings": {"type": "array"},
            "uncertain": {
                "type": "array",
                "description": "per uncertain tile: each candidate class with the hand's score",
            },
            "alternatives": {
                "type": "array",
                "description": "other groupings of the layout, and the hand with other likely "
                "indicators; each with hand_tiles, hand, penalty and changes (the hand fields "
                "it differs in)",
            },
        },
    },
    "RecognizeResponse": {
        "allOf": [
            _ref("GroupResponse"),
            {
                "type": "object",
                "properties": {
                    "width": {"type": "integer"},
                    "height": {"type": "integer"},
                    "detections": {"type": "array", "items": _ref("Detection")},
                },
            },
        ]
    },
    "StandingsRequest": {
        "type": "object",
        "properties": {
            "ruleset": _ref("Ruleset"),
            "final_scores": POINTS_BY_SEAT,
            "riichi_sticks_left": COUNTER,
            "chombo": {"type": "object", "additionalProperties": COUNTER},
        },
        "required": ["final_scores"],
    },
    "StandingsResponse": {
        "type": "object",
        "properties": {
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seat": SEAT,
                        "rank": {"type": "integer"},
                        "score": {"type": "integer"},
                        "result": {"type": "number"},
                    },
                },
            }
        },
    },
    "Overlay": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "token": {"type": "string", "description": "secret; needed to publish"},
            "url": {"type": "string"},
        },
    },
    "OverlayPublish": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "hand": {"type": "object"},
            "score": {"type": "object"},
            "title": {"type": "string"},
        },
    },
}

_ERRORS = {
    "400": {"description": "malformed request", "content": {"application/json": {}}},
    "415": {"description": "not an accepted image", "content": {"application/json": {}}},
    "413": {"description": "upload or image too large", "content": {"application/json": {}}},
    "422": {
        "description": "not a win, no yaku, or an impossible hand",
        "content": {"application/json": {}},
    },
    "500": {
        "description": "the shipped model is missing or mismatched (bad_model), or a bug of ours "
        "(internal_error)",
        "content": {"application/json": {}},
    },
}


def _error_responses(codes: tuple[str, ...]) -> dict[str, Any]:
    """The error statuses of an operation, each answering the Error object."""
    return {
        c: {**_ERRORS[c], "content": {"application/json": {"schema": _ref("Error")}}} for c in codes
    }


def _json_op(summary: str, req: str, resp: str, codes: tuple[str, ...]) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(req)}},
            },
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/json": {"schema": _ref(resp)}},
                },
                **_error_responses(codes),
            },
        }
    }


@cache
def openapi_document() -> dict[str, Any]:
    """The whole document (built once)."""
    paths: dict[str, Any] = {
        "/api/v1/score": _json_op(
            "Score one winning hand", "ScoreRequest", "ScoreResponse", ("400", "422")
        ),
        "/api/v1/settle": _json_op(
            "Settle the wins on one discard with honba, sticks and pao",
            "SettleRequest",
            "SettleResponse",
            ("400", "422"),
        ),
        "/api/v1/group": _json_op(
            "Rebuild the hand from tile boxes", "GroupRequest", "GroupResponse", ("400",)
        ),
        "/api/v1/standings": _json_op(
            "Final standings of a game", "StandingsRequest", "StandingsResponse", ("400",)
        ),
        "/api/v1/recognize": {
            "post": {
                "summary": "Detect every tile in a photo and rebuild the hand",
                "requestBody": {
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "photo": {"type": "string", "format": "binary"},
                                    "context": {
                                        "type": "string",
                                        "description": "optional JSON object of score "
                                        "request fields (ruleset, win, winds...), as "
                                        "/group's context: a ruleset without red fives "
                                        "reads a closed kan of fives plain",
                                    },
                                },
                                "required": ["photo"],
                            }
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "OK",
                        "content": {"application/json": {"schema": _ref("RecognizeResponse")}},
                    },
                    **_error_responses(("400", "413", "415", "500")),
                },
            }
        },
        "/api/v1/rulesets": {
            "get": {
                "summary": "Every shipped ruleset",
                "responses": {"200": {"description": "{rulesets: [{id, name}]}"}},
            }
        },
        "/api/v1/overlays": {
            "post": {
                "summary": "Create a streamer overlay; answers its id and secret token",
                "responses": {
                    "201": {
                        "description": "created",
                        "content": {"application/json": {"schema": _ref("Overlay")}},
                    }
                },
            }
        },
        "/api/v1/overlays/{overlay_id}/publish": {
            "post": {
                "summary": "Show a scored hand on the overlay (Authorization: Bearer TOKEN)",
                "parameters": [
                    {
                        "name": "overlay_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "requestBody": {
                    "content": {"application/json": {"schema": _ref("OverlayPublish")}}
                },
                "responses": {
                    "204": {"description": "published"},
                    "403": {"description": "missing or wrong token"},
                    "404": {"description": "unknown overlay"},
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Agari",
            "version": "1",
            "description": "Riichi-mahjong hands from photos to scores. Request and response "
            "bodies are those of `agari <command> --json` (CONTRACT.md). Errors are "
            '`{"error": {"code", "message"}}` with a 4xx status.',
            "license": {"name": "AGPL-3.0-or-later"},
        },
        "paths": paths | ledger_paths(),
        "components": {
            "schemas": SCHEMAS | LEDGER_SCHEMAS,
            "securitySchemes": SECURITY_SCHEMES,
        },
    }
