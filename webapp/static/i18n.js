// The page's language, for every script of every page: base.html puts the language's table
// (webapp/i18n/<lang>.json merged over English) in #i18n; t(KEY, {n: 3}) looks a label
// up and fills its {placeholders} (the key itself when nobody wrote it).
"use strict";
window.AgariI18n = (() => {
  let table = {};
  try { table = JSON.parse(document.getElementById("i18n").textContent); } catch (e) { /* English keys */ }
  function t(key, vars) {
    let s = (table.ui && table.ui[key]) || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  // The page's own words for an error code (a ledger page's own first), or null.
  function errorName(code) {
    return (table.ui && table.ui["ledger_err_" + code]) || (table.errors && table.errors[code]) || null;
  }
  return {table, t, errorName};
})();
