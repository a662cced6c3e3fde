"""The ledger's part of the OpenAPI document: merged into ``webapp.openapi`` by
``paths.update(ledger_paths())`` and ``schemas | LEDGER_SCHEMAS``."""

from __future__ import annotations

from typing import Any

from scoring.limits import MAX_POINTS

_SEAT = {"type": "string", "enum": ["E", "S", "W", "N"]}
#: A typed payment: past scoring.limits.MAX_POINTS the replay answers out_of_range.
_POINTS = {"type": "integer", "minimum": 1, "maximum": MAX_POINTS}
_AUTH = (
    "Needs the table's token as `Authorization: Bearer TOKEN` (never in the URL). "
    'Optional `If-Match: "rN"` (the ETag of the last GET) refuses the write with 412 '
    'if someone else wrote since (`stale_revision`); a weak `W/"rN"` never matches, as '
    "If-Match compares strongly (RFC 9110): 412 `weak_etag`."
)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _err(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": _ref("Error")}},
    }


_TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
_TABLE_OK = {"content": {"application/json": {"schema": _ref("LedgerTable")}}}

LEDGER_SCHEMAS: dict[str, Any] = {
    "LedgerCreate": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "ruleset": _ref("Ruleset"),
            "players": {
                "type": "object",
                "description": "player name per starting seat (E deals first)",
                "properties": {s: {"type": "string", "maxLength": 60} for s in "ESWN"},
                "required": list("ESWN"),
                "additionalProperties": False,
            },
            "title": {"type": "string", "maxLength": 200},
        },
        "required": ["ruleset", "players"],
    },
    "LedgerEntry": {
        "type": "object",
        "description": "One hand's outcome, exactly one element of the `hands` list of "
        "`agari game --json` (README, 'Table ledger'). Players are starting seats. "
        "`result`: `win` (`winner`, `from` for a ron, and one of `points` / `deltas` / "
        "`request`; several ron winners in `wins`), `draw` (`tenpai`, optional `nagashi`, "
        "`noten_declared`), `abortive` (`kind`), `chombo` (`seat`, `deliberate`); any may "
        "carry `riichi`, `false_calls`, `stop`, `note`. The game replay validates it: an "
        "illegal hand is refused with 422 (`illegal_hand`) and changes nothing.",
        "required": ["result"],
        "properties": {
            "result": {"type": "string", "enum": ["win", "draw", "abortive", "chombo"]},
            "winner": _SEAT,
            "from": _SEAT,
            "points": {
                "oneOf": [
                    _POINTS,
                    {"type": "array", "items": _POINTS, "minItems": 2, "maxItems": 2},
                ],
                "description": "ron: what the discarder pays; dealer tsumo: what each pays; "
                "non-dealer tsumo: [non-dealer pays, dealer pays]; honba added by the table",
            },
            "deltas": {"type": "object", "description": "a win's payments by player"},
            "request": _ref("ScoreRequest"),
            "wins": {"type": "array", "items": {"type": "object"}},
            "tenpai": {"type": "array", "items": _SEAT},
            "nagashi": {"type": "array", "items": _SEAT},
            "noten_declared": {"type": "array", "items": _SEAT},
            "kind": {
                "type": "string",
                "enum": ["four_winds", "nine_terminals", "four_kans", "four_riichi", "triple_ron"],
            },
            "seat": _SEAT,
            "deliberate": {"type": "boolean"},
            "riichi": {"type": "array", "items": _SEAT},
            "false_calls": {"type": "array", "items": _SEAT},
            "stop": {"type": "boolean"},
            "note": {"type": "string", "maxLength": 200},
        },
    },
    "LedgerWin": {
        "type": "object",
        "additionalProperties": False,
        "description": "A win from a result page: its score request(s) in the seat winds of "
        "the hand being played; the table finds the players from its current dealer and "
        "fills in its own ruleset, round wind, honba and sticks.",
        "properties": {
            "request": _ref("ScoreRequest"),
            "requests": {"type": "array", "items": _ref("ScoreRequest")},
            "riichi": {
                "type": "array",
                "items": _SEAT,
                "description": "seat winds of the other players who declared riichi",
            },
            "note": {"type": "string", "maxLength": 200},
        },
    },
    "LedgerTable": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "title": {"type": "string"},
            "ruleset": _ref("Ruleset"),
            "players": {"type": "object"},
            "revision": {"type": "integer", "description": "bumped by every write; ETag rN"},
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seq": {"type": "integer"},
                        "entry": _ref("LedgerEntry"),
                        "created_at": {"type": "string", "format": "date-time"},
                    },
                },
            },
            "scoreboard": {
                "type": "object",
                "description": "derived by replaying the entries: scores, dealer, round, "
                "honba, sticks, finished, standings, and every hand's deltas; "
                "`error` instead when the replay refuses a stored entry",
                "properties": {
                    "scores": {"type": "object"},
                    "dealer": _SEAT,
                    "round": {"type": "string", "examples": ["E1", "S4"]},
                    "honba": {"type": "integer"},
                    "riichi_sticks": {"type": "integer"},
                    "finished": {"type": "boolean"},
                    "standings": {"type": ["array", "null"]},
                    "hands": {"type": "array"},
                },
            },
            "token": {"type": "string", "description": "only in the answer to the creation"},
        },
    },
}


