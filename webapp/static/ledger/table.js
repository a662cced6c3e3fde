// The table page: record a hand or undo the last one through the JSON API, sending the
// table's token in the Authorization header (never in a URL), and reload when anyone
// (this device or another) changed the table.
"use strict";
(() => {
  const root = document.getElementById("ledger-table");
  if (!root) return;
  const id = root.dataset.table;
  const api = root.dataset.api;
  const storeKey = "agari.table." + id;
  const tokenInput = document.getElementById("ledger-token");
  const remember = document.getElementById("ledger-remember");
  const message = document.getElementById("ledger-message");
  const form = document.getElementById("ledger-entry");
  const revision = root.dataset.revision;

  // The page's language (webapp/static/i18n.js, loaded by base.html).
  const {t, errorName} = window.AgariI18n;
  // A refusal: the page's own words for its code where it has them, the server's sentence
  // and code below as the detail.
  function showError(err) {
    const own = errorName(err.code);
    const detail = (err.message || "") + " (" + err.code + ")";
    message.replaceChildren();
    message.classList.add("error");
    if (!own) { message.textContent = detail; return; }
    const small = document.createElement("small");
    small.textContent = detail;
    message.append(own, document.createElement("br"), small);
  }

  try { tokenInput.value = localStorage.getItem(storeKey) || ""; } catch (e) { /* private mode */ }

  function token() {
    const t = tokenInput.value.trim();
    try {
      if (remember.checked && t) localStorage.setItem(storeKey, t);
      if (!remember.checked) localStorage.removeItem(storeKey);
    } catch (e) { /* private mode */ }
    return t;
  }

  const checked = (name) =>
    [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((el) => el.value);

  // Show only the fields that the chosen outcome uses.
  function showFields() {
    const kind = form.elements.result.value;
    for (const el of form.querySelectorAll("[data-for]")) {
      el.hidden = !el.dataset.for.split(" ").includes(kind);
    }
  }
  form.elements.result.addEventListener("change", showFields);
  showFields();

  // "Dealt in by": never a winner. Winners are disabled in the list, and when the chosen
  // discarder becomes a winner the first seat that is not one is chosen instead.
  function syncDiscarder() {
    const winners = checked("winner");
    const from = form.elements.from;
    for (const opt of from.options) opt.disabled = winners.includes(opt.value) && winners.length < 4;
    if (winners.includes(from.value)) {
      const free = [...from.options].find((opt) => !winners.includes(opt.value));
      if (free) from.value = free.value;
    }
  }
  for (const box of form.querySelectorAll('input[name="winner"]')) box.addEventListener("change", syncDiscarder);
  syncDiscarder();

  // "7700" -> 7700; "1000-2000" or "1000/2000" -> [1000, 2000] (non-dealer tsumo).
  function points(text) {
    const parts = text.trim().split(/\s*[-/]\s*/).filter((p) => p !== "");
    const nums = parts.map(Number);
    return nums.length === 1 ? nums[0] : nums;
  }

  // One hand outcome, exactly as the game replay (`agari game --json`) reads it.
  function buildEntry() {
    const kind = form.elements.result.value;
    const entry = {};
    const optional = (name, list) => { if (list.length) entry[name] = list; };
    if (kind === "ron" || kind === "tsumo") {
      entry.result = "win";
      if (kind === "ron") entry.from = form.elements.from.value;
      const deltas = {};
      let typedDeltas = false;
      for (const seat of ["E", "S", "W", "N"]) {
        const v = form.elements["delta_" + seat].value.trim();
        deltas[seat] = v === "" ? 0 : Number(v);
        typedDeltas = typedDeltas || v !== "";
      }
      const wins = checked("winner").map((seat) =>
        typedDeltas ? { winner: seat, deltas } : { winner: seat, points: points(form.elements["points_" + seat].value) });
      if (wins.length === 1) Object.assign(entry, wins[0]); else entry.wins = wins;
    } else if (kind === "draw") {
      entry.result = "draw";
      entry.tenpai = checked("tenpai");
      optional("nagashi", checked("nagashi"));
      if (form.elements.noten_declared.checked && form.dataset.dealer) entry.noten_declared = [form.dataset.dealer];
    } else if (kind === "abortive") {
      entry.result = "abortive";
      entry.kind = form.elements.kind.value;
    } else {
      entry.result = "chombo";
      entry.seat = form.elements.seat.value;
      if (form.elements.deliberate.checked) entry.deliberate = true;
    }
    if (kind !== "chombo") {
      optional("riichi", checked("riichi"));
      optional("false_calls", checked("false_calls"));
    }
    if (kind !== "abortive" && kind !== "chombo" && form.elements.stop.checked) entry.stop = true;
    const note = form.elements.note.value.trim();
    if (note) entry.note = note;
    return entry;
  }

  async function send(method, url, body) {
    const headers = { Authorization: "Bearer " + token(), "If-Match": '"r' + revision + '"' };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    message.classList.remove("error");
    message.textContent = t("ledger_sending");
    let resp;
    try {
      resp = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      message.classList.add("error");
      message.textContent = t("network_error");
      return;
    }
    if (resp.ok) { location.reload(); return; }
    let err = null;
    try { err = (await resp.json()).error; } catch (e) { /* not JSON */ }
    if (err && err.code) showError(err);
    else { message.classList.add("error"); message.textContent = resp.status + " " + resp.statusText; }
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("POST", api + "/entries", buildEntry());
  });
  for (const btn of document.querySelectorAll(".ledger-undo")) {
    btn.addEventListener("click", () => {
      if (confirm(t("ledger_undo_confirm", { seq: btn.dataset.seq }))) send("DELETE", api + "/entries/" + btn.dataset.seq);
    });
  }

  // Someone else recorded a hand: reload, unless this user is filling in the form.
  let etag = '"r' + revision + '"';
  async function poll() {
    try {
      const resp = await fetch(api, { headers: { "If-None-Match": etag }, cache: "no-store" });
      if (resp.status === 200 && !form.contains(document.activeElement)) { location.reload(); return; }
    } catch (e) { /* offline for a moment */ }
    setTimeout(poll, 5000);
  }
  setTimeout(poll, 5000);
})();
