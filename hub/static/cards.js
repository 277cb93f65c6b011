// Tenace director console: printable table cards and guide cards. The guide (GET
// /api/evening/guide) is drawn at once: a card per table (each round's pairs and boards) and
// a card per pair (each round's table, direction and boards). "Draw the pairing codes" (POST
// /api/evening/cards, CSRF) adds each table's devices' QR codes to its card: the hub's own
// SVG (segno), parsed as SVG. Printing uses the page's @media print rules (evening.css).
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key) => window.tenaceI18n.t(key);
  let guide = null;
  let codes = {};          // table -> devices with their QR codes
  let csrf = "";

  function qr(device) {
    const svg = new DOMParser().parseFromString(device.svg, "image/svg+xml").documentElement;
    return el("div", { class: "qr", dataset: { account: device.account, uri: device.uri } },
      document.importNode(svg, true), el("div", { text: device.account }),
      el("div", { text: device.code }));
  }

  function render() {
    const tables = [], guides = [];
    for (const section of guide.sections) {
      for (const table of section.tables) {
        const rows = table.rounds.map((r) => el("tr", {},
          el("td", { text: String(r.round) }), el("td", { text: r.ns === null ? "–" : String(r.ns) }),
          el("td", { text: r.ew === null ? "–" : String(r.ew) }), el("td", { text: r.boards.join(", ") })));
        tables.push(el("div", { class: "card table-card", dataset: { table: table.table } },
          el("h3", { text: t("cards.table") + " " + table.table }),
          el("div", { class: "qr-row" }, (codes[table.table] || []).map(qr)),
          el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: t("cards.round") }),
            el("th", { text: "NS" }), el("th", { text: "EW" }), el("th", { text: t("cards.boards") }))),
          el("tbody", {}, rows))));
      }
      for (const pair of section.pairs) {
        const rows = pair.rounds.map((r, i) => el("tr", {},
          el("td", { text: String(i + 1) }),
          r === null ? el("td", { colspan: "3", text: t("cards.sitout") }) : [
            el("td", { text: r.table }), el("td", { text: r.direction }),
            el("td", { text: r.boards.join(", ") })]));
        guides.push(el("div", { class: "card guide-card", dataset: { section: section.section, pair: String(pair.pair) } },
          el("h3", { text: t("cards.guide") + " · " + section.section + " " + t("cards.pair") + " " + pair.pair }),
          el("p", { text: pair.names.join(" – ") }),
          el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: t("cards.round") }),
            el("th", { text: t("cards.goes") }), el("th", { text: t("cards.sits") }),
            el("th", { text: t("cards.boards") }))), el("tbody", {}, rows))));
      }
    }
    $("tables").replaceChildren(...tables);
    $("guides").replaceChildren(...guides);
  }

  function draw() {
    $("message").textContent = "…";
    fetch("/api/evening/cards", { method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: "{}" })
      .then((r) => r.json()).then((data) => {
        if (!data.ok) { $("message").textContent = data.error || "refused"; return; }
        codes = {};
        for (const table of data.tables) codes[table.table] = table.devices;
        $("message").textContent = data.tables.length + " ✓";
        render();
      });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("draw").addEventListener("click", draw);
    $("print").addEventListener("click", () => window.print());
    document.addEventListener("tenace-language", () => { if (guide) render(); });
    fetch("/api/session", { cache: "no-store" }).then((r) => r.json()).then((s) => {
      csrf = s.csrf || ""; window.tenaceCsrf = csrf;
    });
    fetch("/api/evening/guide", { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/cards");
      return r.json();
    }).then((g) => { guide = g; render(); });
  });
})();