def ledger_paths() -> dict[str, Any]:
    return {
        "/api/v1/tables": {
            "post": {
                "summary": "Create a table; the answer holds its write token, shown only once",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("LedgerCreate")}},
                },
                "responses": {
                    "201": {"description": "created", **_TABLE_OK},
                    "400": _err("bad players, unknown ruleset or unknown field"),
                },
            },
            "get": {
                "summary": "The most recently changed tables",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "how many (default 50; more than 500 lists 500)",
                        "schema": {"type": "integer", "minimum": 1},
                    }
                ],
                "responses": {
                    "200": {"description": "{tables: [...]}"},
                    "400": _err("limit is not a whole number from 1 (`bad_limit`)"),
                },
            },
        },
        "/api/v1/tables/{table_id}": {
            "get": {
                "summary": "A table's public scoreboard (no token needed); ETag rN, "
                "If-None-Match answers 304: poll it for a live overlay",
                "parameters": [_TABLE_ID],
                "responses": {
                    "200": {"description": "the table", **_TABLE_OK},
                    "304": {"description": "unchanged since the ETag sent"},
                    "404": _err("no such table"),
                },
            }
        },
        "/api/v1/tables/{table_id}/entries": {
            "post": {
                "summary": "Record one hand's outcome. " + _AUTH,
                "parameters": [_TABLE_ID],
                "security": [{"tableToken": []}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("LedgerEntry")}},
                },
                "responses": {
                    "201": {"description": "recorded; the table after it", **_TABLE_OK},
                    "400": _err("malformed entry"),
                    "401": _err("no token"),
                    "403": _err("wrong token"),
                    "404": _err("no such table"),
                    "412": _err("the table changed since If-Match"),
                    "422": _err("the game replay refuses this hand"),
                },
            }
        },
        "/api/v1/tables/{table_id}/wins": {
            "post": {
                "summary": "Record this win at the table, from a result page's score request. "
                + _AUTH,
                "parameters": [_TABLE_ID],
                "security": [{"tableToken": []}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("LedgerWin")}},
                },
                "responses": {
                    "201": {"description": "recorded; the table after it", **_TABLE_OK},
                    "400": _err("malformed request or seat"),
                    "401": _err("no token"),
                    "403": _err("wrong token"),
                    "412": _err("the table changed meanwhile"),
                    "422": _err("the hand does not score, or the game replay refuses it"),
                },
            }
        },
        "/api/v1/tables/{table_id}/entries/{seq}": {
            "delete": {
                "summary": "Undo: delete the last entry (seq must be the last one). " + _AUTH,
                "parameters": [
                    _TABLE_ID,
                    {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}},
                ],
                "security": [{"tableToken": []}],
                "responses": {
                    "200": {"description": "the table after the undo", **_TABLE_OK},
                    "401": _err("no token"),
                    "403": _err("wrong token"),
                    "409": _err("not the last entry, or nothing to undo"),
                    "412": _err("the table changed since If-Match"),
                },
            }
        },
        "/api/v1/tables/{table_id}/token-check": {
            "post": {
                "summary": "Whether the token sent opens this table (200) or not (401/403)",
                "parameters": [_TABLE_ID],
                "security": [{"tableToken": []}],
                "responses": {"200": {"description": "{ok: true}"}, "403": _err("wrong token")},
            }
        },
        "/api/v1/tables/{table_id}/export": {
            "get": {
                "summary": "The whole game: JSON (format=json, with a Tenhou-style log), "
                "the plain-text log of results (format=log) or the Tenhou-style log alone "
                "(format=tenhou)",
                "parameters": [
                    _TABLE_ID,
                    {
                        "name": "format",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["json", "log", "tenhou"]},
                    },
                ],
                "responses": {"200": {"description": "the export"}, "404": _err("no such table")},
            }
        },
    }


#: For ``components.securitySchemes``.
SECURITY_SCHEMES: dict[str, Any] = {
    "tableToken": {"type": "http", "scheme": "bearer", "description": "a table's write token"}
}
