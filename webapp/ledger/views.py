"""The table ledger on the web: JSON API under ``/api/v1/tables`` and pages under ``/tables``.

Reading a table (its public scoreboard) needs nothing. Writing needs the table's token,
sent as ``Authorization: Bearer <token>`` (the API and the pages' scripts) or as the form
field ``token`` of a POST; a token in a URL is refused, so it never lands in an access
log, a browser history or a Referer header. Views parse, call the repository, render.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from scoring.errors import AgariError, RequestError, parse_json
from scoring.ruleset import resolve_ruleset
from webapp.api import refuse_body_over
from webapp.errors import status_of
from webapp.ledger import repository as repo
from webapp.ledger.db import LedgerStore
from webapp.ledger.state import check_replays, public_view, scoreboard, win_from_score_request
from webapp.ledger.tenhou_log import export_game
from webapp.limits import RecentEvents

bp = Blueprint("ledger", __name__)

_STORE_LOCK = threading.Lock()
CREATE_FIELDS = {"ruleset", "players", "title"}


def get_store() -> LedgerStore:
    """This app's ledger store, created (and migrated) on first use, not at app start, so an
    app that never touches a table never opens a database."""
    ext = current_app.extensions
    store = ext.get("agari.ledger")
    if store is None:
        with _STORE_LOCK:
            store = ext.get("agari.ledger")
            if store is None:
                store = LedgerStore(current_app.config.get("LEDGER_DATABASE_URL"))
                ext["agari.ledger"] = store
    return store


@bp.errorhandler(AgariError)
def _error(exc: AgariError) -> Any:
    """JSON under /api/ (as everywhere in the app), a short page for the pages."""
    status = status_of(exc)
    # 401 says how to authenticate (RFC 9110); the realm names what the token opens.
    headers = {"WWW-Authenticate": 'Bearer realm="agari table"'} if status == 401 else {}
    if request.path.startswith("/api/"):
        return jsonify({"error": exc.to_dict()}), status, headers
    return render_template("ledger/error.html", error=exc), status, headers


@bp.before_request
def _no_token_in_url() -> None:
    if "token" in request.args:
        raise RequestError(
            "never put a table token in a URL: send it as 'Authorization: Bearer <token>'",
            code="token_in_url",
        )


def presented_token() -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    if request.method == "POST" and request.mimetype in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        return request.form.get("token") or None
    return None


#: An entry is a few hundred bytes (a score request about 1 KB): far more is not a hand.
MAX_ENTRY_BYTES = 64 * 1024


def _json_object() -> dict[str, Any]:
    refuse_body_over(MAX_ENTRY_BYTES)
    body = parse_json(request.get_data(cache=True) or b"null", what="the body")
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object", code="bad_request")
    return body


def _if_match() -> int | None:
    """The revision from ``If-Match: "r7"`` (the ETag of the table's GET), if sent."""
    header = request.headers.get("If-Match", "").strip()
    if header.startswith("W/"):
        # If-Match uses the strong comparison (RFC 9110, 13.1.1): a weak tag matches
        # nothing, so the write is refused as the RFC says (412). Not stale_revision: a
        # client that reloads and retries on that would send the same weak tag forever.
        exc = RequestError(
            f"If-Match {header!r} is a weak ETag; If-Match compares strongly (RFC 9110), so "
            f"it never matches: send the ETag as the table's GET gives it ({header[2:]}, "
            "without W/)",
            code="weak_etag",
        )
        exc.http_status = 412
        raise exc
    raw = header.strip('"')
    if not raw or raw == "*":
        return None
    # ASCII digits, and few: "r²" passes str.isdigit and 5,000 digits pass it too, and
    # int() refused both (a 500 before any token was checked).
    digits = raw[1:]
    if not (raw.startswith("r") and digits.isascii() and digits.isdigit() and len(digits) <= 18):
        raise RequestError(f'If-Match must be an ETag like "r7", not {raw[:40]!r}', code="bad_etag")
    return int(digits)


def _etag(table: repo.TableRecord) -> str:
    return f"r{table.revision}"


def _table_response(table: repo.TableRecord, status: int = 200) -> Response:
    resp = jsonify(public_view(table))
    resp.status_code = status
    resp.set_etag(_etag(table))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def _creations() -> RecentEvents:
    """This app's count of new tables by address (anyone may create a table, and a flood of
    them filled the public index and the database), made on first use like the store."""
    ext = current_app.extensions
    with _STORE_LOCK:
        limit = ext.get("agari.ledger_creations")
        if limit is None:
            limit = RecentEvents(
                most=int(current_app.config["LEDGER_CREATES_PER_HOUR"]), window=3600
            )
            ext["agari.ledger_creations"] = limit
    return limit  # type: ignore[no-any-return]


def create_from(body: dict[str, Any]) -> tuple[repo.TableRecord, str]:
    if not _creations().take(request.remote_addr or ""):
        exc = RequestError(
            "too many tables were created from here in the last hour", code="too_many_tables"
        )
        exc.http_status = 429
        raise exc
    unknown = set(body) - CREATE_FIELDS
    if unknown:
        raise RequestError(f"unknown fields {sorted(unknown)}", code="unknown_field")
    if "ruleset" not in body or "players" not in body:
        raise RequestError("a table needs a ruleset and players", code="missing_field")
    resolve_ruleset(body["ruleset"])  # an unknown ruleset is refused before anything is stored
    return repo.create_table(
        get_store(), ruleset=body["ruleset"], players=body["players"], title=body.get("title", "")
    )


# --- JSON API ------------------------------------------------------------------------------


@bp.post("/api/v1/tables")
def api_create() -> Any:
    table, token = create_from(_json_object())
    resp = _table_response(table, 201)
    body = resp.get_json()
    body["token"] = token  # the only time the token is ever sent
    resp.set_data(json.dumps(body, ensure_ascii=False))
    resp.headers["Location"] = f"/api/v1/tables/{table.id}"
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _limit(raw: str) -> int:
    """``?limit=N``: a whole number 1 or more; anything else is refused (it was ignored)."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18 and int(raw) >= 1):
        raise RequestError(
            f"limit must be a whole number from 1 (at most 500 are listed), not {raw[:40]!r}",
            code="bad_limit",
        )
    return int(raw)


@bp.get("/api/v1/tables")
def api_list() -> Any:
    limit = min(_limit(request.args.get("limit", "50")), 500)  # more are listed as 500
    return jsonify(
        {
            "tables": [
                {
                    "id": t.id,
                    "title": t.title,
                    "ruleset": t.ruleset,
                    "players": t.players,
                    "revision": t.revision,
                    "entries": t.entries,
                    "updated_at": t.updated_at.isoformat(),
                }
                for t in repo.list_tables(get_store(), limit=limit)
            ]
        }
    )


@bp.get("/api/v1/tables/<table_id>")
def api_get(table_id: str) -> Any:
    table = repo.get_table(get_store(), table_id)
    if request.if_none_match.contains(_etag(table)):
        return Response(status=304, headers={"ETag": f'"{_etag(table)}"'})
    return _table_response(table)


@bp.post("/api/v1/tables/<table_id>/entries")
def api_append(table_id: str) -> Any:
    table = repo.append_entry(
        get_store(),
        table_id,
        presented_token(),
        _json_object(),
        expected_revision=_if_match(),
        check=check_replays,
    )
    return _table_response(table, 201)


@bp.post("/api/v1/tables/<table_id>/wins")
def api_record_win(table_id: str) -> Any:
    """ "Record this win at table X" from a result page: the score request, in the seat winds
    of the hand being played; the table turns them into players and scores it."""
    store, token = get_store(), presented_token()
    repo.check_token(store, table_id, token)
    table = repo.get_table(store, table_id)
    entry = win_from_score_request(table, _json_object())
    # The winner was found from the dealer of this revision: refuse if the table moved on.
    expected = _if_match()
    table = repo.append_entry(
        store,
        table_id,
        token,
        entry,
        expected_revision=table.revision if expected is None else expected,
        check=check_replays,
    )
    return _table_response(table, 201)


@bp.delete("/api/v1/tables/<table_id>/entries/<int:seq>")
def api_undo(table_id: str, seq: int) -> Any:
    table, _removed = repo.undo_last(
        get_store(), table_id, presented_token(), expected_seq=seq, expected_revision=_if_match()
    )
    return _table_response(table)


@bp.post("/api/v1/tables/<table_id>/token-check")
def api_token_check(table_id: str) -> Any:
    """Lets a page tell its user whether the token they pasted opens the table."""
    repo.check_token(get_store(), table_id, presented_token())
    return jsonify({"ok": True})


@bp.get("/api/v1/tables/<table_id>/export")
def api_export(table_id: str) -> Any:
    table = repo.get_table(get_store(), table_id)
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "log", "tenhou"):  # as `agari table export --format`
        raise RequestError(
            f"format must be 'json', 'log' or 'tenhou', not {fmt!r}", code="bad_format"
        )
    doc = export_game(table)
    if fmt == "log":
        return Response(doc["log"], mimetype="text/plain")
    return jsonify(doc["tenhou"] if fmt == "tenhou" else doc)


# --- pages ---------------------------------------------------------------------------------


@bp.get("/tables")
def page_index() -> str:
    from webapp.ledger.pages import ruleset_options

    return render_template(
        "ledger/index.html",
        tables=repo.list_tables(get_store(), limit=50),
        rulesets=ruleset_options(),
    )


@bp.post("/tables")
def page_create() -> Any:
    form = request.form
    body = {
        "ruleset": form.get("ruleset", ""),
        "title": form.get("title", ""),
        "players": {s: form.get(f"player_{s}", "") for s in repo.SEATS},
    }
    table, token = create_from(body)
    # Shown once, in the answer to this POST (never in a URL); the page's script keeps it
    # in this browser's localStorage for the table page.
    resp = Response(render_template("ledger/created.html", table=table, token=token), status=201)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/tables/<table_id>")
def page_table(table_id: str) -> str:
    table = repo.get_table(get_store(), table_id)
    return render_template(
        "ledger/table.html", table=table, scoreboard=scoreboard(table), seats=repo.SEATS
    )


@bp.get("/tables/<table_id>/overlay")
def page_overlay(table_id: str) -> str:
    table = repo.get_table(get_store(), table_id)
    return render_template(
        "ledger/overlay.html", table=table, scoreboard=scoreboard(table), seats=repo.SEATS
    )
