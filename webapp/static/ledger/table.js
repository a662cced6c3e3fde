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
    const kind = form.elements.kind.value;
    for (const el of form.querySelectorAll("[data-for]")) {
      el.hidden = !el.dataset.for.split(" ").includes(kind);
    }
  }
  form.elements.kind.addEventListener("change", showFields);
  showFields();

  // One hand outcome, as the game replay (`agari game --json`) reads it.
  function buildEntry() {
    const kind = form.elements.kind.value;
    const riichi = checked("riichi");
    const num = (name) => Number(form.elements[name].value);
    const win = (seat) => {
      const yakuman = num("yakuman_" + seat);
      return yakuman > 0 ? { winner: seat, yakuman } : { winner: seat, han: num("han_" + seat), fu: num("fu_" + seat) };
    };
    if (kind === "ron") {
      return { kind: "ron", discarder: form.elements.discarder.value, wins: checked("winner").map(win), riichi };
    }
    if (kind === "tsumo") {
      const winners = checked("winner");
      return { kind: "tsumo", ...win(winners[0] || ""), riichi };
    }
    if (kind === "draw") return { kind: "draw", tenpai: checked("tenpai"), riichi };
    if (kind === "nagashi") return { kind: "nagashi", nagashi: checked("nagashi"), tenpai: checked("tenpai"), riichi };
    if (kind === "abortive") return { kind: "abortive", reason: form.elements.reason.value, riichi };
    return { kind: "chombo", offender: form.elements.offender.value };
  }

  async function send(method, url, body) {
    const headers = { Authorization: "Bearer " + token(), "If-Match": '"r' + revision + '"' };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const resp = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (resp.ok) { location.reload(); return; }
    let msg = resp.statusText;
    try { const err = (await resp.json()).error; msg = err.message + " (" + err.code + ")"; } catch (e) { /* not JSON */ }
    message.textContent = msg;
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("POST", api + "/entries", buildEntry());
  });
  for (const btn of document.querySelectorAll(".ledger-undo")) {
    btn.addEventListener("click", () => {
      if (confirm("Undo hand " + btn.dataset.seq + "?")) send("DELETE", api + "/entries/" + btn.dataset.seq);
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
