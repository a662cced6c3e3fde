// The table overlay for OBS: polls the public scoreboard (ETag, so an unchanged table costs
// a 304 and no body) and updates the scores in place. Polling, not a held stream, so it
// works behind any number of app servers sharing one PostgreSQL.
"use strict";
(() => {
  const root = document.getElementById("ledger-overlay");
  const api = root.dataset.api;
  let etag = null;
  const text = (id, v) => { document.getElementById(id).textContent = v; };

  function render(table) {
    const sb = table.scoreboard || {};
    if (sb.error) return;
    // The card speaks the table's Japanese (本場, 供託, 終局): 東2局 rather than "East 2".
    const kanji = {E: "東", S: "南", W: "西", N: "北"};
    const r = sb.round || "";
    text("ov-round", sb.finished ? "終局" : (r ? (kanji[r[0]] || r[0]) + r.slice(1) + "局" : ""));
    text("ov-honba", sb.honba ?? 0);
    text("ov-sticks", sb.riichi_sticks ?? 0);
    const last = (sb.hands && sb.hands.length) ? sb.hands[sb.hands.length - 1] : null;
    for (const row of root.querySelectorAll(".ov-row")) {
      const seat = row.dataset.seat;
      row.querySelector(".ov-name").textContent = table.players[seat];
      row.querySelector(".ov-score").textContent = sb.scores ? sb.scores[seat] : "";
      const d = last ? last.deltas[seat] : 0;
      const delta = row.querySelector(".ov-delta");
      delta.textContent = d ? (d > 0 ? "+" + d : String(d)) : "";
      delta.classList.toggle("neg", d < 0);
      row.classList.toggle("dealer", !sb.finished && sb.dealer === seat);
    }
  }

  async function poll() {
    try {
      const headers = etag ? { "If-None-Match": etag } : {};
      const resp = await fetch(api, { headers, cache: "no-store" });
      if (resp.status === 200) {
        etag = resp.headers.get("ETag");
        render(await resp.json());
      }
    } catch (e) {
      // Network hiccup: try again at the next tick.
    }
    setTimeout(poll, 2000);
  }
  poll();
})();
