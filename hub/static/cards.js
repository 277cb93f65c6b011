// Tenace director console: the printable sheet for the whole room. The guide (GET
// /api/evening/guide) is drawn at once: a card per table (each round's pairs and boards) and
// a card per pair (each round's table, direction and boards). "Draw the pairing codes" (POST
// /api/evening/cards, CSRF) draws one code per device and gives each device a card of its
// own: the table card carries the table tablet's code only, each seat tablet's card its own
// seat's code only, the card readers' card theirs (a player who could read an opponent's
// code could pair as him and read his hand: issue 23). The QR codes are the hub's own SVG
// (segno), parsed as SVG. Printing uses the page's @media print rules (evening.css): each
// table's cards on a page of their own, no card cut across two pages.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const side = (d) => { const text = t("side." + d); return text === "side." + d ? d : text; };
  let guide = null;
  let codes = {};          // table -> its devices, each with its own code and QR code
  let csrf = "";

  function qr(device) {
    const svg = new DOMParser().parseFromString(device.svg, "image/svg+xml").documentElement;
    return el("div", { class: "qr", dataset: { account: device.account, uri: device.uri } },
      document.importNode(svg, true), el("div", { text: device.account }),
      el("div", { class: "code", text: device.code }),
      el("div", { class: "dim", text: t("cards.expires", {
        time: new Date(device.expires * 1000).toLocaleTimeString(tenaceI18n.locale(), {
          hour: "2-digit", minute: "2-digit" }) }) }));
  }

  const SEATS = { N: "cards.seat_N", E: "cards.seat_E", S: "cards.seat_S", W: "cards.seat_W" };

  function deviceTitle(table, device) {
    if (device.seat) {
      return t("cards.seat_card", { table: table, seat: t(SEATS[device.seat]) });
    }
    return t(device.kind === "table tablet" ? "cards.tab_card" : "cards.rdr_card",
      { table: table });
  }

  // One card per device but the table tablet's (whose code is on the table card).
  function deviceCards(table) {
    return (codes[table] || []).filter((d) => d.kind !== "table tablet").map((device) =>
      el("div", { class: "card device-card", dataset: { account: device.account, table: table } },
        el("h3", { text: deviceTitle(table, device) }), qr(device),
        el("p", { class: "small", text: t("cards.only_this") })));
  }

  // A seat nobody holds (the absent pair's, a table that sits out) reads "sit-out" in the
  // reader's language, not a dash.
  const who = (x) => (x === null || x === undefined ? t("cards.sitout") : String(x));

  function tableCard(table) {
    const rows = table.rounds.map((r) => el("tr", {},
      el("td", { text: String(r.round) }),
      // an individual: the players North-South and East-West by number
      el("td", { class: r.players ? null : r.ns === null ? "sitout" : null,
        text: r.players ? who(r.players[0]) + "–" + who(r.players[2]) : who(r.ns) }),
      el("td", { class: r.players ? null : r.ew === null ? "sitout" : null,
        text: r.players ? who(r.players[1]) + "–" + who(r.players[3]) : who(r.ew) }),
      el("td", { text: r.boards.length ? r.boards.join(", ") : t("cards.sitout") })));
    const tab = (codes[table.table] || []).filter((d) => d.kind === "table tablet");
    return el("div", { class: "card table-card", dataset: { table: table.table } },
      el("h3", { text: t("cards.table") + " " + table.table }),
      tab.length ? el("div", { class: "qr-row" }, el("div", {},
        el("div", { class: "small", text: deviceTitle(table.table, tab[0]) }), tab.map(qr))) : null,
      el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: t("cards.round") }),
        el("th", { text: side("NS") }), el("th", { text: side("EW") }), el("th", { text: t("cards.boards") }))),
      el("tbody", {}, rows)));
  }

  function render() {
    const tables = [], guides = [];
    for (const section of guide.sections) {
      for (const table of section.tables) {
        tables.push(el("div", { class: "table-group", dataset: { table: table.table } },
          tableCard(table), deviceCards(table.table)));
      }
      for (const pair of section.pairs) {
        const rows = pair.rounds.map((r, i) => el("tr", {},
          el("td", { text: String(i + 1) }),
          r === null ? el("td", { colspan: "3", text: t("cards.sitout") }) : [
            el("td", { text: r.table }), el("td", { text: side(r.direction) }),
            el("td", { text: r.boards.join(", ") })]));
        guides.push(el("div", { class: "card guide-card", dataset: { section: section.section, pair: String(pair.pair) } },
          el("h3", { text: t("cards.guide") + " · " + section.section + " " +
            (section.individual ? t("results.player") : t("cards.pair")) + " " + pair.pair }),
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
        if (!data.ok) {
          $("message").textContent = t("cards.refused", { error: data.error || "" });
          return;
        }
        codes = {};
        let n = 0;
        for (const table of data.tables) { codes[table.table] = table.devices; n += table.devices.length; }
        $("message").textContent = plural("cards.drawn", n);
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
