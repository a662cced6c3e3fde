/* Tile pictures drawn as SVG (our own drawings), and MPSZ notation helpers.
 * Used by the result page and the overlay. No dependencies. */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  const HONORS = ["", "東", "南", "西", "北", "", "發", "中"];
  const BLUE = "#1f5fa8", GREEN = "#2e7d32", RED = "#c62828", INK = "#1b1b1b";

  // Pip centres in a 60 x 80 tile, by count (pins and bamboo share them).
  const PIPS = {
    1: [[30, 40]],
    2: [[30, 22], [30, 58]],
    3: [[15, 17], [30, 40], [45, 63]],
    4: [[18, 22], [42, 22], [18, 58], [42, 58]],
    5: [[17, 19], [43, 19], [30, 40], [17, 61], [43, 61]],
    6: [[18, 16], [42, 16], [18, 40], [42, 40], [18, 64], [42, 64]],
    7: [[13, 13], [30, 19], [47, 25], [18, 46], [42, 46], [18, 66], [42, 66]],
    8: [[18, 12], [42, 12], [18, 31], [42, 31], [18, 50], [42, 50], [18, 68], [42, 68]],
    9: [[14, 16], [30, 16], [46, 16], [14, 40], [30, 40], [46, 40], [14, 64], [30, 64], [46, 64]],
  };
  const PIN_R = {1: 17, 2: 11, 3: 9, 4: 10, 5: 8.5, 6: 8, 7: 7, 8: 6.5, 9: 7};

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, size, fill, str, weight) {
    const t = el("text", {x: x, y: y, "font-size": size, fill: fill, "text-anchor": "middle",
      "font-weight": weight || 700, "font-family": "'Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho',serif"}, parent);
    t.textContent = str;
    return t;
  }

  function pinColour(n, i, red) {
    if (red) return RED;
    if (n === 1) return RED;
    if (n === 5 && i === 2) return RED;
    if (n === 7 && i < 3) return GREEN;
    if (n === 3 && i === 1) return RED;
    return [BLUE, GREEN][(i + (n % 2)) % 2];
  }

  function drawFace(g, code) {
    if (code === "x") {
      el("rect", {x: 2, y: 2, width: 56, height: 76, rx: 7, fill: "#2f7d5d", stroke: "#1d4d39", "stroke-width": 2}, g);
      el("rect", {x: 9, y: 9, width: 42, height: 62, rx: 4, fill: "none", stroke: "#5fb08e", "stroke-width": 1.5}, g);
      return;
    }
    el("rect", {x: 2, y: 2, width: 56, height: 76, rx: 7, fill: "#fbf8ef", stroke: "#a79f86", "stroke-width": 2}, g);
    el("rect", {x: 2, y: 70, width: 56, height: 8, rx: 4, fill: "#e6dfc8"}, g);
    const digit = Number(code[0]);
    const suit = code[1];
    const red = digit === 0;
    const n = red ? 5 : digit;
    if (suit === "m") {
      text(g, 30, 36, 28, red ? RED : INK, NUMERALS[n]);
      text(g, 30, 66, 26, RED, "萬");
    } else if (suit === "p") {
      PIPS[n].forEach(([x, y], i) => {
        const r = PIN_R[n];
        const c = pinColour(n, i, red);
        el("circle", {cx: x, cy: y, r: r, fill: "none", stroke: c, "stroke-width": r > 10 ? 4 : 2.5}, g);
        el("circle", {cx: x, cy: y, r: r * 0.38, fill: c}, g);
      });
    } else if (suit === "s") {
      const h = n === 1 ? 40 : n <= 2 ? 22 : n <= 6 ? 18 : 14;
      PIPS[n].forEach(([x, y], i) => {
        const c = red || (n === 1) || (n === 5 && i === 2) || (n === 9 && i % 3 === 1) ? RED : GREEN;
        const w = n === 1 ? 10 : 6.5;
        el("rect", {x: x - w / 2, y: y - h / 2, width: w, height: h, rx: w / 2, fill: c}, g);
        el("line", {x1: x - w / 2, x2: x + w / 2, y1: y, y2: y, stroke: "#fbf8ef", "stroke-width": 1.2}, g);
      });
    } else if (suit === "z") {
      if (n === 5) {
        el("rect", {x: 13, y: 14, width: 34, height: 50, rx: 3, fill: "none", stroke: BLUE, "stroke-width": 3}, g);
      } else {
        const colour = n === 6 ? GREEN : n === 7 ? RED : INK;
        text(g, 30, 53, 36, colour, HONORS[n]);
      }
    }
    if (suit !== "z") {
      el("circle", {cx: 10, cy: 10, r: 6.5, fill: red ? RED : "#fbf8ef", opacity: 0.9}, g);
      const t = text(g, 10, 13.5, 10, red ? "#fff" : "#555", String(n), 700);
      t.setAttribute("font-family", "system-ui, sans-serif");
    }
  }

  /** An <svg> picture of the tile (`5m`, `0p`, `7z`, `x`); sideways when asked. */
  function svg(code, opts) {
    const sideways = opts && opts.sideways;
    const root = el("svg", {viewBox: sideways ? "0 0 80 60" : "0 0 60 80", class: "tile-svg" + (sideways ? " sideways" : ""), "aria-hidden": "true", focusable: "false"});
    const g = el("g", sideways ? {transform: "rotate(-90) translate(-60 0)"} : {}, root);
    drawFace(g, code);
    return root;
  }

  const TILE_RE = /^(?:[0-9][mps]|[1-7]z|x)$/;

  /** `"234m406p11z"` -> `["2m","3m","4m","4p","0p","6p","1z","1z"]`. Throws on bad input. */
  function parse(str) {
    const out = [];
    let digits = [];
    for (const ch of String(str).replace(/\s+/g, "")) {
      if (/[0-9]/.test(ch)) digits.push(ch);
      else if ("mpsz".includes(ch)) {
        if (!digits.length) throw new Error("no digits before " + ch);
        for (const d of digits) {
          const t = d + ch;
          if (!TILE_RE.test(t)) throw new Error("bad tile " + t);
          out.push(t);
        }
        digits = [];
      } else if (ch === "x") out.push("x");
      else throw new Error("unexpected " + ch);
    }
    if (digits.length) throw new Error("digits without a suit");
    return out;
  }

  /** `["2m","3m","4p"]` -> `"23m4p"` (the order is kept). */
  function pack(tiles) {
    let out = "", run = "", suit = "";
    for (const t of tiles) {
      if (t === "x") { out += run + suit + "x"; run = ""; suit = ""; continue; }
      const s = t.replace("'", "")[1];
      if (s !== suit && run) { out += run + suit; run = ""; }
      suit = s;
      run += t[0];
    }
    return out + (run ? run + suit : "");
  }

  const ORDER = "mpsz";
  function sortKey(t) {
    if (t === "x") return 999;
    const d = Number(t[0]);
    return ORDER.indexOf(t[1]) * 20 + (d === 0 ? 5.5 : d);
  }

  /** All 37 face-up tiles in palette order (red fives after the fives). */
  function all() {
    const out = [];
    for (const s of "mps") {
      for (let d = 1; d <= 9; d++) { out.push(d + s); if (d === 5) out.push("0" + s); }
    }
    for (let d = 1; d <= 7; d++) out.push(d + "z");
    return out;
  }

  // A tile's spoken name ("6 man", "red 5 sou", "East wind", "face-down tile") in the
  // page's language, for screen readers and voice control: a code like "0s" reads badly.
  const NAMES = {m: "man", p: "pin", s: "sou", honors: ["East wind", "South wind", "West wind",
    "North wind", "white dragon", "green dragon", "red dragon"], red: "red", back: "face-down tile"};
  function name(code) {
    const ui = (window.AgariI18n && window.AgariI18n.table.ui) || {};
    const word = (key, fallback) => ui[key] || fallback;
    const c = String(code).replace("'", "");
    if (c === "x") return word("tile_back", NAMES.back);
    const n = c[0], suit = c[1];
    if (suit === "z") return word("tile_honor_" + n, NAMES.honors[Number(n) - 1] || c);
    const suitName = word("tile_suit_" + suit, NAMES[suit] || suit);
    return n === "0" ? word("tile_red", NAMES.red) + " 5 " + suitName : n + " " + suitName;
  }

  window.AgariTiles = {svg: svg, parse: parse, pack: pack, all: all, sortKey: sortKey, name: name, isTile: (t) => TILE_RE.test(t)};
})();
