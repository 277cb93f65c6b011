// Tenace results pages: the rankings (/results), a board with its hands, double-dummy table,
// par, traveller and a plot of its scores (/results/board/N), a pair's score card
// (/results/pair/SECTION/N), the event's total over its sessions (/results/event) and the
// club's ladder (/results/ladder?best=N&min=M&from=DATE&to=DATE: hub/series_api.py). The data comes from /api/results... (hub/results_pages.py) and is
// fetched again every few seconds while the session runs. Plain JS, nothing loaded from
// elsewhere; every text from the hub goes in through textContent, never as HTML, the page's
// own through t(key, params) of i18n.js (the language of the cookie, the switch in the bar).
"use strict";

(function () {
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const STRAINS = ["NT", "S", "H", "D", "C"];
  const REFRESH = 10000;           // ms between two fetches of the data
  const SVG = "http://www.w3.org/2000/svg";

  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const known = (key, fallback) => { const text = t(key); return text === key ? fallback : text; };
  const seatName = (seat) => known("seat." + seat, seat || "–");
  const letter = (seat) => (seat ? known("letter." + seat, seat) : "");
  const vul = (v) => known("vul." + v, v);
  const side = (d) => known("side." + d, d);

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const number = (x, digits, most) => window.tenaceI18n.number(x, digits, most);
  const num = (x) => (x === null || x === undefined ? "–" : number(x, 0, 2));
  const pct = (x) => (x === null || x === undefined ? "–" : number(x, 2) + "%");
  const ranks = (text) => [...(text || "")].map(window.tenaceI18n.rank).join("");
  const unit = (method) => (method === "mp" ? t("results.mp") : method === "total"
    ? t("results.points") : t("results.imps"));
  const methodName = (method) => ({ mp: t("scoring.matchpoints"), imp: t("results.imps"),
    butler: t("scoring.butler"), crossimp: t("scoring.cross-imps"),
    total: t("scoring.total") })[method] || method;

  function contractText(contract) {
    if (contract === null || contract === undefined) return "–";
    if (contract === "PASS") return t("results.pass");
    return window.tenaceI18n.call(contract);
  }

  // The par contracts as the hub writes them ("EW 3NT+1; NS 4SX-2") in the page's language:
  // each contract as a call (3SA, 4♠X), each side by its letters (EO, NZ).
  const parText = (par) => (par || "–")
    .replace(/\b[1-7](NT|[SHDC])X{0,2}(?![A-Z])/g, (contract) => window.tenaceI18n.call(contract))
    .replace(/\b(NS|EW)\b/g, (d) => side(d));

  function pairLink(key, pair) {
    if (pair === null || pair === undefined) return "–";
    const [section, number] = key === "field" ? String(pair).split(":") : [key, pair];
    return el("a", { href: "/results/pair/" + encodeURIComponent(section) + "/" + number },
      String(pair));
  }

  const boardLink = (board) => el("a", { href: "/results/board/" + board },
    t("console.board", { board: board }));

  // Rankings ------------------------------------------------------------------------------
  function rankingTable(section, direction, entries) {
    const percent = section.method === "mp";
    const rows = entries.map((e, i) => {
      const tied = entries.filter((o) => o.rank === e.rank).length;
      // a shared place as the event's federation writes it: 3= or 3/4 (ranking's "ties")
      const place = tied < 2 ? String(e.rank) : section.ties === "range"
        ? Array.from({ length: tied }, (_, k) => e.rank + k).join("/") : e.rank + "=";
      return el("tr", { dataset: { pair: String(e.pair) } },
        el("td", { class: "num" }, place),
        el("td", { class: "num" }, section.method === "imp" ? t("results.team_n", { team: e.pair })
          : section.individual ? String(e.pair) : pairLink(section.key, e.pair)),
        el("td", {}, tenaceI18n.players(e.names, e.substitutes)),
        el("td", { class: "num" }, String(e.boards)),
        el("td", { class: "num" }, num(e.total)),
        percent ? el("td", { class: "num" }, pct(e.percent)) : null);
    });
    const id = "ranking-" + section.key + (direction ? "-" + direction : "");
    return el("div", {},
      direction ? el("h3", {}, direction === "NS" ? t("results.north_south")
        : t("results.east_west")) : null,
      el("table", { class: "grid ranking", id: id },
        el("thead", {}, el("tr", {}, el("th", {}, t("results.rank")),
          el("th", {}, section.method === "imp" ? t("results.team")
            : section.individual ? t("results.player") : t("evening.pair")),
          el("th", {}, t("results.players")),
          el("th", {}, t("cards.boards")), el("th", {}, known("units." + section.units,
            section.units)),
          percent ? el("th", {}, "%") : null)),
        el("tbody", {}, rows)));
  }

  function sectionBlock(section) {
    const field = section.field === "one-winner" ? [null]
      : ["NS", "EW"];
    const tables = field.map((d) => rankingTable(section, d,
      section.ranking.filter((e) => d === null || e.direction === d)));
    return el("section", { class: "section", id: "section-" + section.key },
      el("h2", {}, section.key === "field" ? t("results.field")   // across shards too
        : t("results.section", { section: section.section }),
        el("span", { class: "dim" }, " · " + methodName(section.method) + " · " +
          (section.individual ? t("results.individual") + " · " : "") +
          known("field." + section.field, section.field))),
      el("div", { class: "fields" }, tables),
      section.penalties.length ? el("p", { class: "dim" }, t("results.penalties") + " " +
        section.penalties.map((p) => (section.individual
          ? t("results.player_n", { player: p.pair }) : t("console.pair", { pair: p.pair })) +
          " −" + p.amount +
          " " + p.unit + (p.board !== null ? " (" + t("console.at_board", { board: p.board }) +
          ")" : "")).join("; ")) : null,
      el("h3", {}, t("cards.boards")),
      el("ul", { class: "boards-list" }, section.boards.map((b) =>
        el("li", {}, boardLink(b.board), el("span", { class: "dim" },
          " " + b.scored + "/" + section.expected)))),
      section.problems.length ? el("ul", { class: "problems" },
        (section.problem_texts || section.problems).map((p) =>
          el("li", { class: "error" }, tenaceI18n.text(p)))) : null);
  }

  function renderOverview(data) {
    document.title = t("results.title");
    const part = data.series && data.series.part;
    $("nav").replaceChildren(...seriesNav().slice(1).filter((a, i) => i > 0 || part));
    const pub = data.public || {};
    const parts = !data.full && pub.ranking === false
      ? [el("p", { class: "dim", id: "hidden-ranking" },
        t("results.hidden_ranking"))]
      : data.sections.concat(data.field ? [data.field] : []).map(sectionBlock);
    if (!data.full) {       // the public view: say why a board is not there yet
      parts.push(el("p", { class: "dim", id: "public-note" }, pub.boards === false
        ? t("results.hidden_boards") : t("results.board_when_finished")));
    }
    if (data.rulings.length) {
      parts.push(el("section", { class: "section" }, el("h2", {}, t("results.rulings")),
        el("ol", { class: "rulings", id: "rulings" }, data.rulings.map((r) =>
          el("li", { dataset: { ruling: r.id, status: r.status } },
            r.id + ": " + (r.summary_text ? tenaceI18n.text(r.summary_text) : r.summary) +
              (r.text ? " — " + r.text : ""),
            el("span", { class: "dim" }, " (" + known("ruling.status." + r.status.replace(" ", "_"), r.status) +
              ")"))))));
    }
    return parts;
  }

  // An event of several sessions and the club's ladder (hub.series) ------------------------
  const seriesNav = () => [el("a", { href: "/results" }, t("results.rankings")),
    el("a", { href: "/results/event", id: "event-link" }, t("nav.event_total")),
    el("a", { href: "/results/ladder", id: "ladder-link" }, t("nav.ladder"))];

  function renderEvent(data) {
    $("nav").replaceChildren(...seriesNav());
    if (!data.event) {
      document.title = t("series.title", { name: "" });
      return [el("p", { class: "dim", id: "no-event" }, t("series.not_event"))];
    }
    document.title = t("series.title", { name: data.name });
    const heads = () => data.sessions.map((s) => el("th", {}, t("series.session", { part: s.part }),
      s.live ? el("span", { class: "dim" }, " (" + t("series.live") + ")") : null));
    const carry = data.form === "carry";
    const scores = data.scores || "percent";
    // the event's score in its form: a percentage, IMPs, IMPs per board, VPs
    const score = (x) => (scores === "percent" ? pct(x) : x === null || x === undefined ? "–"
      : number(x, 2));
    const formText = { imps: () => t("series.form_imps"),
      imps_per_board: () => t("series.form_imps_per_board"), vp: () => t("series.form_vp"),
      percent: () => t("series.form_add") }[scores];
    const two = data.ranking.some((e) => e.direction !== null);
    const fields = two ? ["NS", "EW"] : [null];
    const table = (direction) => {
      const entries = data.ranking.filter((e) => e.direction === direction);
      const rows = entries.map((e, i) => {
        const tied = entries.some((o, j) => j !== i && o.rank === e.rank);
        return el("tr", { dataset: { rank: String(e.rank) } },
          el("td", { class: "num" }, e.rank + (tied ? "=" : "")),
          el("td", { class: "num" }, e.pair === null ? "–" : pairLink(e.section, e.pair)),
          el("td", {}, e.names.join(" – ")),
          e.sessions.map((p) => el("td", { class: "num" }, scores === "imps_per_board"
            ? (p === null ? "–" : number(p, 2)) : score(p))),
          carry ? el("td", { class: "num" }, (e.carry >= 0 ? "+" : "") + number(e.carry, 2))
            : null,
          el("td", { class: "num" }, String(e.boards)),
          el("td", { class: "num total" }, score(e.score)));
      });
      return el("div", {},
        direction ? el("h3", {}, direction === "NS" ? t("results.north_south")
          : t("results.east_west")) : null,
        el("table", { class: "grid ranking", id: "event-" + (direction || "all") },
          el("thead", {}, el("tr", {}, el("th", {}, t("results.rank")),
            el("th", {}, t("series.pair_now")), el("th", {}, t("results.players")), heads(),
            carry ? el("th", {}, t("series.carry")) : null,
            el("th", {}, t("cards.boards")), el("th", {}, t("series.total")))),
          el("tbody", {}, rows)));
    };
    const share = data.carry === null ? "" : Math.round(data.carry * 100) + "%";
    return [el("h2", { id: "event-title" }, t("series.title", { name: data.name })),
      el("p", { class: "dim", id: "event-form" }, !carry
        ? formText()
        : data.carry_form === "place" ? t("series.form_place", { points: data.carry })
          : t(scores === "percent" ? "series.form_carry" : "series.form_carry_imps",
            { share: share })),
      scores !== "percent" && carry ? el("p", { class: "dim", id: "event-scores" },
        formText()) : null,
      (data.problems || []).map((p) => el("p", { class: "dim problem" }, p)),
      !data.ranking_shown ? el("p", { class: "dim" }, t("results.hidden_ranking"))
        : data.ranking.length ? el("div", { class: "fields" }, fields.map(table))
          : el("p", { class: "dim" }, t("series.no_result"))];
  }

  // Who is logged in (the director keeps the ladder's form, tells players apart): asked once.
  let whoAsked = null;
  const who = () => (whoAsked = whoAsked || fetch("/api/session", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null)).catch(() => null));

  let ladderSaid = null;     // the director's last step on the ladder: shown after the redraw

  function ladderPost(path, body, message) {
    who().then((s) => fetch(path, { method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": s.csrf } }))
      .then((r) => r.json().then((answer) => ({ ok: r.ok, answer: answer })))
      .then(({ ok, answer }) => {
        if (ok) {
          ladderSaid = t("ladder.saved");
          load();
          return;
        }
        message.className = "error";
        message.textContent = answer.error || "?";
      });
  }

  function renderLadder(data) {
    $("nav").replaceChildren(...seriesNav());
    document.title = t("ladder.title");
    const ranked = data.ranking.filter((e) => e.rank !== null);
    const short = data.ranking.filter((e) => e.rank === null);
    // a name two lines share: each with its member number, the one not told apart with (?)
    const twice = (e) => [data.ranking, data.imp_ranking || []].some((lines) =>
      lines.filter((o) => o.player === e.player).length > 1);
    const name = (e) => e.player + (e.ambiguous ? " (?)"
      : e.member !== null && e.member !== undefined && twice(e) ? " (" + e.member + ")" : "");
    const rows = ranked.map((e, i) => {
      const tied = ranked.some((o, j) => j !== i && o.rank === e.rank);
      return el("tr", { class: e.ambiguous ? "ambiguous" : null },
        el("td", { class: "num" }, e.rank + (tied ? "=" : "")),
        el("td", {}, name(e)), el("td", { class: "num" }, String(e.played)),
        el("td", { class: "num" }, String(e.counted)),
        el("td", { class: "num total" }, pct(e.percent)));
    });
    const form = data.best ? t("ladder.form_best", { best: data.best })
      : t("ladder.form_average");
    const input = (id, key, type, value) => el("label", {}, t(key) + " ",
      el("input", { id: id, type: type, value: value === null ? "" : String(value),
        class: type === "number" ? "short" : "", min: type === "number" ? "1" : null }));
    const kept = data.kept || { best: null, min: 1, from: "", to: "" };
    const keys = [["best", "ladder-best", kept.best], ["min", "ladder-min", kept.min > 1 ? kept.min : null],
      ["from", "ladder-from", kept.from], ["to", "ladder-to", kept.to]];
    const message = el("span", { id: "ladder-message", class: ladderSaid ? "ok" : "dim" },
      ladderSaid);
    ladderSaid = null;      // said once, after the redraw it caused
    const keepSlot = el("span", { id: "ladder-keep-slot" });
    const choose = el("form", { id: "ladder-choose", class: "no-print" },
      input("ladder-best", "ladder.best", "number", data.best),
      input("ladder-min", "ladder.min", "number", data.minimum > 1 ? data.minimum : null),
      input("ladder-from", "ladder.from", "date", data.since),
      input("ladder-to", "ladder.to", "date", data.until),
      el("button", { type: "submit", class: "button", id: "ladder-show" }, t("ladder.show")),
      keepSlot, message);
    choose.addEventListener("submit", (event) => {
      event.preventDefault();
      const query = new URLSearchParams();   // what differs from the club's form
      for (const [key, id, value] of keys) {
        if ($(id).value !== (value === null ? "" : String(value))) query.set(key, $(id).value);
      }
      const text = query.toString();
      history.replaceState(null, "", "/results/ladder" + (text ? "?" + text : ""));
      load();
    });
    const ambiguous = el("div", { id: "ladder-ambiguous" });
    who().then((s) => {
      if (!s || s.role !== "director") return;
      keepSlot.replaceChildren(el("button", { type: "button", class: "button", id: "ladder-keep",
        onclick: () => ladderPost("/api/results/ladder/form", {
          best: $("ladder-best").value ? Number($("ladder-best").value) : null,
          min: $("ladder-min").value ? Number($("ladder-min").value) : 1,
          from: $("ladder-from").value, to: $("ladder-to").value }, message) },
        t("ladder.keep")));
      for (const [i, a] of (data.ambiguous || []).entries()) {
        for (const [j, w] of a.where.entries()) {
          if (w.position === undefined || w.position === null) continue;   // not stored yet
          const id = "ladder-member-" + i + "-" + j;
          const said = el("span", { class: "dim" });
          ambiguous.append(el("form", { class: "ladder-tell no-print" },
            el("span", {}, t("ladder.where", { date: w.date || "–", section: w.section,
              pair: w.pair }) + " "),
            el("label", {}, t("ladder.member") + " ", el("input", { id: id, type: "number",
              class: "short", min: "1", placeholder: a.members.join(", ") })),
            el("button", { type: "button", class: "button", onclick: () => ladderPost(
              "/api/results/ladder/player", { session: w.position, section: w.section,
                pair: w.pair, name: w.name, member: Number($(id).value) }, said) },
            t("ladder.tell")), said));
        }
      }
    });
    const replayed = data.sessions.filter((s) => s.replayed).length;
    const leftOut = (data.left_out || []).map((s) => (s.date || s.name) + " "
      + (s.session ? s.session + " " : "") + "(" + s.section + ")").join(", ");
    return [el("h2", { id: "ladder-title" }, t("ladder.title")), choose,
      el("p", { class: "dim", id: "ladder-form" }, form + (data.minimum > 1 ? "; "
        + plural("ladder.minimum", data.minimum, { count: data.minimum }) : "") + " · "
        + t("ladder.sessions", { count: data.sessions.length })),
      replayed ? el("p", { class: "dim", id: "ladder-replayed" },
        t("ladder.replayed", { count: replayed })) : null,
      leftOut ? el("p", { class: "dim", id: "ladder-left-out" },
        t("ladder.left_out", { sessions: leftOut })) : null,
      (data.ambiguous || []).length ? el("div", { class: "problem", id: "ladder-homonyms" },
        data.ambiguous.map((a) => el("p", {}, !data.full
          ? t("ladder.ambiguous_public", { player: a.player }) : a.members.length
            ? t("ladder.ambiguous", { player: a.player, members: a.members.join(", ") })
            : t("ladder.ambiguous_pairs", { player: a.player }))), ambiguous) : null,
      data.ranking.length ? el("table", { class: "grid ranking", id: "ladder" },
        el("thead", {}, el("tr", {}, el("th", {}, t("results.rank")),
          el("th", {}, t("ladder.player")), el("th", {}, t("ladder.played")),
          el("th", {}, t("ladder.counted")), el("th", {}, "%"))),
        el("tbody", {}, rows)) : el("p", { class: "dim" }, t("ladder.none")),
      short.length ? el("p", { class: "dim", id: "ladder-short" }, t("ladder.short") + ": " +
        short.map(name).join(", ")) : null,
      impLadder(data, name)];
  }

  // The Butler and cross-IMP evenings: a ladder of their own, IMPs per board (hub/series_ladder.py)
  function impLadder(data, name) {
    const lines = data.imp_ranking || [];
    if (!lines.length) return null;
    const ranked = lines.filter((e) => e.rank !== null);
    const short = lines.filter((e) => e.rank === null);
    const rows = ranked.map((e, i) => {
      const tied = ranked.some((o, j) => j !== i && o.rank === e.rank);
      return el("tr", { class: e.ambiguous ? "ambiguous" : null },
        el("td", { class: "num" }, e.rank + (tied ? "=" : "")),
        el("td", {}, name(e)), el("td", { class: "num" }, String(e.played)),
        el("td", { class: "num" }, String(e.counted)),
        el("td", { class: "num total" }, number(e.imps, 2)));
    });
    return [el("h3", { id: "imp-ladder-title" }, t("ladder.imp_title")),
      ranked.length ? el("table", { class: "grid ranking", id: "imp-ladder" },
        el("thead", {}, el("tr", {}, el("th", {}, t("results.rank")),
          el("th", {}, t("ladder.player")), el("th", {}, t("ladder.played")),
          el("th", {}, t("ladder.counted")), el("th", {}, t("ladder.imps")))),
        el("tbody", {}, rows)) : null,
      short.length ? el("p", { class: "dim", id: "imp-ladder-short" }, t("ladder.short") + ": "
        + short.map(name).join(", ")) : null];
  }

  // A board -------------------------------------------------------------------------------
  function hand(hands, seat) {
    return el("div", { class: "hand", dataset: { seat: seat } },
      el("div", { class: "seat" }, seatName(seat)),
      SUITS.map((s) => el("div", { class: "suit-" + s, dataset: { suit: s } },
        SYMBOLS[s] + " " + (ranks(hands[seat][s]) || "–"))));
  }

  function diagram(data) {
    if (!data.hands) return el("p", { class: "dim" }, t("results.no_hands"));
    return el("div", { class: "diagram", id: "diagram" },
      SEATS.map((seat) => hand(data.hands, seat)),
      el("div", { class: "centre" }, el("span", {}, t("console.dealer",
        { seat: seatName(data.dealer) })),
        el("span", {}, t("console.vul", { vul: vul(data.vulnerability) }))));
  }

  function ddTable(data) {
    if (!data.dd) {
      return el("p", { class: "dim", id: "dd" },
        data.dd_pending ? t("results.dd_pending") : t("results.no_dd"));
    }
    const tricks = data.dd.tricks;
    return el("div", { id: "dd" },
      el("table", { class: "grid dd" },
        el("thead", {}, el("tr", {}, el("th", {}, ""),
          STRAINS.map((s) => el("th", { class: s === "NT" ? "" : "suit-" + s },
            window.tenaceI18n.strain(s))))),
        el("tbody", {}, ["N", "S", "E", "W"].map((seat) => el("tr", { dataset: { seat: seat } },
          el("th", {}, seatName(seat)),
          STRAINS.map((s) => el("td", { class: "num" }, String(tricks[seat][s]))))))),
      el("p", { id: "par" }, t("results.par", { par: parText(data.dd.par),
        score: data.dd.par_score_ns })));
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
    chart.append(svg("title", {}, plural("results.plot", section.results.length,
      { board: section.board })));
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

  // A line never to be scored, and why: "not scored: <its message>" in the visitor's
  // language (the words in the event's language from a hub before the message); no brackets,
  // as the reason carries its own law citation.
  function whyNotScored(r) {
    const why = r.not_scored_text ? tenaceI18n.text(r.not_scored_text) : r.not_scored;
    return el("span", { class: "dim not-scored", title: why },
      " " + t("results.cancelled_why", { reason: why }));
  }

  // Law 15B: a cancelled second play's deprived side (the line's "deprived") is owed an
  // artificial score; the director awards it (A+, that side alone) or withdraws it in one
  // step on its line: POST /api/director ruling / ruling_undo (docs/protocol.md 17).
  let director;      // the director's session (its CSRF token), null if none, once asked

  function askDirector() {  // only for the full view (a director's or a scorer's)
    director = null;
    fetch("/api/session", { cache: "no-store" }).then((r) => (r.ok ? r.json() : null))
      .then((s) => {
        if (s && s.role === "director") {
          director = s;
          load();
        }
      });
  }

  function directorCommand(cmd, message) {
    message.textContent = t("console.sending");
    fetch("/api/director", { method: "POST", body: JSON.stringify(cmd),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": director.csrf } })
      .then((r) => r.json())
      .then((answer) => {
        message.className = "award-message " + (answer.ok ? "ok" : "error");
        message.textContent = answer.ok ? (answer.ruling ? t("ruling.applied",
          { id: answer.ruling }) : t("ruling.withdrawn", { id: cmd.id })) : (answer.error || "?");
        if (answer.ok) load();
      });
  }

  function awardAction(section, r) {
    if (!director || !r.deprived || section.key === "field") return null;
    const message = el("span", { class: "award-message dim" });
    const pair = r.deprived === "NS" ? r.NS : r.EW;
    const button = r.ruling
      ? el("button", { type: "button", class: "button quiet award-undo",
        onclick: () => directorCommand({ op: "ruling_undo", id: r.ruling }, message) },
      t("results.award_undo", { id: r.ruling }))
      : el("button", { type: "button", class: "button award-15b",
        onclick: () => directorCommand({ op: "ruling", kind: "artificial", table: r.table,
          round: r.round, board: section.board, [r.deprived.toLowerCase()]: "A+",
          text: t("results.award_text", { pair: pair }) }, message) },
      t("results.award", { pair: pair }));
    return el("span", { class: "award no-print" }, " ", button, " ", message);
  }

  function traveller(section) {
    const mp = section.method === "mp";
    const rows = section.results.map((r) => el("tr", {
      class: r.adjustment ? "adjusted" : (r.scored ? "" : (r.not_scored ? "cancelled" : "pending")),
      dataset: { table: r.table, ns: String(r.NS), ew: String(r.EW) } },
    el("td", { class: "num" }, pairLink(section.key, r.NS)),
    el("td", { class: "num" }, pairLink(section.key, r.EW)),
    el("td", {}, contractText(r.contract)),
    el("td", {}, letter(r.declarer)),
    el("td", { class: "num" }, r.tricks === null ? "" : String(r.tricks)),
    el("td", { class: "num" }, r.score_ns === null ? "" : String(r.score_ns)),
    el("td", { class: "num" }, num(r.ns_points)),
    el("td", { class: "num" }, num(r.ew_points)),
    mp ? el("td", { class: "num" }, pct(r.ns_percent)) : null,
    el("td", {}, (r.adjustment || "") + (r.form ? " " + t("results.form", { form: r.form }) : "") +
      (r.scored || r.not_scored ? "" : " " + t("results.not_scored")) +
      (r.corrected ? " " + t("results.corrected_mark", { id: r.corrected }) : ""),
    r.not_scored ? whyNotScored(r) : null, awardAction(section, r))));
    // A line never to be scored (a second play, Law 15B) is not one of the board's results.
    const counted = section.results.filter((r) => !r.not_scored).length;
    return el("section", { class: "traveller", id: "traveller-" + section.key },
      el("h2", {}, section.key === "field" ? t("results.field")   // across shards too
        : t("results.section", { section: section.section }), el("span", { class: "dim" },
        " · " + plural("results.of", counted, { expected: section.expected }) +
        (mp && section.top !== null ? " · " + t("results.top", { top: num(section.top) }) : "") +
        (section.fouled ? " · " + t("results.fouled") : ""))),
      el("table", { class: "grid traveller-table" },
        el("thead", {}, el("tr", {}, el("th", {}, side("NS")), el("th", {}, side("EW")),
          el("th", {}, t("console.contract")), el("th", {}, t("results.by")),
          el("th", {}, t("results.tricks")),
          el("th", {}, t("results.score_ns")), el("th", {}, unit(section.method) + " " + side("NS")),
          el("th", {}, unit(section.method) + " " + side("EW")),
          mp ? el("th", {}, "% " + side("NS")) : null,
          el("th", {}, t("console.ruling")))),
        el("tbody", {}, rows)),
      plot(section));
  }

  function boardNav(data) {
    const i = data.boards.indexOf(data.board);
    const prev = i > 0 ? data.boards[i - 1] : null;
    const next = i >= 0 && i < data.boards.length - 1 ? data.boards[i + 1] : null;
    return [el("a", { href: "/results" }, t("results.rankings")),
      prev !== null ? el("a", { href: "/results/board/" + prev, id: "prev" },
        "‹ " + t("console.board", { board: prev })) : null,
      next !== null ? el("a", { href: "/results/board/" + next, id: "next" },
        t("console.board", { board: next }) + " ›") : null];
  }

  function renderBoard(data) {
    document.title = t("console.board", { board: data.board }) + " · Tenace";
    $("nav").replaceChildren(...boardNav(data).filter(Boolean));
    return [
      el("h2", {}, t("console.board", { board: data.board }), el("span", { class: "dim" },
        " · " + t("results.dealer", { seat: seatName(data.dealer) }) + " · " +
        t("results.vulnerable", { vul: vul(data.vulnerability) }))),
      el("div", { class: "board-head" }, diagram(data), ddTable(data)),
      data.sections.map(traveller),
    ];
  }

  // A pair's score card -----------------------------------------------------------------
  function renderCard(data) {
    document.title = t("tempo.pair", { pair: data.pair }) + " · Tenace";
    $("nav").replaceChildren(el("a", { href: "/results" }, t("results.rankings")));
    const place = data.place;
    const mp = data.method === "mp";
    const rows = data.boards.map((b) => el("tr", {
      class: b.adjustment ? "adjusted" : (b.scored ? "" : (b.not_scored ? "cancelled" : "pending")),
      dataset: { board: String(b.board) } },
    el("td", {}, boardLink(b.board)),
    el("td", { class: "num" }, String(b.round)),
    el("td", {}, b.table),
    el("td", {}, side(b.direction)),
    el("td", { class: "num" }, pairLink(data.key, b.opponents)),
    el("td", {}, contractText(b.contract)),
    el("td", {}, letter(b.declarer)),
    el("td", { class: "num" }, b.tricks === null ? "" : String(b.tricks)),
    el("td", { class: "num" }, b.score === null ? "" : String(b.score)),
    el("td", { class: "num" }, num(b.points)),
    mp ? el("td", { class: "num" }, pct(b.percent)) : null,
    // as on the traveller: a line never to be scored (Law 15B) says so, and why
    el("td", {}, (b.adjustment || "") +
      (b.corrected ? " " + t("results.corrected_mark", { id: b.corrected }) : ""),
    b.not_scored ? whyNotScored(b) : null)));
    return [
      el("h2", { id: "card-title" }, t("results.card_title", { pair: data.pair,
        section: data.section }), data.team !== null ? el("span", { class: "dim" },
        " · " + t("results.team_of", { team: data.team })) : null),
      el("p", {}, tenaceI18n.players(data.names, data.substitutes)),
      place ? el("p", { id: "place" }, t("results.rank_n", { rank: place.rank }) +
        (place.direction ? " " + side(place.direction) : "") + " · " + num(place.total) + " " +
        unit(data.method) + (place.percent !== null ? " · " + pct(place.percent) : "")) : null,
      el("table", { class: "grid card", id: "card" },
        el("thead", {}, el("tr", {}, el("th", {}, t("evening.board")),
          el("th", {}, t("evening.round")), el("th", {}, t("check.table")),
          el("th", {}, t("results.sat")), el("th", {}, t("results.opponents")),
          el("th", {}, t("console.contract")), el("th", {}, t("results.by")),
          el("th", {}, t("results.tricks")), el("th", {}, t("ruling.score")),
          el("th", {}, unit(data.method)), mp ? el("th", {}, "%") : null,
          el("th", {}, t("console.ruling")))),
        el("tbody", {}, rows)),
      data.penalties.length ? el("p", {}, t("results.penalties") + " " +
        data.penalties.map((p) => "−" + p.amount + " " + p.unit + (p.text ? " (" + p.text + ")" : ""))
          .join("; ")) : null,
    ];
  }

  // A result corrected (the director, on a board page) -----------------------------------
  // Outside the refreshed content, built once: POST /api/director result_correct with the
  // session's CSRF token; the traveller shows the corrected result at the next refresh.
  let correcting = false;

  function correctionForm(board) {
    if (correcting) return;
    correcting = true;
    fetch("/api/session", { cache: "no-store" }).then((r) => (r.ok ? r.json() : null)).then((s) => {
      if (!s || s.role !== "director") return;
      const input = (id, label, attrs) => el("label", {}, t(label) + " ",
        el("input", Object.assign({ id: id }, attrs || {})));
      const value = (id) => $(id).value.trim();
      const message = el("p", { id: "correct-message", class: "dim" });
      const form = el("form", { id: "correct-form", class: "no-print" },
        el("h2", {}, t("results.correct_title", { board: board })),
        input("correct-table", "check.table", { size: 5 }),
        input("correct-round", "evening.round", { type: "number", min: 1, size: 3 }),
        input("correct-contract", "console.contract", { size: 5, placeholder: t("results.contract_hint") }),
        input("correct-declarer", "results.by", { size: 2, placeholder: t("letter.N") }),
        input("correct-tricks", "results.tricks", { type: "number", min: 0, max: 13, size: 3 }),
        input("correct-lead", "results.lead", { size: 3, placeholder: t("results.lead_hint") }),
        input("correct-text", "results.correct_note", { size: 30 }),
        el("button", { type: "submit", id: "do-correct", class: "button" }, t("results.correct")),
        message);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const cmd = { op: "result_correct", table: value("correct-table"), board: board,
          contract: value("correct-contract") };
        if (value("correct-round")) cmd.round = Number(value("correct-round"));
        if (value("correct-declarer")) cmd.declarer = value("correct-declarer").toUpperCase();
        if (value("correct-tricks")) cmd.tricks = Number(value("correct-tricks"));
        if (value("correct-lead")) cmd.lead = value("correct-lead").toUpperCase();
        if (value("correct-text")) cmd.text = value("correct-text");
        fetch("/api/director", { method: "POST", body: JSON.stringify(cmd),
          headers: { "Content-Type": "application/json", "X-CSRF-Token": s.csrf } })
          .then((r) => r.json())
          .then((answer) => {
            message.className = answer.ok ? "ok" : "error";
            message.textContent = answer.ok ? t("results.corrected") : (answer.error || "?");
            if (answer.ok) load();
          });
      });
      $("content").after(form);
    });
  }

  // A substitute named (the director, on a pair's page) -----------------------------------
  let substituting = false;

  function substituteForm(data) {
    if (substituting) return;
    substituting = true;
    fetch("/api/session", { cache: "no-store" }).then((r) => (r.ok ? r.json() : null)).then((s) => {
      if (!s || s.role !== "director") return;
      const message = el("p", { id: "sub-message", class: "dim" });
      const player = el("select", { id: "sub-player" },
        el("option", { value: "1" }, data.names[0] || "1"),
        el("option", { value: "2" }, data.names[1] || "2"));
      const form = el("form", { id: "sub-form", class: "no-print" },
        el("h2", {}, t("results.sub_title", { pair: data.pair })),
        el("label", {}, t("results.sub_for") + " ", player),
        el("label", {}, t("results.sub_name") + " ", el("input", { id: "sub-name", size: 24 })),
        el("label", {}, t("results.sub_rounds") + " ",
          el("input", { id: "sub-rounds", size: 8, placeholder: "3, 4" })),
        el("button", { type: "submit", id: "do-sub", class: "button" }, t("results.sub_do")),
        message);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const rounds = $("sub-rounds").value.split(/[\s,;]+/).filter(Boolean).map(Number);
        const cmd = { op: "substitute", section: data.section, pair: data.pair,
          player: Number(player.value), name: $("sub-name").value.trim(), rounds: rounds };
        fetch("/api/director", { method: "POST", body: JSON.stringify(cmd),
          headers: { "Content-Type": "application/json", "X-CSRF-Token": s.csrf } })
          .then((r) => r.json())
          .then((answer) => {
            message.className = answer.ok ? "ok" : "error";
            message.textContent = answer.ok ? t("results.sub_done") : (answer.error || "?");
            if (answer.ok) load();
          });
      });
      $("content").after(form);
    });
  }

  // Loading -------------------------------------------------------------------------------
  function route() {
    const path = location.pathname.replace(/\/$/, "");
    if (path === "/results/event") return { api: "/api/results/event", render: renderEvent };
    if (path === "/results/ladder") {
      return { api: "/api/results/ladder" + location.search, render: renderLadder };
    }
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
    const typing = document.activeElement;    // never redraw a form being filled in
    if (typing && typing.closest && typing.closest("#ladder-choose, #ladder-ambiguous") && typing.tagName === "INPUT") {
      timer = setTimeout(load, REFRESH);
      return;
    }
    fetch(page.api, { cache: "no-store" })
      .then((r) => r.json().then((data) => ({ ok: r.ok, data: data })))
      .then(({ ok, data }) => {
        const main = $("content");
        if (!ok) {
          main.replaceChildren(el("p", { class: "error", id: "error" },
            data.error || t("results.not_found")));
          return;
        }
        const y = window.scrollY;
        main.replaceChildren(...[page.render(data)].flat(2).filter(Boolean));
        if (page.render === renderBoard && data.full) correctionForm(data.board);  // director
        if (page.render === renderBoard && data.full && director === undefined) askDirector();
        if (page.render === renderCard && data.full && data.team === null) substituteForm(data);
        window.scrollTo(0, y);
        $("updated").textContent = t("results.updated",
          { time: new Date().toLocaleTimeString(tenaceI18n.locale()) });
        document.body.dataset.loaded = String(Number(document.body.dataset.loaded || 0) + 1);
        timer = setTimeout(load, data.dd_pending ? 1500 : REFRESH);
      })
      .catch(() => { timer = setTimeout(load, REFRESH); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("print").addEventListener("click", () => window.print());
    document.addEventListener("tenace-language", load);
    window.tenaceI18n.ready.then(load);
  });
}());
