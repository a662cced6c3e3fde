// Keep a new table's token in this browser (localStorage, never a cookie or a URL).
"use strict";
(() => {
  const el = document.getElementById("ledger-new-token");
  if (el) {
    try {
      localStorage.setItem("agari.table." + el.dataset.table, el.dataset.token);
    } catch (e) {
      // Private mode: the user copies the token by hand.
    }
  }
})();
