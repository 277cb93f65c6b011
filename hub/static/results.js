// Tenace results pages: the rankings (/results), a board with its hands, double-dummy table,
// par, traveller and a plot of its scores (/results/board/N), a pair's score card
// (/results/pair/SECTION/N). The data comes from /api/results... (hub/results_pages.py) and is
// fetched again every few seconds while the session runs. Plain JS, nothing loaded from
// elsewhere; every text from the hub goes in through textContent, never as HTML.
"use strict";

(function () {
  const SEATS = ["N", "E", "S", "W"];
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const STRAINS = ["NT", "S", "H", "D", "C"];
  const REFRESH = 10000;           // ms between two fetches of the data
  const SVG = "http://www.w3.org/2000/svg";

  const { $, el } = window.tenaceDom;

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const num = (x) => (x === null || x === undefined ? "–" : String(Math.round(x * 100) / 100));
  const pct = (x) => (x === null || x === undefined ? "–" : x.toFixed(2) + "%");
  const ranks = (text) => (text || "").replace(/T/g, "10");
  const unit = (method) => (method === "mp" ? "MP" : method === "total" ? "points" : "IMPs");
  const methodName = (method) => ({ mp: "matchpoints", imp: "IMPs", butler: "Butler IMPs",
    crossimp: "cross-IMPs", total: "total points" })[method] || method;

  function contractText(contract) {
    if (contract === null || contract === undefined) return "–";
    if (contract === "PASS") return "Pass";
    const m = /^([1-7])(NT|[SHDC])(X{0,2})$/.exec(contract);
    if (!m) return contract;
    return m[1] + (m[2] === "NT" ? "NT" : SYMBOLS[m[2]]) + m[3];
  }

  function pairLink(key, pair) {
    if (pair === null || pair === undefined) return "–";
    return el("a", { href: "/results/pair/" + encodeURIComponent(key) + "/" + pair }, String(pair));
  }

  const boardLink = (board) => el("a", { href: "/results/board/" + board }, "Board " + board);

  // Rankings ------------------------------------------------------------------------------
  function rankingTable(section, direction, entries) {
    const percent = section.method === "mp";
    const rows = entries.map((e, i) => {
      const tied = entries.some((o, j) => j !== i && o.rank === e.rank);
      return el("tr", { dataset: { pair: String(e.pair) } },
        el("td", { class: "num" }, e.rank + (tied ? "=" : "")),
        el("td", { class: "num" }, section.method === "imp" ? "Team " + e.pair
          : pairLink(section.key, e.pair)),
        el("td", {}, e.names.join(" – ")),
        el("td", { class: "num" }, String(e.boards)),
        el("td", { class: "num" }, num(e.total)),
        percent ? el("td", { class: "num" }, pct(e.percent)) : null);
    });
    const id = "ranking-" + section.key + (direction ? "-" + direction : "");
    return el("div", {},
      direction ? el("h3", {}, direction === "NS" ? "North-South" : "East-West") : null,
      el("table", { class: "grid ranking", id: id },
        el("thead", {}, el("tr", {}, el("th", {}, "Rank"),
          el("th", {}, section.method === "imp" ? "Team" : "Pair"), el("th", {}, "Players"),
          el("th", {}, "Boards"), el("th", {}, section.units),
          percent ? el("th", {}, "%") : null)),
        el("tbody", {}, rows)));
  }

  function sectionBlock(section) {
    const field = section.field === "one-winner" ? [null]
      : ["NS", "EW"];
    const tables = field.map((d) => rankingTable(section, d,
      section.ranking.filter((e) => d === null || e.direction === d)));
    return el("section", { class: "section", id: "section-" + section.key },
      el("h2", {}, "Section " + section.section,
        el("span", { class: "dim" }, " · " + methodName(section.method) +
          " · " + section.field)),
      el("div", { class: "fields" }, tables),
      section.penalties.length ? el("p", { class: "dim" }, "Procedural penalties (Law 90): " +
        section.penalties.map((p) => "pair " + p.pair + " −" + p.amount + " " + p.unit +
          (p.board !== null ? " (board " + p.board + ")" : "")).join("; ")) : null,
      el("h3", {}, "Boards"),
      el("ul", { class: "boards-list" }, section.boards.map((b) =>
        el("li", {}, boardLink(b.board), el("span", { class: "dim" },
          " " + b.scored + "/" + section.expected)))),
      section.problems.length ? el("ul", { class: "problems" },
        section.problems.map((p) => el("li", { class: "error" }, p))) : null);
  }

  function renderOverview(data) {
    document.title = "Results · Tenace";
    const pub = data.public || {};
    const parts = !data.full && pub.ranking === false
      ? [el("p", { class: "dim", id: "hidden-ranking" },
        "The rankings are not shown during the session.")]
      : data.sections.map(sectionBlock);
    if (!data.full) {       // the public view: say why a board is not there yet
      parts.push(el("p", { class: "dim", id: "public-note" }, pub.boards === false
        ? "The boards are not shown during the session."
        : "A board is shown once every table has finished it."));
    }
    if (data.rulings.length) {
      parts.push(el("section", { class: "section" }, el("h2", {}, "Rulings"),
        el("ol", { class: "rulings", id: "rulings" }, data.rulings.map((r) =>
          el("li", { dataset: { ruling: r.id, status: r.status } },
            r.id + ": " + r.summary + (r.text ? " — " + r.text : ""),
            el("span", { class: "dim" }, " (" + r.status + ")"))))));
    }
    return parts;
  }

  // A board -------------------------------------------------------------------------------
  function hand(hands, seat) {
    return el("div", { class: "hand", dataset: { seat: seat } },
      el("div", { class: "seat" }, SEAT_NAMES[seat]),
      SUITS.map((s) => el("div", { class: "suit-" + s, dataset: { suit: s } },
        SYMBOLS[s] + " " + (ranks(hands[seat][s]) || "–"))));
  }

  function diagram(data) {
    if (!data.hands) return el("p", { class: "dim" }, "No hand record.");
    return el("div", { class: "diagram", id: "diagram" },
      SEATS.map((seat) => hand(data.hands, seat)),
      el("div", { class: "centre" }, el("span", {}, "Dealer " + SEAT_NAMES[data.dealer]),
        el("span", {}, "Vul " + data.vulnerability)));
  }

  function ddTable(data) {
    if (!data.dd) {
      return el("p", { class: "dim", id: "dd" },
        data.dd_pending ? "Double-dummy table being solved…" : "No double-dummy table.");
    }
    const tricks = data.dd.tricks;
    return el("div", { id: "dd" },
      el("table", { class: "grid dd" },
        el("thead", {}, el("tr", {}, el("th", {}, ""),
          STRAINS.map((s) => el("th", { class: s === "NT" ? "" : "suit-" + s },
            s === "NT" ? "NT" : SYMBOLS[s])))),
        el("tbody", {}, ["N", "S", "E", "W"].map((seat) => el("tr", { dataset: { seat: seat } },
          el("th", {}, SEAT_NAMES[seat]),
          STRAINS.map((s) => el("td", { class: "num" }, String(tricks[seat][s]))))))),
      el("p", { id: "par" }, "Par: " + (data.dd.par || "–") + " (NS " + data.dd.par_score_ns + ")"));
  }

  function plot(section) {
    const counts = new Map();
    for (const r of section.results) {
      if (r.score_ns !== null) counts.set(r.score_ns, (counts.get(r.score_ns) || 0) + 1);
    }
    const scores = [...counts.keys()].sort((a, b) => a - b);
    if (!scores.length) return null;
    const most = Math.max(...counts.values());
    const width = Math.max(240, 56 * scores.length + 40);
    const height = 170;
    const base = height - 30;
    const step = (width - 40) / scores.length;
    const chart = svg("svg", { class: "plot", id: "plot-" + section.key, width: width,
      height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
    chart.append(svg("title", {}, "Board " + section.board + ": North-South scores, " +
      section.results.length + " result(s)"));
    chart.append(svg("line", { class: "axis", x1: 20, y1: base, x2: width - 20, y2: base }));
    scores.forEach((score, i) => {
      const n = counts.get(score);
      const h = Math.max(2, (base - 20) * n / most);
      const x = 20 + i * step + step * 0.15;
      const w = step * 0.7;
      chart.append(svg("rect", { class: "bar" + (score < 0 ? " minus" : ""), x: x, y: base - h,
        width: w, height: h, "data-score": score, "data-count": n }));
      chart.append(svg("text", { x: x + w / 2, y: base - h - 4, "text-anchor": "middle" },
        String(n)));
      chart.append(svg("text", { x: x + w / 2, y: base + 15, "text-anchor": "middle" },
        String(score)));
    });
    return chart;
  }

  function traveller(section) {
    const mp = section.method === "mp";
    const rows = section.results.map((r) => el("tr", {
      class: r.adjustment ? "adjusted" : (r.scored ? "" : "pending"),
      dataset: { table: r.table, ns: String(r.NS), ew: String(r.EW) } },
    el("td", { class: "num" }, pairLink(section.key, r.NS)),
    el("td", { class: "num" }, pairLink(section.key, r.EW)),
    el("td", {}, contractText(r.contract)),
    el("td", {}, r.declarer || ""),
    el("td", { class: "num" }, r.tricks === null ? "" : String(r.tricks)),
    el("td", { class: "num" }, r.score_ns === null ? "" : String(r.score_ns)),
    el("td", { class: "num" }, num(r.ns_points)),
    el("td", { class: "num" }, num(r.ew_points)),
    mp ? el("td", { class: "num" }, pct(r.ns_percent)) : null,
    el("td", {}, (r.adjustment || "") + (r.form ? " (form " + r.form + ")" : "") +
      (r.scored ? "" : " not scored yet"))));
    return el("section", { class: "traveller", id: "traveller-" + section.key },
      el("h2", {}, "Section " + section.section, el("span", { class: "dim" },
        " · " + section.results.length + " of " + section.expected + " results" +
        (mp && section.top !== null ? " · top " + num(section.top) : "") +
        (section.fouled ? " · fouled board (Law 87)" : ""))),
      el("table", { class: "grid traveller-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "NS"), el("th", {}, "EW"),
          el("th", {}, "Contract"), el("th", {}, "By"), el("th", {}, "Tricks"),
          el("th", {}, "Score NS"), el("th", {}, unit(section.method) + " NS"),
          el("th", {}, unit(section.method) + " EW"), mp ? el("th", {}, "% NS") : null,
          el("th", {}, "Ruling"))),
        el("tbody", {}, rows)),
      plot(section));
  }

  function boardNav(data) {
    const i = data.boards.indexOf(data.board);
    const prev = i > 0 ? data.boards[i - 1] : null;
    const next = i >= 0 && i < data.boards.length - 1 ? data.boards[i + 1] : null;
    return [el("a", { href: "/results" }, "Rankings"),
      prev !== null ? el("a", { href: "/results/board/" + prev, id: "prev" }, "‹ Board " + prev) : null,
      next !== null ? el("a", { href: "/results/board/" + next, id: "next" }, "Board " + next + " ›") : null];
  }

  function renderBoard(data) {
    document.title = "Board " + data.board + " · Tenace";
    $("nav").replaceChildren(...boardNav(data).filter(Boolean));
    return [
      el("h2", {}, "Board " + data.board, el("span", { class: "dim" },
        " · dealer " + SEAT_NAMES[data.dealer] + " · vulnerable " + data.vulnerability)),
      el("div", { class: "board-head" }, diagram(data), ddTable(data)),
      data.sections.map(traveller),
    ];
  }

  // A pair's score card -----------------------------------------------------------------
  function renderCard(data) {
    document.title = "Pair " + data.pair + " · Tenace";
    $("nav").replaceChildren(el("a", { href: "/results" }, "Rankings"));
    const place = data.place;
    const mp = data.method === "mp";
    const rows = data.boards.map((b) => el("tr", {
      class: b.adjustment ? "adjusted" : (b.scored ? "" : "pending"),
      dataset: { board: String(b.board) } },
    el("td", {}, boardLink(b.board)),
    el("td", { class: "num" }, String(b.round)),
    el("td", {}, b.table),
    el("td", {}, b.direction),
    el("td", { class: "num" }, pairLink(data.key, b.opponents)),
    el("td", {}, contractText(b.contract)),
    el("td", {}, b.declarer || ""),
    el("td", { class: "num" }, b.tricks === null ? "" : String(b.tricks)),
    el("td", { class: "num" }, b.score === null ? "" : String(b.score)),
    el("td", { class: "num" }, num(b.points)),
    mp ? el("td", { class: "num" }, pct(b.percent)) : null,
    el("td", {}, b.adjustment || "")));
    return [
      el("h2", { id: "card-title" }, "Pair " + data.pair + " · section " + data.section,
        data.team !== null ? el("span", { class: "dim" }, " · team " + data.team) : null),
      el("p", {}, data.names.join(" – ")),
      place ? el("p", { id: "place" }, "Rank " + place.rank +
        (place.direction ? " " + place.direction : "") + " · " + num(place.total) + " " +
        unit(data.method) + (place.percent !== null ? " · " + pct(place.percent) : "")) : null,
      el("table", { class: "grid card", id: "card" },
        el("thead", {}, el("tr", {}, el("th", {}, "Board"), el("th", {}, "Round"),
          el("th", {}, "Table"), el("th", {}, "Sat"), el("th", {}, "Opponents"),
          el("th", {}, "Contract"), el("th", {}, "By"), el("th", {}, "Tricks"),
          el("th", {}, "Score"), el("th", {}, unit(data.method)), mp ? el("th", {}, "%") : null,
          el("th", {}, "Ruling"))),
        el("tbody", {}, rows)),
      data.penalties.length ? el("p", {}, "Procedural penalties (Law 90): " +
        data.penalties.map((p) => "−" + p.amount + " " + p.unit + (p.text ? " (" + p.text + ")" : ""))
          .join("; ")) : null,
    ];
  }

  // Loading -------------------------------------------------------------------------------
  function route() {
    const path = location.pathname.replace(/\/$/, "");
    let m = /^\/results\/board\/(\d+)$/.exec(path);
    if (m) return { api: "/api/results/board/" + m[1], render: renderBoard };
    m = /^\/results\/pair\/([^/]+)\/(\d+)$/.exec(path);
    if (m) return { api: "/api/results/pair/" + m[1] + "/" + m[2], render: renderCard };
    return { api: "/api/results", render: renderOverview };
  }

  let timer = null;

  function load() {
    const page = route();
    clearTimeout(timer);
    fetch(page.api, { cache: "no-store" })
      .then((r) => r.json().then((data) => ({ ok: r.ok, data: data })))
      .then(({ ok, data }) => {
        const main = $("content");
        if (!ok) {
          main.replaceChildren(el("p", { class: "error", id: "error" }, data.error || "not found"));
          return;
        }
        const y = window.scrollY;
        main.replaceChildren(...[page.render(data)].flat(2).filter(Boolean));
        window.scrollTo(0, y);
        $("updated").textContent = "updated " + new Date().toLocaleTimeString();
        document.body.dataset.loaded = String(Number(document.body.dataset.loaded || 0) + 1);
        timer = setTimeout(load, data.dd_pending ? 1500 : REFRESH);
      })
      .catch(() => { timer = setTimeout(load, REFRESH); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("print").addEventListener("click", () => window.print());
    load();
  });
}());
