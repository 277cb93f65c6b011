// Tenace room screen: the public rankings (GET /api/results, what the director lets the room
// see) in large type, one section after another, a page of rows at a time, advancing every
// few seconds (?every=SECONDS, 12 by default; ?rows=N, 12 by default). Reloads the results at
// each turn; shows the director's "hidden" message when the ranking is hidden.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key) => window.tenaceI18n.t(key);
  const query = new URLSearchParams(location.search);
  const every = Math.max(2, Number(query.get("every")) || 12) * 1000;
  const perPage = Math.max(3, Number(query.get("rows")) || 12);
  let pages = [];
  let index = 0;

  function paginate(data) {
    const out = [];
    for (const section of data.sections || []) {
      const ranking = section.ranking || [];
      if (!ranking.length) continue;
      for (let start = 0; start < ranking.length; start += perPage) {
        out.push({ section: section, rows: ranking.slice(start, start + perPage) });
      }
    }
    return out;
  }

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
      (section.direction ? " · " + section.direction : "");
    const percent = page.rows.some((r) => r.percent !== null && r.percent !== undefined);
    $("body").replaceChildren(el("table", { dataset: { section: section.section } },
      el("tbody", {}, page.rows.map((r) => el("tr", {},
        el("td", { class: "num", text: String(r.rank) }),
        el("td", { class: "num", text: String(r.pair) + (r.direction ? " " + r.direction : "") }),
        el("td", { text: (r.names || []).join(" – ") }),
        el("td", { class: "num", text: percent ? r.percent.toFixed(2) + " %" : String(r.total) }))))));
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
