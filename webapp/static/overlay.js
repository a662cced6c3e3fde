/* The OBS overlay: shows the latest card published to this overlay (Server-Sent Events). */
(function () {
  "use strict";
  const T = window.AgariTiles;
  const {table: I18N, t} = window.AgariI18n;  // webapp/static/i18n.js, loaded by base.html
  const $ = (sel) => document.querySelector(sel);
  const root = $("#overlay");
  const yakuName = (id) => (I18N.yaku && I18N.yaku[id]) || id.replace(/_/g, " ");

  function span(cls, text) {
    const s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    return s;
  }

  function tiles(list, cls, sidewaysAt) {
    const g = span("group " + (cls || ""), "");
    list.forEach((c, i) => g.append(T.svg(c, {sideways: i === sidewaysAt})));
    return g;
  }

  function safe(str) { try { return T.parse(str || ""); } catch (e) { return []; } }

  function render(card) {
    const hand = card.hand || {}, score = card.score || {};
    const row = $("#card-tiles");
    row.replaceChildren(tiles(safe(hand.closed)));
    if (hand.win_tile) row.append(tiles([hand.win_tile], "win"));
    for (const m of hand.melds || []) {
      const n = safe(m.tiles).length;
      const at = m.kind === "ankan" ? -1 : m.from === "left" ? 0 : m.from === "across" ? 1 : n - 1;
      row.append(tiles(safe(m.tiles), "called", at));
    }
    // Zung Jung hands (wsom, zung-jung) have no han/fu: their patterns carry points, and
    // the figure shown is the hand value V ("points" is what is paid).
    const zj = score.scoring === "zung_jung";
    const shown = zj && score.value !== undefined ? score.value : score.points;
    $("#card-points").textContent = shown === undefined ? "" : String(shown);
    const lim = score.limit ? (I18N.limits && I18N.limits[score.limit]) || score.limit : "";
    const hf = zj ? "Zung Jung" : score.yakuman ? t("yakuman_n", {n: score.yakuman}) : t("han_fu", {han: score.han, fu: score.fu});
    $("#card-headline").textContent = [hf, lim].filter(Boolean).join(" · ");
    $("#card-title").textContent = card.title || "";
    $("#card-yaku").replaceChildren(...(score.yaku || []).map((y) => {
      const li = document.createElement("li");
      li.append(span("name", zj && y.name ? y.name : yakuName(y.id)),
        span("han", zj ? String(y.value) : score.yakuman ? "" : String(y.han)));
      return li;
    }));
    const pay = $("#card-payments");
    pay.replaceChildren(...["E", "S", "W", "N"].map((s) => {
      const d = (score.deltas || {})[s] || 0;
      return span("pay " + (d > 0 ? "gain" : d < 0 ? "loss" : ""), t("wind_" + s) + " " + (d > 0 ? "+" : "") + d);
    }));
    $("#card").hidden = false;
    $("#card-waiting").hidden = true;
  }

  const source = new EventSource(root.dataset.events);
  source.addEventListener("card", (ev) => {
    render(JSON.parse(ev.data));
    root.dataset.version = ev.lastEventId || String(Number(root.dataset.version) + 1);
  });
  source.addEventListener("gone", () => source.close());
  source.addEventListener("open", () => { root.dataset.connected = "1"; });
})();
