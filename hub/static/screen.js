// Tenace room screen: the public rankings (GET /api/results, what the director lets the room
// see) in large type, one section after another, a page of rows at a time, advancing every
// few seconds (?every=SECONDS, 12 by default; ?rows=N, 12 by default): a Mitchell's
// North-South ranking, then its East-West one, ties shown "=". Reloads the results at each
// turn; shows the director's "hidden" message when the ranking is hidden.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const query = new URLSearchParams(location.search);
  const every = Math.max(2, Number(query.get("every")) || 12) * 1000;
  const perPage = Math.max(3, Number(query.get("rows")) || 12);
  let pages = [];
  let index = 0;

  // Each section's ranking by direction (a Mitchell's North-South list, then its East-West
  // list, each ranked on its own), a rank shared by several pairs shown "3=" on each.
  function groups(section) {
    const ranking = section.ranking || [];
    const byDirection = new Map();
    for (const row of ranking) {
      const key = row.direction || "";
      if (!byDirection.has(key)) byDirection.set(key, []);
      byDirection.get(key).push(row);
    }
    const order = ["NS", "EW", ""];
    return [...byDirection.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
      .map(([direction, rows]) => {
        const count = new Map();
        for (const r of rows) count.set(r.rank, (count.get(r.rank) || 0) + 1);
        return { direction: direction,
          rows: rows.map((r) => Object.assign({}, r, { tied: count.get(r.rank) > 1 })) };
      });
  }

  function paginate(data) {
    const out = [];
    for (const section of data.sections || []) {
      for (const group of groups(section)) {
        for (let start = 0; start < group.rows.length; start += perPage) {
          out.push({ section: section, direction: group.direction,
            rows: group.rows.slice(start, start + perPage) });
        }
      }
    }
    return out;
  }

  const DIRECTIONS = { NS: "screen.ns", EW: "screen.ew" };

  function show() {
    if (!pages.length) {
      $("sub").textContent = "";
      $("body").replaceChildren(el("p", { class: "message", text: t("screen.hidden") }));
      $("dots").textContent = "";
      return;
    }
    const page = pages[index % pages.length];
    const section = page.section;
    $("sub").textContent = t("screen.section") + " " + section.section +
      (page.direction ? " · " + t(DIRECTIONS[page.direction]) : "");
    const percent = page.rows.some((r) => r.percent !== null && r.percent !== undefined);
    $("body").replaceChildren(el("table", { dataset: { section: section.section,
      direction: page.direction } },
      el("tbody", {}, page.rows.map((r) => el("tr", { dataset: { pair: String(r.pair) } },
        el("td", { class: "num rank", text: String(r.rank) + (r.tied ? "=" : "") }),
        el("td", { class: "num", text: String(r.pair) }),
        el("td", { text: window.tenaceI18n.players(r.names, r.substitutes) }),
        el("td", { class: "num", text: percent ? window.tenaceI18n.number(r.percent, 2) + " %" : String(r.total) }))))));
    $("dots").textContent = (index % pages.length + 1) + " / " + pages.length;
  }

  function turn() {
    fetch("/api/results", { cache: "no-store" }).then((r) => r.json()).then((data) => {
      pages = paginate(data);
      index += 1;
      show();
    }).catch(() => show());
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.addEventListener("tenace-language", show);
    index = -1;
    turn();
    setInterval(turn, every);
  });
})();
