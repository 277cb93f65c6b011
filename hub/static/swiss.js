// Tenace director console: the Swiss page. Each Swiss section's standings (VPs and the
// tie-breaks of docs/swiss.md) and the pairings of every round drawn, from GET /api/swiss
// (hub/console_swiss.py), redrawn every few seconds; the director may draw the next round
// at once (POST /api/director {"op": "swiss_draw"}). Texts from the hub go in through
// textContent; the page's own are t(key, params) of i18n.js.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const session = { csrf: "", role: "" };
  const TIE_BREAKS = { "head-to-head": "swiss.tb_head", "IMP quotient": "swiss.tb_quotient",
    "opponents' VPs": "swiss.tb_buchholz" };
  let last = null;

  function get(url) {
    return fetch(url, { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=" + encodeURIComponent(location.pathname));
      return r.json();
    });
  }

  const num = (x, digits) => (x === null || x === undefined ? "∞" : window.tenaceI18n.number(x, digits));

  function who(section, c) {
    const names = (section.names[String(c)] || []).join(", ");
    const label = t(section.kind === "swiss_teams" ? "swiss.team" : "swiss.pair", { n: c });
    return [label, names];
  }

  function standings(section) {
    const head = el("tr", null,
      el("th", { class: "num", text: t("swiss.col_rank") }),
      el("th", { text: t(section.kind === "swiss_teams" ? "swiss.col_team" : "swiss.col_pair") }),
      el("th", { class: "num", text: t("swiss.col_vp") }),
      el("th", { class: "num", text: t("swiss.col_imps") }),
      el("th", { class: "num", text: t("swiss.col_quotient") }),
      el("th", { class: "num", text: t("swiss.col_buchholz") }),
      el("th", { text: t("swiss.col_tie_break") }));
    const rows = section.standings.map((s) => {
      const [label, names] = who(section, s.contestant);
      return el("tr", null,
        el("td", { class: "num", text: String(s.rank) }),
        el("td", { class: "who" }, label,
          names ? el("span", { class: "dim", text: " " + names }) : null),
        el("td", { class: "num", text: num(s.vp, 2) }),
        el("td", { class: "num", text: num(s.imps_won, 0) + "–" + num(s.imps_lost, 0) }),
        el("td", { class: "num", text: num(s.quotient, 3) }),
        el("td", { class: "num", text: num(s.buchholz, 2) }),
        el("td", { text: s.tie_break ? t(TIE_BREAKS[s.tie_break] || s.tie_break) : "" }));
    });
    return el("table", { class: "swiss", id: "standings-" + section.section },
      el("thead", null, head), el("tbody", null, rows));
  }

  function drawnBy(by) {
    if (by === "set-up") return t("swiss.by_setup");
    if (by === "hub") return t("swiss.by_hub");
    return t("swiss.by_director", { by: by });
  }

  function rounds(section) {
    return section.pairings.slice().reverse().map((r) => el("div", null,
      el("h3", { text: t("swiss.round", { round: r.round }) + " · " + drawnBy(r.by)
        + (r.complete ? " · " + t("swiss.complete") : "") }),
      el("table", { class: "swiss" },
        el("thead", null, el("tr", null,
          el("th", { text: t("swiss.col_match") }), el("th", { text: t("swiss.col_tables") }),
          el("th", { class: "num", text: t("swiss.col_score") }),
          el("th", { class: "num", text: t("swiss.col_vps") }))),
        el("tbody", null, r.matches.map((m) => el("tr", null,
          el("td", { text: m.away === null
            ? t("swiss.bye", { home: who(section, m.home)[0] })
            : who(section, m.home)[0] + " – " + who(section, m.away)[0] }),
          el("td", { text: m.tables.join(", ") }),
          el("td", { class: "num", text: m.imps ? num(m.imps[0], 0) + "–" + num(m.imps[1], 0)
            : "" }),
          el("td", { class: "num", text: m.vp ? num(m.vp[0], 2) + "–" + num(m.vp[1], 2)
            : "" })))))));
  }

  function draw(section) {
    if (!confirm(t("swiss.draw_confirm", { round: section.drawn + 1, name: section.section }))) return;
    fetch("/api/director", {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify({ op: "swiss_draw", section: section.section }),
    }).then((r) => r.json()).then((done) => {
      said = done.ok ? ["swiss.drawn_ok", {}] : ["swiss.draw_error", { error: done.error || "" }];
      say();
      refresh();
    });
  }

  // The answer to the director's draw, kept as a key and its values: said again in the
  // language the page switches to.
  let said = null;
  function say() {
    $("swiss-message").textContent = said ? t(said[0], said[1]) : "";
  }

  function show() {
    const data = last;
    if (!data) return;
    const box = $("swiss-sections");
    if (!data.sections.length) {
      box.replaceChildren(el("p", { class: "dim", text: t("swiss.none") }));
      return;
    }
    box.replaceChildren(...data.sections.map((s) => el("section", null,
      el("h2", { text: t("swiss.section", { name: s.section,
        kind: t(s.kind === "swiss_teams" ? "swiss.kind_teams" : "swiss.kind_pairs") }) }),
      el("p", { class: "dim", text: t("swiss.drawn", { drawn: s.drawn, rounds: s.rounds })
        + " · " + t("swiss.bye_scores", { vp: s.bye_vp === "average" ? t("swiss.average") : s.bye_vp }) }),
      session.role === "director" && s.drawn < s.rounds
        ? el("button", { type: "button", class: "button", text: t("swiss.draw"),
          onclick: () => draw(s) }) : null,
      el("div", { class: "swiss-grid" },
        el("div", null, el("h3", { text: t("swiss.standings") }), standings(s)),
        el("div", { class: "swiss-rounds" }, rounds(s))))));
  }

  function refresh() {
    return get("/api/swiss").then((data) => { last = data; show(); });
  }

  document.addEventListener("tenace-language", () => { show(); say(); });
  window.tenaceI18n.ready.then(() => get("/api/session")).then((data) => {
    session.csrf = data.csrf || "";
    session.role = data.role || "";
    window.tenaceCsrf = session.csrf;
    return refresh();
  });
  setInterval(refresh, 5000);
})();
