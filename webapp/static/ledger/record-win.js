// "Record this win at table X" on the result page. The page's own script announces every
// score it computes (the "agari:scored" event); this one keeps the latest and, on click,
// sends its score request to the table ledger with the table's token in the
// Authorization header. The table fills in its own round wind, honba and sticks and finds
// the winner and discarder from the seat winds, so the page's situation controls only
// need the right seat winds.
"use strict";
(() => {
  const button = document.getElementById("ledger-record-win");
  if (!button) return;
  const idInput = document.getElementById("ledger-table-id");
  const tokenInput = document.getElementById("ledger-table-token");
  const status = document.getElementById("ledger-record-status");
  let latest = null;
  // The page's language (webapp/static/i18n.js, loaded by base.html).
  const {t, errorName} = window.AgariI18n;

  const load = (key) => { try { return localStorage.getItem(key) || ""; } catch (e) { return ""; } };
  const save = (key, value) => { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } };

  idInput.value = load("agari.ledger.current");
  // A token this browser keeps for the table typed (the one that created it) fills itself in.
  const fillToken = () => {
    const kept = idInput.value ? load("agari.table." + idInput.value.trim()) : "";
    if (kept) tokenInput.value = kept;
  };
  fillToken();
  idInput.addEventListener("input", fillToken);

  document.addEventListener("agari:scored", (ev) => {
    latest = ev.detail && ev.detail.score ? ev.detail.request : null;
    button.disabled = !latest;
  });
  button.disabled = true;

  button.addEventListener("click", async () => {
    const id = idInput.value.trim();
    const token = tokenInput.value.trim();
    if (!id || !token || !latest) { status.textContent = t("ledger_record_win_missing"); return; }
    save("agari.ledger.current", id);
    save("agari.table." + id, token);
    const resp = await fetch("/api/v1/tables/" + encodeURIComponent(id) + "/wins", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ request: latest }),
    });
    const data = await resp.json();
    if (!resp.ok) {
      const own = errorName(data.error.code);
      status.textContent = (own ? own + " — " : "") + data.error.message + " (" + data.error.code + ")";
      return;
    }
    const hand = data.scoreboard.hands[data.scoreboard.hands.length - 1];
    status.replaceChildren();
    const link = document.createElement("a");
    link.href = "/tables/" + encodeURIComponent(id);
    link.textContent = t("ledger_recorded_as", { seq: hand.seq, round: hand.round, honba: hand.honba });
    status.append(link);
  });
})();
