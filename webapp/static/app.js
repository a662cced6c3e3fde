/* The home and result views: photo -> /api/v1/recognize -> editable hand -> /api/v1/score,
 * recomputed on every change. Plain JavaScript, no build step. */
(function () {
  "use strict";
  const T = window.AgariTiles;
  const {table: I18N, t} = window.AgariI18n;
  const $ = (sel) => document.querySelector(sel);
  const app = $("#app");
  const SEATS = ["E", "S", "W", "N"];
  const MELD_KINDS = ["chi", "pon", "daiminkan", "kakan", "ankan"];
  const MELD_SIZE = {chi: 3, pon: 3, daiminkan: 4, kakan: 4, ankan: 4};
  const LIMITS = ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"];

  const yakuName = (id) => (I18N.yaku && I18N.yaku[id]) || id.replace(/_/g, " ");
  const fuName = (r) => (I18N.fu && I18N.fu[r]) || r.replace(/_/g, " ");
  const errorText = (e) => (I18N.errors && I18N.errors[e.code]) || e.message || e.code;

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  // replaceChildren() would print null and undefined as text.
  function fill(node, ...kids) {
    node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  }

  // ---------------------------------------------------------------- state
  const state = {
    hand: {closed: [], win: null, melds: [], dora: [], ura: []},
    recog: null,
    tileWarnings: {},   // "zone:index" -> [messages]
    selected: null,     // {zone, meld, index} ; index null = append
    score: null,
    seq: 0,
    overlay: loadOverlay(),
    // The photo's reading depends on the situation (a closed kan's hidden red five exists
    // only under rules with red fives; the unsure tiles' what-if scores on every field), so
    // it is read again whenever the situation changes. readContext: the context (JSON) the
    // reading in `recog` was made under; base: the reading (page form) the hand on screen
    // started from, and baseRef where it is in `recog`; pinned: places the user changed
    // that a later reading must not overwrite though they equal it now; keptKeys: those
    // whose new reading differs, named by the note (its button takes the reading there).
    readContext: null,
    base: null,
    baseRef: null,
    pinned: new Set(),
    keptKeys: [],
  };

  function loadOverlay() {
    try { return JSON.parse(sessionStorage.getItem("agari.overlay") || "null"); } catch (e) { return null; }
  }

  // ---------------------------------------------------------------- views
  function show(view) {
    const moved = app.dataset.view !== view;
    $("#home").hidden = view !== "home";
    $("#result").hidden = view !== "result";
    app.dataset.view = view;
    // The section that had the focus is hidden now: the new view's heading takes it.
    if (moved && view === "result") $("#result-heading").focus({preventScroll: true});
  }

  // ---------------------------------------------------------------- photo
  async function sendPhoto(blob, name) {
    const status = $("#home-status");
    status.textContent = t("recognizing");
    status.className = "status busy";
    const form = new FormData();
    form.append("photo", blob, name || "photo.jpg");
    // The ruleset and situation already picked: the grouping reads a closed kan of fives
    // plain under rules without red fives, and scores the uncertain tiles under them.
    const context = currentContext();
    form.append("context", JSON.stringify(context));
    let body;
    let resp;
    try {
      resp = await fetch("/api/v1/recognize", {method: "POST", body: form});
      body = await resp.json();
    } catch (e) {
      status.textContent = t("network_error");
      status.className = "status error";
      return;
    }
    if (!resp.ok) {
      status.textContent = errorText(body.error || {code: "error"});
      status.className = "status error";
      status.dataset.code = (body.error && body.error.code) || "";
      return;
    }
    status.textContent = "";
    status.className = "status";
    const url = URL.createObjectURL(blob);
    loadRecognition(body, url, JSON.stringify(context));
    history.pushState({view: "result"}, "", "#result");
    show("result");
  }

  function onFile(ev) {
    const file = ev.target.files && ev.target.files[0];
    if (file) sendPhoto(file, file.name);
    ev.target.value = "";
  }

  async function onExample(ev) {
    const src = ev.currentTarget.dataset.src;
    const resp = await fetch(src);
    const blob = await resp.blob();
    sendPhoto(blob, src.split("/").pop());
  }

  function safeParse(str) {
    try { return T.parse(str || ""); } catch (e) { return []; }
  }

  function handFrom(hand) {
    return {
      closed: safeParse(hand.closed),
      win: hand.win_tile || null,
      melds: (hand.melds || []).map((m) => ({kind: m.kind, tiles: safeParse(m.tiles), from: m.from || "left"})),
      dora: (hand.dora_indicators || []).slice(),
      ura: (hand.ura_indicators || []).slice(),
    };
  }

  // The photo's own reading as the editor holds it: the grouping's hand, or when the tiles
  // form none, the hand's tiles in reading order with the last one as the winning tile.
  function readingHand(rec) {
    if (rec.hand) return handFrom(rec.hand);
    const H = {closed: [], win: null, melds: [], dora: [], ura: []};
    const tiles = (rec.hand_tiles || []).map((x) => x.replace("'", "")).filter((x) => T.isTile(x) && x !== "x");
    H.win = tiles.length ? tiles[tiles.length - 1] : null;
    H.closed = tiles.slice(0, -1);
    return H;
  }

  // The reading a hand was taken from (`ref`), looked up in a grouping response: the
  // photo's reading, an unsure tile's candidate, or another grouping. Null when gone.
  function readingOf(rec, ref) {
    if (!ref || ref.kind === "reading") return readingHand(rec);
    if (ref.kind === "candidate") {
      const u = (rec.uncertain || []).find((x) => x && x.detection === ref.detection);
      const c = u && (u.candidates || []).find((x) => x.tile === ref.tile);
      return c && c.hand ? handFrom(c.hand) : null;
    }
    const alt = (rec.alternatives || []).filter((a) => a && a.hand)[ref.index];
    return alt ? handFrom(alt.hand) : null;
  }

  const copyHand = (H) => JSON.parse(JSON.stringify(H));

  // The hand on screen is replaced by a reading (photo, candidate, other grouping): the
  // user's changes start again from it.
  function setBase(H, ref) {
    state.hand = H;
    state.base = copyHand(H);
    state.baseRef = ref;
    state.pinned = new Set();
    state.keptKeys = [];
    showReread(null);
  }

  function loadRecognition(rec, photoUrl, contextKey) {
    state.recog = rec;
    state.readContext = contextKey || null;
    if (rec.hand && rec.hand.win) setRadio("win", rec.hand.win);
    setBase(readingHand(rec), {kind: "reading"});
    state.tileWarnings = {};
    renderPhoto(rec, photoUrl);
    renderWarnings(rec);
    renderCandidates(rec);
    renderGroupings(rec);
    renderHand();
    scheduleScore();
  }

  function renderPhoto(rec, url) {
    const panel = $("#photo-panel");
    panel.hidden = !url;
    if (!url) return;
    $("#photo").src = url;
    const boxes = $("#boxes");
    boxes.replaceChildren();
    const W = rec.width || 1, H = rec.height || 1;
    const warned = {};
    for (const w of rec.warnings || []) for (const i of (w && w.detections) || []) (warned[i] = warned[i] || []).push(warningText(w));
    (rec.detections || []).forEach((d, i) => {
      const [x1, y1, x2, y2] = d.box;
      const conf = Math.round((d.confidence || 0) * 100);
      const note = warned[i] ? "\n⚠ " + warned[i].join("\n⚠ ") : "";
      const box = h("div", {class: "box" + (d.confidence < 0.6 ? " low" : "") + (warned[i] ? " warn" : "") + (d.tile === "x" ? " down" : ""),
        title: d.tile + " " + conf + "%" + note, "data-tile": d.tile, "data-detection": i,
        onclick: () => { const where = (state.detectionPlace || {})[i]; if (where) { select(where); $("#palette").scrollIntoView({block: "nearest"}); } }},
        d.tile === "x" ? null : h("span", {class: "box-label", text: d.tile, "data-conf": conf + "%"}));
      box.style.left = (100 * x1 / W) + "%";
      box.style.top = (100 * y1 / H) + "%";
      box.style.width = (100 * (x2 - x1) / W) + "%";
      box.style.height = (100 * (y2 - y1) / H) + "%";
      boxes.append(box);
    });
    $("#detections-summary").textContent = t("detections_found", {n: (rec.detections || []).length});
  }

  function warningText(w) {
    if (typeof w === "string") return w;
    return (I18N.warnings && I18N.warnings[w.code]) ? I18N.warnings[w.code] + (w.message ? " — " + w.message : "") : (w.message || w.code);
  }

  function warningShort(w) {
    if (typeof w === "string") return w;
    return (I18N.warnings && I18N.warnings[w.code]) || w.message || w.code;
  }

  // A warning names its tile by `tile` (and maybe `index`) in some form; attach it to the
  // first hand tile that matches, else show it above the hand.
  // Which hand tile each detection became, from the grouping's `layout` (detection
  // indices per part of the hand); tiles are matched by name within each part.
  function layoutMap(rec) {
    const map = {};
    const L = rec.layout;
    if (!L) return map;
    const dets = rec.detections || [];
    const H = state.hand;
    const name = (i) => (dets[i] ? String(dets[i].tile).replace("'", "") : null);
    const place = (indices, list, where) => {
      const used = new Set();
      for (const i of indices || []) {
        const k = list.findIndex((t, j) => !used.has(j) && t === name(i));
        if (k >= 0) { used.add(k); map[i] = where(k); }
      }
    };
    place(L.concealed, H.closed, (k) => ({zone: "closed", index: k}));
    if (L.win !== undefined && L.win !== null) map[L.win] = {zone: "win", index: 0};
    (L.melds || []).forEach((ids, m) => place(ids, H.melds[m] ? H.melds[m].tiles : [], (k) => ({zone: "meld", meld: m, index: k})));
    place(L.dora_indicators, H.dora, (k) => ({zone: "dora", index: k}));
    place(L.ura_indicators, H.ura, (k) => ({zone: "ura", index: k}));
    return map;
  }

  function selKey(sel) {
    return sel.zone + ":" + (sel.meld !== undefined ? sel.meld + ":" : "") + sel.index;
  }

  // Each warning goes next to the tiles it names (a short phrase; the full sentence in the
  // tooltip and in the list), or above the hand when it concerns no tile of the hand.
  function renderWarnings(rec) {
    const map = layoutMap(rec);
    state.detectionPlace = map;
    const list = $("#hand-warnings");
    list.replaceChildren();
    const folded = $("#placed-warnings");
    const foldedList = folded.querySelector("ul");
    foldedList.replaceChildren();
    for (const w of rec.warnings || []) {
      // A warning about the whole hand (it names many tiles) stays above the hand.
      const dets = (w && w.detections) || [];
      const places = dets.length <= 2 ? dets.map((i) => map[i]).filter(Boolean) : [];
      if (!places.length && w && w.tile) {
        const where = findTile(String(w.tile).replace("'", ""));
        if (where) places.push(where);
      }
      for (const where of places) {
        (state.tileWarnings[selKey(where)] = state.tileWarnings[selKey(where)] || []).push(w);
      }
      // Doubt about one tile goes with the others folded away: the tile or its box shows it.
      const single = places.length || (dets.length === 1 && w.code === "low_confidence");
      (single ? foldedList : list).append(h("li", {class: "warning" + (places.length ? " placed" : ""),
        "data-code": (w && w.code) || "", text: "⚠ " + warningText(w)}));
    }
    folded.hidden = !foldedList.children.length;
    folded.querySelector("summary").textContent = t("warnings_on_tiles", {n: foldedList.children.length});
  }

  // Uncertain tiles: the grouping step scores the hand under each candidate class
  // (`uncertain`); a tap on a candidate takes that reading of the whole hand.
  function renderCandidates(rec) {
    const list = $("#candidates");
    const same = $("#candidates-same");
    const sameList = same.querySelector("ul");
    list.replaceChildren();
    sameList.replaceChildren();
    for (const u of rec.uncertain || []) {
      if (!u || !Array.isArray(u.candidates)) continue;
      const note = u.changes_payout === false ? t("same_payout") : u.changes_payout ? t("changes_payout") : "";
      const li = h("li", {class: "candidate", "data-detection": u.detection},
        h("span", {text: "⚠ " + t("if_tile_is", {tile: u.tile || "?"})}));
      for (const c of u.candidates) {
        const label = c.error ? errorText(c.error) : c.points !== undefined && c.points !== null
          ? (c.value !== undefined && c.value !== null ? c.value : c.points) + " " + t("points_short") + (c.han ? " (" + t("han_fu", {han: c.han, fu: c.fu}) + ")" : "") : "";
        li.append(h("button", {type: "button", class: "cand", "data-tile": c.tile, onclick: () => takeCandidate(u, c)},
          T.svg(c.tile), h("span", {text: label})));
      }
      if (note) li.append(h("span", {class: "small muted", text: note}));
      // Ask first about the tiles that change the payout; the others wait folded away.
      (u.changes_payout === false ? sameList : list).append(li);
    }
    same.hidden = !sameList.children.length;
    same.querySelector("summary").textContent = t("unsure_same", {n: sameList.children.length});
  }

  // Other ways the grouping step could read the photo's layout; a tap takes one.
  function renderGroupings(rec) {
    const alts = (rec.alternatives || []).filter((a) => a && a.hand);
    $("#groupings-box").hidden = !alts.length;
    $("#groupings").replaceChildren(...alts.map((a, i) => {
      const H = handFrom(a.hand);
      const row = h("span", {class: "tiles mini"}, ...H.closed.map((c) => T.svg(c)), h("span", {class: "sep"}),
        H.win ? T.svg(H.win) : null, ...H.melds.map((m) => h("span", {class: "mini-meld"}, ...m.tiles.map((c) => T.svg(c)))));
      // A reading that differs only in its indicators shows them, or it would look the same.
      const changed = a.changes || [];
      const shown = [["dora_indicators", H.dora, "dora"], ["ura_indicators", H.ura, "ura_dora"]]
        .filter(([key]) => changed.includes(key))
        .map(([, tiles, label]) => h("span", {class: "tiles mini alt-indicators"}, h("span", {class: "small", text: t(label) + ":"}),
          ...(tiles.length ? tiles.map((c) => T.svg(c)) : [h("span", {class: "small muted", text: "–"})])));
      row.append(...shown);
      return h("li", null, h("button", {type: "button", class: "cand grouping", "data-grouping": i, title: t("use_this"),
        onclick: () => { setBase(handFrom(a.hand), {kind: "grouping", index: i}); state.tileWarnings = {}; state.selected = null; renderHand(); scheduleScore(); }},
        row, h("span", {class: "small", text: t("use_this")})));
    }));
  }

  function takeCandidate(u, c) {
    state.detectionPlace = {};
    if (c.hand) {
      setBase(handFrom(c.hand), {kind: "candidate", detection: u.detection, tile: c.tile});
    } else {
      replaceTile(u.tile, c.tile);
      return;
    }
    state.tileWarnings = {};
    state.selected = null;
    renderHand();
    scheduleScore();
  }

  function replaceTile(from, to) {
    const where = from ? findTile(String(from).replace("'", "")) : null;
    if (!where) return;
    setTileAt(where, to);
    renderHand();
    scheduleScore();
  }

  // ---------------------------------------------------------------- hand editor
  function tileButton(code, sel, opts) {
    const isSel = state.selected && sameSel(state.selected, sel);
    const warn = state.tileWarnings[selKey(sel)];
    // The warning shown under a tile is its description for a screen reader too.
    const noteId = warn ? "warn-" + selKey(sel).replace(/[^a-z0-9-]/gi, "-") : null;
    const btn = h("button", {type: "button", class: "tile" + (isSel ? " selected" : "") + (warn ? " warn" : ""),
      "data-tile": code, "data-zone": sel.zone, "data-index": sel.index, "aria-pressed": isSel ? "true" : "false",
      "aria-controls": "palette", "aria-expanded": isSel ? "true" : "false", "aria-describedby": noteId,
      "aria-label": T.name(code), title: warn ? warn.map(warningText).join("\n") : code, onclick: () => select(sel)},
      T.svg(code, opts));
    if (!warn) return btn;
    const short = [...new Set(warn.map(warningShort))].join("; ");
    return h("span", {class: "tile-wrap"}, btn, h("span", {class: "tile-warning", id: noteId, text: "⚠ " + short}));
  }

  function addButton(sel, label) {
    const isSel = state.selected && sameSel(state.selected, sel);
    return h("button", {type: "button", class: "tile add" + (isSel ? " selected" : ""), "data-zone": sel.zone,
      "aria-label": label, title: label, onclick: () => select(sel)}, "+");
  }

  function sameSel(a, b) {
    return a.zone === b.zone && a.index === b.index && (a.meld === b.meld);
  }

  function renderZone(id, tiles, zone) {
    const box = $(id);
    box.replaceChildren(...tiles.map((c, i) => tileButton(c, {zone: zone, index: i})),
      addButton({zone: zone, index: null}, t("add_tile")));
  }

  function renderHand() {
    const H = state.hand;
    renderZone("#zone-closed", H.closed, "closed");
    const win = $("#zone-win");
    win.replaceChildren(H.win ? tileButton(H.win, {zone: "win", index: 0}) : addButton({zone: "win", index: 0}, t("add_tile")));
    renderZone("#zone-dora", H.dora, "dora");
    renderZone("#zone-ura", H.ura, "ura");
    const melds = $("#melds");
    melds.replaceChildren(...H.melds.map((m, mi) => {
      const kind = h("select", {"aria-label": t("meld_kind"), class: "meld-kind", onchange: (e) => { m.kind = e.target.value; renderHand(); scheduleScore(); }},
        ...MELD_KINDS.map((k) => h("option", {value: k, selected: k === m.kind, text: t("meld_" + k)})));
      const from = h("select", {"aria-label": t("meld_from"), class: "meld-from", hidden: m.kind === "ankan", onchange: (e) => { m.from = e.target.value; renderHand(); scheduleScore(); }},
        ...["left", "across", "right"].map((f) => h("option", {value: f, selected: f === m.from, text: t("from_" + f)})));
      const tiles = h("div", {class: "tiles"}, ...m.tiles.map((c, i) => tileButton(c, {zone: "meld", meld: mi, index: i}, {sideways: m.kind !== "ankan" && i === calledIndex(m)})),
        m.tiles.length < MELD_SIZE[m.kind] ? addButton({zone: "meld", meld: mi, index: null}, t("add_tile")) : null);
      const dissolve = h("button", {type: "button", class: "btn small ghost", title: t("meld_dissolve"), "aria-label": t("meld_dissolve"),
        onclick: () => { H.closed.push(...m.tiles.filter((x) => x !== "x")); H.melds.splice(mi, 1); state.selected = null; state.detectionPlace = {}; renderHand(); scheduleScore(); }}, "✕");
      return h("div", {class: "meld zone-row", "data-meld": mi}, h("span", {class: "zone-label", text: t("meld") + " " + (mi + 1)}),
        tiles, h("span", {class: "meld-controls"}, kind, from, dissolve));
    }));
    renderPalette();
  }

  // The called tile lies sideways: on the left for a tile from the left, etc.
  function calledIndex(m) {
    const n = m.tiles.length;
    return m.from === "left" ? 0 : m.from === "across" ? 1 : Math.max(0, n - 1);
  }

  function select(sel) {
    state.selected = state.selected && sameSel(state.selected, sel) ? null : sel;
    renderHand();
    // renderHand rebuilt the buttons: the focus goes back to the tile just pressed (a
    // keyboard user goes on from there), which a phone's bottom-sheet palette must not hide.
    const btn = selButton(sel);
    if (btn) {
      btn.focus({preventScroll: true});
      if (state.selected && window.matchMedia("(max-width: 899px)").matches) btn.scrollIntoView({block: "start", behavior: "smooth"});
    }
  }

  function selButton(sel) {
    const zone = sel.zone === "meld" ? `#melds [data-meld="${sel.meld}"]` : "#zone-" + sel.zone;
    const all = document.querySelectorAll(`${zone} button.tile`);
    const add = [...all].find((b) => b.classList.contains("add")) || null;
    if (sel.index === null) return add;
    return [...all].find((b) => b.dataset.index === String(sel.index) && !b.classList.contains("add")) || add;
  }

  function tileAt(sel) {
    const H = state.hand;
    if (sel.zone === "closed") return H.closed[sel.index];
    if (sel.zone === "win") return H.win;
    if (sel.zone === "dora") return H.dora[sel.index];
    if (sel.zone === "ura") return H.ura[sel.index];
    if (sel.zone === "meld") return H.melds[sel.meld].tiles[sel.index];
    return null;
  }

  function listOf(sel) {
    const H = state.hand;
    return sel.zone === "closed" ? H.closed : sel.zone === "dora" ? H.dora : sel.zone === "ura" ? H.ura
      : sel.zone === "meld" ? H.melds[sel.meld].tiles : null;
  }

  function setTileAt(sel, code) {
    if (sel.zone === "win") { state.hand.win = code; return; }
    const list = listOf(sel);
    if (sel.index === null) list.push(code);
    else list[sel.index] = code;
    dropTileWarning(sel);
  }

  function dropTileWarning(sel) {
    delete state.tileWarnings[selKey(sel)];
  }

  function removeAt(sel) {
    state.detectionPlace = {};
    if (sel.zone === "win") state.hand.win = null;
    else if (sel.index !== null) listOf(sel).splice(sel.index, 1);
    state.tileWarnings = {};
  }

  function onPalette(code) {
    const sel = state.selected;
    if (!sel) return;
    const H = state.hand;
    setTileAt(sel, code);
    if (sel.index === null) {
      // Entering a hand by taps: once the concealed part is full, the next tile wins.
      const full = 13 - 3 * H.melds.length;
      if (sel.zone === "closed" && H.closed.length >= full && !H.win) state.selected = {zone: "win", index: 0};
      if (sel.zone === "meld" && H.melds[sel.meld].tiles.length >= MELD_SIZE[H.melds[sel.meld].kind]) state.selected = null;
      if (sel.zone === "dora" && H.dora.length >= 5) state.selected = null;
      if (sel.zone === "ura" && H.ura.length >= 5) state.selected = null;
    } else {
      state.selected = null;
    }
    if (sel.index === null) state.detectionPlace = {};
    if (sel.zone === "closed" && sel.index === null) {
      H.closed.sort((a, b) => T.sortKey(a) - T.sortKey(b));
      for (const k of Object.keys(state.tileWarnings)) if (k.startsWith("closed:")) delete state.tileWarnings[k];
    }
    renderHand();
    scheduleScore();
  }

  function renderPalette() {
    const pal = $("#palette");
    const sel = state.selected;
    pal.hidden = !sel;
    if (!sel) return;
    const cur = tileAt(sel);
    $("#palette-title").textContent = sel.index === null || !cur ? t("palette_add") : t("palette_replace", {tile: cur});
    $("#palette-remove").hidden = sel.index === null || !cur;
    $("#palette-make-win").hidden = !(sel.zone === "closed" && cur);
    $("#palette-to-meld").hidden = !(sel.zone === "closed" && cur);
    $("#palette-to-closed").hidden = !(sel.zone === "meld" && cur && cur !== "x");
    drawCrop(sel);
    const tiles = T.all();
    if (sel.zone === "meld") tiles.push("x");
    $("#palette-tiles").replaceChildren(...tiles.map((c) => h("button", {type: "button", class: "tile pal" + (c === cur ? " current" : ""),
      "data-tile": c, "aria-label": T.name(c), title: c, onclick: () => onPalette(c)}, T.svg(c))));
  }

  // Next to the palette, the photo's own crop of the selected tile (what the camera saw),
  // as long as the hand still has the layout the grouping step gave it.
  function drawCrop(sel) {
    const canvas = $("#palette-crop");
    const img = $("#photo");
    const rec = state.recog;
    const place = Object.entries(state.detectionPlace || {}).find(([, w]) => sameSel(w, sel));
    canvas.hidden = true;
    if (!place || !rec || !img.complete || !img.naturalWidth) return;
    const d = (rec.detections || [])[Number(place[0])];
    if (!d) return;
    const scale = img.naturalWidth / (rec.width || img.naturalWidth);
    const [x1, y1, x2, y2] = d.box.map((v) => v * scale);
    const pad = 0.08 * Math.max(x2 - x1, y2 - y1);
    const sx = Math.max(0, x1 - pad), sy = Math.max(0, y1 - pad);
    const sw = Math.min(img.naturalWidth, x2 + pad) - sx, sh = Math.min(img.naturalHeight, y2 + pad) - sy;
    if (sw <= 0 || sh <= 0) return;
    const height = 88;
    canvas.height = height;
    canvas.width = Math.max(1, Math.round(height * sw / sh));
    canvas.getContext("2d").drawImage(img, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
    canvas.hidden = false;
  }

  // Regrouping without retyping: a concealed tile becomes the winning tile (the old one
  // goes back into the hand) or joins the last unfinished meld (or a new one); a meld's
  // tile goes back into the concealed part.
  function sortClosed() {
    state.detectionPlace = {};
    state.hand.closed.sort((a, b) => T.sortKey(a) - T.sortKey(b));
    for (const k of Object.keys(state.tileWarnings)) if (k.startsWith("closed:")) delete state.tileWarnings[k];
  }

  function regroup(action) {
    const sel = state.selected, H = state.hand;
    if (!sel || sel.index === null) return;
    if (action === "win" && sel.zone === "closed") {
      const [tile] = H.closed.splice(sel.index, 1);
      if (H.win) H.closed.push(H.win);
      H.win = tile;
      delete state.tileWarnings["win:0"];
    } else if (action === "meld" && sel.zone === "closed") {
      const [tile] = H.closed.splice(sel.index, 1);
      const open = H.melds.find((m) => m.tiles.length < MELD_SIZE[m.kind]);
      if (open) open.tiles.push(tile);
      else H.melds.push({kind: "pon", tiles: [tile], from: "left"});
    } else if (action === "closed" && sel.zone === "meld") {
      const meld = H.melds[sel.meld];
      const [tile] = meld.tiles.splice(sel.index, 1);
      H.closed.push(tile);
      if (!meld.tiles.length) H.melds.splice(sel.meld, 1);
      for (const k of Object.keys(state.tileWarnings)) if (k.startsWith("meld:")) delete state.tileWarnings[k];
    } else {
      return;
    }
    sortClosed();
    state.selected = null;
    renderHand();
    scheduleScore();
  }

  // ---------------------------------------------------------------- situation
  function setRadio(name, value) {
    const r = document.querySelector(`input[name="${name}"][value="${value}"]`);
    if (r) r.checked = true;
  }

  function situation() {
    const form = $("#situation");
    const fd = new FormData(form);
    return {
      ruleset: fd.get("ruleset"),
      win: fd.get("win"),
      discarder: fd.get("discarder"),
      seat_wind: fd.get("seat_wind"),
      round_wind: fd.get("round_wind"),
      flags: fd.getAll("flags"),
      honba: Math.max(0, parseInt(fd.get("honba"), 10) || 0),
      riichi_sticks: Math.max(0, parseInt(fd.get("riichi_sticks"), 10) || 0),
      pao: fd.get("pao") || null,
    };
  }

  function renderDiscarders() {
    const sel = $("#discarder");
    const seat = $("#seat-wind").value;
    const prev = sel.value;
    const others = SEATS.filter((s) => s !== seat);
    sel.replaceChildren(...others.map((s) => h("option", {value: s, selected: s === prev, text: t("wind_" + s)})));
    if (!others.includes(prev)) sel.value = others[others.length - 1];
    $("#discarder-field").hidden = situation().win !== "ron";
  }

  function onSituation(ev) {
    if (ev && ev.target && ev.target.value === "double_riichi" && ev.target.checked) {
      document.querySelector('input[value="riichi"]').checked = false;
    } else if (ev && ev.target && ev.target.value === "riichi" && ev.target.checked) {
      document.querySelector('input[value="double_riichi"]').checked = false;
    }
    renderDiscarders();
    scheduleScore();
  }

  // ---------------------------------------------------------------- scoring
  function scoreRequest() {
    const H = state.hand, S = situation();
    const req = {
      ...scoreSituation(), closed: T.pack(H.closed), win_tile: H.win,
      melds: H.melds.map((m) => m.kind === "ankan" ? {kind: m.kind, tiles: T.pack(m.tiles)} : {kind: m.kind, tiles: T.pack(m.tiles), from: m.from}),
      dora_indicators: H.dora.slice(), ura_indicators: H.ura.slice(),
    };
    if (S.pao) req.pao = S.pao;
    return req;
  }

  let timer = null;
  function scheduleScore() {
    clearTimeout(timer);
    timer = setTimeout(computeScore, 120);
  }

  async function computeScore() {
    const body = $("#score-body");
    const seq = ++state.seq;
    // A new situation: the photo is read again under it before the hand is scored, so that
    // the score never shows a reading made under other rules.
    if (needsReread()) {
      body.classList.add("busy");
      await reread();
      if (seq !== state.seq) return; // a newer request is on its way
    }
    if (!state.hand.win) {
      body.replaceChildren(h("p", {class: "muted", text: t("need_win_tile")}));
      const mini = $("#score-mini");  // no score to show: not the last one, nor its error
      mini.classList.remove("bad");
      mini.textContent = t("need_win_tile");
      $("#score-status").textContent = mini.textContent;
      state.score = null;
      app.dataset.scoreSeq = String(seq);
      return;
    }
    const req = scoreRequest();
    body.classList.add("busy");
    let resp, data;
    try {
      resp = await fetch("/api/v1/score", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(req)});
      data = await resp.json();
    } catch (e) {
      data = {error: {code: "network", message: t("network_error")}};
    }
    if (seq !== state.seq) return; // a newer request is on its way
    body.classList.remove("busy");
    state.score = data.error ? null : data;
    renderScore(data, req);
    app.dataset.scoreSeq = String(seq);
    if (!data.error) maybePublish(req, data);
    // Other features (the table ledger's "record this win") listen for the latest score.
    document.dispatchEvent(new CustomEvent("agari:scored", {detail: {request: req, score: data.error ? null : data}}));
  }

  // The score request's fields that are not the hand: what /group and /recognize take as context.
  function situationContext(req) {
    const context = {};
    for (const k of ["ruleset", "win", "round_wind", "seat_wind", "discarder", "flags", "honba", "riichi_sticks"]) {
      if (req[k] !== undefined && req[k] !== null) context[k] = req[k];
    }
    return context;
  }

  // The situation's fields as a score request carries them (discarder only for a ron;
  // pao, which only the score request takes, is left to scoreRequest).
  function scoreSituation() {
    const S = situation();
    const req = {ruleset: S.ruleset, win: S.win, round_wind: S.round_wind, seat_wind: S.seat_wind,
      flags: S.flags, honba: S.honba, riichi_sticks: S.riichi_sticks};
    if (S.win === "ron") req.discarder = S.discarder;
    return req;
  }

  // The situation as the grouping step takes it (`/recognize` and `/group`), and as a key
  // that tells whether the photo was read under it.
  function currentContext() {
    return situationContext(scoreSituation());
  }

  function currentContextKey() {
    return JSON.stringify(currentContext());
  }

  function needsReread() {
    const rec = state.recog;
    return !!(rec && (rec.detections || []).length && state.readContext !== currentContextKey());
  }

  // Read the photo again under the current situation: the grouping step alone (`/group`),
  // from the detections kept here, so the photo is not sent again. Its hand replaces the
  // places of the hand the user left as read; what the user changed stays.
  async function reread() {
    const rec = state.recog;
    const context = currentContext();
    const key = JSON.stringify(context);
    const keep = ["tile", "box", "confidence", "sideways", "candidates"];
    const detections = (rec.detections || []).map((d) => Object.fromEntries(keep.filter((k) => d[k] !== undefined).map((k) => [k, d[k]])));
    let data;
    try {
      const resp = await fetch("/api/v1/group", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({width: rec.width, height: rec.height, detections: detections, context: context})});
      data = await resp.json();
      if (!resp.ok) throw new Error((data.error && data.error.code) || String(resp.status));
    } catch (e) {
      // The hand and the candidates stay as read before; say so rather than show them as new.
      if (state.recog === rec && key === currentContextKey()) showReread({kind: "failed", text: t("reread_failed")});
      return;
    }
    // Another photo, or the situation changed again while this one was on its way.
    if (state.recog !== rec || key !== currentContextKey()) return;
    applyReread({...rec, ...data}, key);
  }

  function applyReread(fresh, key) {
    const before = copyHand(state.hand);
    const reading = readingOf(fresh, state.baseRef);
    state.recog = fresh;
    state.readContext = key;
    if (!state.base || !reading) {
      // The hand came from no reading of this photo that still exists: it stays as it is.
      state.base = null;
      renderCandidates(fresh);
      renderGroupings(fresh);
      return;
    }
    const merged = mergeReading(state.base, state.hand, reading, state.pinned);
    state.hand = merged.hand;
    state.base = copyHand(reading);
    state.pinned = merged.pinned;
    if (merged.kept.length) state.keptKeys = merged.keptKeys;
    if (!merged.pinned.size) {
      // Nothing of the user's: the hand is the new reading, warnings placed on it again.
      state.tileWarnings = {};
      renderWarnings(fresh);
    }
    const changes = describeChanges(before, state.hand);
    if (changes.length) state.selected = null;
    renderCandidates(fresh);
    renderGroupings(fresh);
    renderHand();
    if (merged.kept.length) {
      showReread({kind: "kept", text: t("reread_kept", {changes: merged.kept.join(", ")}), button: true});
    } else if (changes.length) {
      showReread({kind: merged.pinned.size ? "merged" : "updated",
        text: t(merged.pinned.size ? "reread_merged" : "reread_updated", {changes: changes.join(", ")})});
    }
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // Three-way merge of a new reading of the photo into the hand on screen, place by place
  // (each tile where the parts have the same length, else the whole part): a place the
  // user left as the old reading had it takes the new reading; a place the user changed
  // (or changed before: `pinned`) keeps the user's. `kept`: the user's places whose reading
  // changed to something else, told to the user with the new reading.
  function mergeReading(base, mine, fresh, pinned) {
    const nowPinned = new Set();
    const kept = [], keptKeys = [];
    const pick = (key, b, m, f, show, label) => {
      if (!pinned.has(key) && same(m, b)) return copyHand(f === undefined ? null : f);
      nowPinned.add(key);
      if (!same(b, f) && !same(m, f)) { kept.push(label + ": " + show(b) + " → " + show(f)); keptKeys.push(key); }
      return m;
    };
    const list = (key, b, m, f, label) => (b.length === m.length && m.length === f.length && !pinned.has(key)
      ? m.map((_, i) => pick(key + ":" + i, b[i], m[i], f[i], String, label))
      : pick(key, b, m, f, T.pack, label));
    const showMeld = (x) => t("meld_" + x.kind) + " " + T.pack(x.tiles);
    const melds = (base.melds.length === mine.melds.length && mine.melds.length === fresh.melds.length && !pinned.has("melds"))
      ? mine.melds.map((m, i) => {
        const b = base.melds[i], f = fresh.melds[i], k = "meld:" + i, label = t("meld") + " " + (i + 1);
        const kind = pick(k + ":kind", b.kind, m.kind, f.kind, (x) => t("meld_" + x), label);
        const from = pick(k + ":from", b.from, m.from, f.from, (x) => t("from_" + x), label);
        return {kind: kind, tiles: list(k, b.tiles, m.tiles, f.tiles, label), from: from};
      })
      : pick("melds", base.melds, mine.melds, fresh.melds, (x) => x.map(showMeld).join(" ") || "—", t("meld"));
    const hand = {
      closed: list("closed", base.closed, mine.closed, fresh.closed, t("concealed")),
      win: pick("win", base.win, mine.win, fresh.win, (x) => x || "—", t("win_tile")),
      melds: melds,
      dora: list("dora", base.dora, mine.dora, fresh.dora, t("dora_indicators")),
      ura: list("ura", base.ura, mine.ura, fresh.ura, t("ura_indicators")),
    };
    return {hand: hand, pinned: nowPinned, kept: kept, keptKeys: keptKeys};
  }

  // The value at a merge place ("closed", "closed:3", "win", "melds", "meld:0", "meld:0:2",
  // "meld:0:kind", ...) of a hand, and putting one there; undefined when the place is gone.
  function placeOf(H, key) {
    const [part, a, b] = key.split(":");
    if (part === "meld") {
      const m = H.melds[Number(a)];
      if (!m || b === undefined) return m && {obj: m, field: "tiles"};
      if (b === "kind" || b === "from") return {obj: m, field: b};
      return Number(b) < m.tiles.length ? {obj: m.tiles, field: Number(b)} : undefined;
    }
    if (a === undefined) return {obj: H, field: part};
    return Number(a) < H[part].length ? {obj: H[part], field: Number(a)} : undefined;
  }

  // What changed between two hands, part by part, for a person ("Closed kan 0555m → 5555m").
  function describeChanges(a, b) {
    const out = [];
    const part = (label, x, y) => { if (x !== y) out.push(label + " " + x + " → " + y); };
    part(t("concealed"), T.pack(a.closed), T.pack(b.closed));
    part(t("win_tile"), a.win || "—", b.win || "—");
    const n = Math.max(a.melds.length, b.melds.length);
    for (let i = 0; i < n; i++) {
      const x = a.melds[i], y = b.melds[i];
      const show = (m) => (m ? T.pack(m.tiles) : "—");
      part(t("meld_" + ((y || x).kind)), x && y && x.kind !== y.kind ? t("meld_" + x.kind) + " " + show(x) : show(x), show(y));
    }
    part(t("dora_indicators"), T.pack(a.dora), T.pack(b.dora));
    part(t("ura_indicators"), T.pack(a.ura), T.pack(b.ura));
    return out;
  }

  // The note above the hand after a new reading: what changed, what of the user's stayed
  // (with a button to take the photo's reading instead), or that the reading failed.
  function showReread(note) {
    const box = $("#reread-note");
    if (!box) return;
    box.hidden = !note;
    if (!note) { box.replaceChildren(); delete box.dataset.kind; return; }
    box.dataset.kind = note.kind;
    fill(box, h("span", {text: "↻ " + note.text}),
      note.button ? h("button", {type: "button", class: "btn small", id: "reread-use-photo", onclick: usePhotoReading}, t("reread_use_photo")) : null);
  }

  // The user asks for the photo's reading under the current situation in place of their
  // own, at the places the note named; their other corrections stay.
  function usePhotoReading() {
    if (!state.base) return;
    for (const key of state.keptKeys || []) {
      const to = placeOf(state.hand, key), from = placeOf(state.base, key);
      if (!to || !from) continue;
      to.obj[to.field] = copyHand(from.obj[from.field]);
      state.pinned.delete(key);
    }
    state.keptKeys = [];
    showReread(null);
    state.selected = null;
    if (!state.pinned.size && same(state.hand, state.base)) {
      state.tileWarnings = {};
      renderWarnings(state.recog);
    }
    renderHand();
    scheduleScore();
  }

  // What the winner says at the table; `withHead` adds the limit or han and fu in front.
  function phrase(score, req, withHead = true) {
    const lim = score.limit ? (I18N.limits && I18N.limits[score.limit]) || score.limit : null;
    const head = !withHead ? "" : lim ? lim + " — " : (score.han ? t("han_fu", {han: score.han, fu: score.fu}) + " — " : "");
    if (req.win === "ron") return head + t("phrase_ron", {points: shownPoints(score)});
    // A Zung Jung self-draw: each of the others pays the hand value.
    if (score.scoring === "zung_jung") return head + t("phrase_tsumo_dealer", {all: shownPoints(score)});
    const pays = SEATS.filter((s) => s !== req.seat_wind).map((s) => -(score.deltas || {})[s] || 0);
    const honbaEach = 100 * (req.honba || 0);
    if (req.seat_wind === "E") return head + t("phrase_tsumo_dealer", {all: Math.max(...pays) - honbaEach});
    const dealer = -(score.deltas || {}).E - honbaEach;
    const child = Math.min(...pays) - honbaEach;
    return head + t("phrase_tsumo", {child: child, dealer: dealer});
  }

  // Riichi hands are told in han and fu; Zung Jung hands (wsom, zung-jung) have neither:
  // their value is the sum of the patterns' points.
  function valueLine(data) {
    if (data.scoring === "zung_jung") return "Zung Jung";
    return data.yakuman ? t("yakuman_n", {n: data.yakuman}) : t("han_fu", {han: data.han, fu: data.fu});
  }

  // The big figure: a riichi hand's points; a Zung Jung hand's value V, the figure its
  // players announce ("points" there is what is paid, as CONTRACT.md defines it).
  function shownPoints(data) {
    return data.scoring === "zung_jung" && data.value !== undefined ? data.value : data.points;
  }

  function yakuValue(data, y) {
    if (y.value !== undefined) return y.value + " " + t("points_short");
    return data.yakuman ? "" : t("han_n", {n: y.han});
  }

  // The phrase to announce, in the page language's own quotation marks.
  function quoted(text) {
    const lang = document.documentElement.lang || "en";
    const [open, close] = {ja: ["「", "」"], zh: ["「", "」"], fr: ["« ", " »"], ru: ["«", "»"], ko: ["“", "”"]}[lang] || ["“", "”"];
    return open + text + close;
  }

  function renderMini(data) {
    const mini = $("#score-mini");
    mini.hidden = false;
    mini.classList.toggle("bad", !!data.error);
    mini.textContent = data.error ? "⚠ " + errorText(data.error)
      : shownPoints(data) + " " + t("points_short") + " · " + valueLine(data);
    $("#score-status").textContent = mini.textContent;
  }

  function renderScore(data, req) {
    const body = $("#score-body");
    renderMini(data);
    if (data.error) {
      fill(body, h("p", {class: "score-error", "data-code": data.error.code, text: "⚠ " + errorText(data.error)}),
        data.error.message && errorText(data.error) !== data.error.message ? h("p", {class: "small muted", text: data.error.message}) : null);
      return;
    }
    const lim = data.limit ? (I18N.limits && I18N.limits[data.limit]) || data.limit : null;
    const yaku = h("ul", {class: "yaku"}, ...(data.yaku || []).map((y) =>
      h("li", {"data-yaku": y.id}, h("span", {text: y.name && data.scoring === "zung_jung" ? y.name : yakuName(y.id)}), h("span", {class: "num", text: yakuValue(data, y)}))));
    const fu = h("ul", {class: "fu"}, ...(data.fu_details || []).map((f) =>
      h("li", null, h("span", {text: fuName(f.reason) + (f.tiles ? " " + f.tiles : "")}), h("span", {class: "num", text: f.fu + " " + t("fu")}))));
    const pay = h("table", {class: "payments"}, h("tbody", null, ...SEATS.map((s) => {
      const d = (data.deltas || {})[s] || 0;
      return h("tr", {class: d > 0 ? "gain" : d < 0 ? "loss" : ""}, h("th", {text: t("wind_" + s) + (s === req.seat_wind ? " (" + t("winner") + ")" : "")}),
        h("td", {class: "num", text: (d > 0 ? "+" : "") + d}));
    })));
    // Other readings of the same tiles (the engine scored the best one): what each is worth
    // and why it was not taken.
    const alts = (data.alternatives || []).map((a) => typeof a !== "object" ? h("li", {text: String(a)}) : h("li", {class: "alt"},
      h("span", {text: [a.han !== undefined && a.han !== null ? t("han_fu", {han: a.han, fu: a.fu}) : null, a.points !== undefined ? (a.value !== undefined ? a.value : a.points) + " " + t("points_short") : null,
        a.yaku ? a.yaku.map((y) => data.scoring === "zung_jung" && y.name ? y.name : yakuName(y.id || y)).join(", ") : null].filter(Boolean).join(" · ")}),
      a.reading || a.why ? h("span", {class: "small muted", text: [a.reading, a.why].filter(Boolean).join(" — ")}) : null));
    const warns = (data.warnings || []).map((w) => h("li", {class: "warning", text: "⚠ " + warningText(w)}));
    fill(body,
      h("p", {class: "points", id: "points", "data-points": data.points, text: String(shownPoints(data))},
        h("span", {class: "unit", text: " " + t("points_short")})),
      h("p", {class: "headline", text: [valueLine(data), lim].filter(Boolean).join(" · ")}),
      h("p", {class: "phrase", id: "phrase", text: quoted(phrase(data, req))}),
      data.announce && data.announce !== String(shownPoints(data)) ? h("p", {class: "small muted", id: "announce", text: data.announce}) : null,
      data.reading ? h("p", {class: "small muted", id: "reading", text: data.reading}) : null,
      h("h3", {text: t("yaku")}), yaku,
      data.fu_details && data.fu_details.length ? h("h3", {text: t("fu_items")}) : null, data.fu_details && data.fu_details.length ? fu : null,
      h("h3", {text: t("payments")}), pay,
      alts.length ? h("h3", {text: t("alternatives")}) : null, alts.length ? h("ul", {class: "alts"}, ...alts) : null,
      warns.length ? h("ul", {class: "warnings"}, ...warns) : null);
  }

  // ---------------------------------------------------------------- overlay
  function renderOverlay() {
    const info = $("#overlay-info");
    info.hidden = !state.overlay;
    if (!state.overlay) return;
    // The overlay's labels follow this page's language (OBS sends no useful Accept-Language).
    const url = state.overlay.url + "?lang=" + encodeURIComponent(document.documentElement.lang || "en");
    const link = $("#overlay-link");
    link.href = url;
    link.textContent = url;
  }

  async function createOverlay() {
    const resp = await fetch("/api/v1/overlays", {method: "POST"});
    const data = await resp.json();
    if (!resp.ok) { $("#overlay-status").textContent = errorText(data.error); return; }
    state.overlay = data;
    sessionStorage.setItem("agari.overlay", JSON.stringify(data));
    renderOverlay();
    if (state.score) publish(scoreRequest(), state.score);
  }

  function maybePublish(req, score) {
    if (state.overlay && $("#overlay-auto").checked) publish(req, score);
  }

  async function publish(req, score) {
    const o = state.overlay;
    if (!o || !score) return;
    const resp = await fetch(`/api/v1/overlays/${encodeURIComponent(o.id)}/publish`, {
      method: "POST", headers: {"Content-Type": "application/json", "Authorization": "Bearer " + o.token},
      body: JSON.stringify({hand: req, score: score, title: phrase(score, req, false)}),
    });
    const status = $("#overlay-status");
    if (resp.ok) { status.textContent = t("overlay_sent"); status.dataset.version = (await resp.json()).version; }
    else { status.textContent = errorText((await resp.json()).error); }
  }

  // ---------------------------------------------------------------- notation
  function onNotation(ev) {
    ev.preventDefault();
    const parts = $("#notation").value.trim().split(/\s+/);
    try {
      const closed = T.parse(parts[0] || "");
      let win = parts[1] ? T.parse(parts[1])[0] : closed.pop();
      state.hand.closed = closed;
      state.hand.win = win || null;
      state.detectionPlace = {};
      state.tileWarnings = {};
      state.selected = null;
      renderHand();
      scheduleScore();
    } catch (e) {
      $("#score-body").replaceChildren(h("p", {class: "score-error", text: "⚠ " + t("bad_notation") + ": " + e.message}));
    }
  }

  // ---------------------------------------------------------------- language switch
  // A language link reloads the page (its labels are the server's). The hand, the photo, its
  // reading and the situation on screen are kept for the reload in sessionStorage and put
  // back, so that switching language never throws away the user's work.
  const RESUME = "agari.resume";

  function photoDataUrl() {
    const img = $("#photo");
    if ($("#photo-panel").hidden || !img.naturalWidth) return null;
    const scale = Math.min(1, 1600 / Math.max(img.naturalWidth, img.naturalHeight));
    const c = document.createElement("canvas");
    c.width = Math.round(img.naturalWidth * scale);
    c.height = Math.round(img.naturalHeight * scale);
    c.getContext("2d").drawImage(img, 0, 0, c.width, c.height);
    try { return c.toDataURL("image/jpeg", 0.85); } catch (e) { return null; }
  }

  function situationFields() {
    return [...$("#situation").elements].filter((e) => e.name).map((e) =>
      [e.name, e.type === "checkbox" || e.type === "radio" ? (e.checked ? e.value : null) : e.value, e.type]);
  }

  function setSituationFields(fields) {
    const form = $("#situation");
    const checked = new Set(fields.filter(([, v, type]) => (type === "checkbox" || type === "radio") && v !== null).map(([n, v]) => n + "=" + v));
    for (const e of form.elements) {
      if (!e.name) continue;
      if (e.type === "checkbox" || e.type === "radio") e.checked = checked.has(e.name + "=" + e.value);
    }
    for (const [name, value, type] of fields) {
      if (type === "checkbox" || type === "radio") continue;
      const e = form.elements.namedItem(name);
      if (e && "value" in e) e.value = value;
    }
  }

  function saveForLanguageSwitch(ev) {
    if (app.dataset.view !== "result") return;
    const snap = {hand: state.hand, recog: state.recog, readContext: state.readContext, base: state.base,
      baseRef: state.baseRef, photo: photoDataUrl(), fields: situationFields()};
    try {
      sessionStorage.setItem(RESUME, JSON.stringify(snap));
    } catch (e) {  // over the storage quota: keep all but the photo
      snap.photo = null;
      try { sessionStorage.setItem(RESUME, JSON.stringify(snap)); } catch (e2) { return; }
    }
    ev.preventDefault();
    const url = new URL(ev.currentTarget.href, location.href);
    url.hash = "result";
    location.href = url.toString();
  }

  function resumeAfterLanguageSwitch() {
    let snap = null;
    try { snap = JSON.parse(sessionStorage.getItem(RESUME) || "null"); } catch (e) { snap = null; }
    sessionStorage.removeItem(RESUME);
    if (!snap || !snap.hand || location.hash !== "#result") return false;
    setSituationFields(snap.fields || []);
    renderDiscarders();
    setSituationFields(snap.fields || []);  // the discarder's options follow the seat wind
    if (snap.recog) loadRecognition(snap.recog, snap.photo, snap.readContext);
    setSituationFields(snap.fields || []);  // the reading's own win / ron choice gives way
    state.hand = snap.hand;
    state.base = snap.base;
    state.baseRef = snap.baseRef;
    if (!same(snap.hand, snap.base)) { state.detectionPlace = {}; state.tileWarnings = {}; }
    state.selected = null;
    show("result");
    history.replaceState({view: "result"}, "", location.href);
    renderDiscarders();
    renderHand();
    computeScore();
    return true;
  }

  // ---------------------------------------------------------------- wiring
  function init() {
    $("#camera-input").addEventListener("change", onFile);
    $("#upload-input").addEventListener("change", onFile);
    document.querySelectorAll(".example").forEach((b) => b.addEventListener("click", onExample));
    $("#situation").addEventListener("change", onSituation);
    $("#situation").addEventListener("input", (ev) => { if (ev.target.type === "number") scheduleScore(); });
    $("#add-meld").addEventListener("click", () => {
      state.hand.melds.push({kind: "pon", tiles: [], from: "left"});
      state.selected = {zone: "meld", meld: state.hand.melds.length - 1, index: null};
      renderHand();
    });
    $("#palette-remove").addEventListener("click", () => { if (state.selected) { removeAt(state.selected); state.selected = null; renderHand(); scheduleScore(); } });
    $("#photo-zoom").addEventListener("click", (ev) => {
      const zoomed = $("#photo-wrap").classList.toggle("zoomed");
      ev.currentTarget.setAttribute("aria-pressed", String(zoomed));
    });
    $("#palette-make-win").addEventListener("click", () => regroup("win"));
    $("#palette-to-meld").addEventListener("click", () => regroup("meld"));
    $("#palette-to-closed").addEventListener("click", () => regroup("closed"));
    $("#palette-done").addEventListener("click", () => { state.selected = null; renderHand(); });
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || !state.selected) return;
      const sel = state.selected;
      state.selected = null;
      renderHand();
      const btn = selButton(sel);
      if (btn) btn.focus();
    });
    $("#notation-form").addEventListener("submit", onNotation);
    $("#overlay-create").addEventListener("click", createOverlay);
    $("#overlay-publish").addEventListener("click", () => publish(scoreRequest(), state.score));
    window.addEventListener("popstate", () => show(location.hash === "#result" || app.dataset.view === "result" && location.pathname === "/hand" ? "result" : "home"));
    const hero = $("#hero-tiles");
    if (hero) hero.replaceChildren(...T.parse(hero.dataset.hand).map((c) => T.svg(c)));
    renderDiscarders();
    renderOverlay();
    document.querySelectorAll(".langs a").forEach((a) => a.addEventListener("click", saveForLanguageSwitch));
    if (resumeAfterLanguageSwitch()) {
      // the hand and its photo are back, in the new language
    } else if (app.dataset.view === "result") {
      state.selected = {zone: "closed", index: null};
      renderHand();
      computeScore();
    }
    app.dataset.ready = "1";
  }

  init();
})();
