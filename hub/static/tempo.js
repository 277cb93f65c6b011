// Tenace director console: tempo. A board's timeline (?table=&board=, opened from an alert
// with &alert= to attach it to the ruling) and the slow-play panel. Data from /api/tempo/*
// (hub/console_tempo.py). Every text from the hub goes in through textContent; the page's
// own are t(key, params) of i18n.js, the page drawn again when the language changes.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const known = (key, fallback) => { const text = t(key); return text === key ? fallback : text; };
  const seatName = (seat) => known("seat." + seat, seat);
  // A call or a card as the reader's language writes it: 3SA, Passe, ♠R.
  const itemText = (item) => (/^[SHDC]/.test(item) ? window.tenaceI18n.card(item)
    : window.tenaceI18n.call(item));
  const query = new URLSearchParams(location.search);
  const session = { csrf: "" };

  const tenths = (x) => x.toLocaleString(tenaceI18n.locale(), { minimumFractionDigits: 1,
    maximumFractionDigits: 1 });
  const secs = (x) => (x === null || x === undefined ? "–" : t("tempo.secs", { time: tenths(x) }));
  const side = (d) => known("side." + d, d);
  // The reference a ruling records (hub.tempo.timeline_reference, kept as the hub wrote it),
  // shown in the page's language from its parts.
  const reference = (view) => {
    const digest = /sha256 ([0-9a-f]+)/.exec(view.reference || "");
    return digest ? t("tempo.reference", { table: view.table, board: view.board,
      position: view.position, digest: digest[1] }) : view.reference;
  };
  const minutes = (x) => (x === null || x === undefined ? "–"
    : Math.floor(x / 60) + ":" + String(Math.round(x % 60)).padStart(2, "0"));
  const clock = (t) => (t === null ? "–"
    : new Date(t * 1000).toLocaleTimeString(tenaceI18n.locale(), {
    hour: "2-digit", minute: "2-digit", second: "2-digit" }));

  function get(url) {
    return fetch(url).then((r) => {
      if (r.status === 401) location.replace("/login?next=" + encodeURIComponent(
        location.pathname + location.search));
      return r.json().then((data) => ({ status: r.status, data: data }));
    });
  }

  // The timeline ----------------------------------------------------------------------------
  function bar(kind, left, width, title) {   // sized through the CSSOM (the CSP forbids
    const node = el("div", { class: kind, title: title });   // inline style attributes)
    node.style.left = (100 * left) + "%";
    node.style.width = (100 * width) + "%";
    return node;
  }

  function timeline(view) {
    const marks = new Map();
    for (const m of view.marks) marks.set(m.index, (marks.get(m.index) || []).concat([m]));
    const longest = Math.max(10, ...view.actions.map((a) => (a.think || 0) + a.stop_wait));
    const rows = [];
    let phase = null;
    for (const a of view.actions) {
      const now = a.kind === "call" ? t("console.h_auction") : t("console.h_play");
      if (now !== phase) {
        phase = now;
        rows.push(el("tr", { class: "phase" }, el("td", { colspan: "8" }, now)));
      }
      const mine = marks.get(a.index) || [];
      const think = a.think || 0;
      const track = el("div", { class: "bar-track" },
        a.stop_wait ? bar("bar-stop", 0, a.stop_wait / longest, t("tempo.stop_wait")) : null,
        bar("bar-think", a.stop_wait / longest, Math.max(0.003, think / longest), null));
      rows.push(el("tr", { class: mine.length ? "marked" : null,
        dataset: { index: String(a.index), marks: mine.map((m) => m.kind).join(" ") } },
        el("td", { class: "num" }, String(a.index)),
        el("td", {}, seatName(a.seat) + (a.player !== a.seat
          ? " " + t("tempo.by", { seat: known("letter." + a.player, a.player) }) : "")),
        el("td", {}, itemText(a.item) + (a.stop ? " " + t("tempo.stop_card") : "")),
        el("td", {}, clock(a.at)),
        el("td", { class: "num" }, secs(a.think)),
        el("td", { class: "num dim" }, a.stop_wait ? t("tempo.stop", { time: secs(a.stop_wait) })
          : ""),
        el("td", { class: "num dim" }, "±" + tenths(a.precision) + " "
          + known("tempo.source." + a.source, a.source)),
        el("td", { class: "bar" }, track,
          mine.map((m) => el("div", { class: "mark" }, (m.text ? tenaceI18n.text(m.text) : m.detail) + " (" + m.law + ")")))));
    }
    return el("table", { class: "timeline", id: "timeline" },
      el("thead", {}, el("tr", {}, ["#", t("tempo.seat"), t("tempo.item"), t("tempo.at"),
        t("tempo.think"), "", t("tempo.precision"), t("tempo.time")].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows));
  }

  function attachForm(view) {
    const alertId = query.get("alert");
    if (!alertId) return null;
    const text = el("textarea", { id: "attach-text", rows: "2",
      placeholder: t("tempo.ruling_placeholder") });
    const message = el("div", { class: "message", id: "attach-message" });
    const button = el("button", { class: "button primary", type: "button", id: "attach",
      onclick: () => {
        fetch("/api/tempo/attach", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
          body: JSON.stringify({ alert: alertId, table: view.table, board: view.board,
            text: text.value }),
        }).then((r) => r.json()).then((res) => {
          message.textContent = res.ok ? t("tempo.attached", { alert: alertId,
            reference: res.reference }) : t("tempo.refused", { error: res.error });
          message.className = "message" + (res.ok ? "" : " error");
        });
      } }, t("tempo.attach"));
    return el("div", {}, el("h3", {}, t("tempo.attach_to", { alert: alertId })),
      el("div", { class: "attach" }, text, button), message);
  }

  function showTimeline(table, board) {
    const panel = $("timeline-panel");
    get("/api/tempo/board/" + encodeURIComponent(table) + "/" + encodeURIComponent(board))
      .then(({ status, data }) => {
        panel.hidden = false;
        if (status !== 200) {
          panel.replaceChildren(el("p", { class: "empty" }, data.error || t("tempo.no_timeline")));
          return;
        }
        const sides = data.side_seconds;
        panel.replaceChildren(
          el("h2", {}, t("console.table", { table: data.table }) + " · " +
            t("console.at_board", { board: data.board }),
            el("span", { class: "dim" }, t("console.at_round", { round: data.round ?? "–" }) +
              " · " + t("console.pairs", { ns: data.ns ?? "–", ew: data.ew ?? "–" }) + " · " +
              t("tempo.at_table", { time: minutes(data.seconds), ns: minutes(sides.NS),
                ew: minutes(sides.EW) }))),
          el("p", { class: "dim", id: "mark-count" }, plural("tempo.marks", data.marks.length)),
          timeline(data),
          ...[attachForm(data)].filter((node) => node),
          el("p", { class: "ref", id: "reference" }, reference(data)));
        document.body.dataset.ready = "timeline";
      });
  }

  // Slow play -------------------------------------------------------------------------------
  function showSlow() {
    get("/api/tempo/slow").then(({ status, data }) => {
      const panel = $("slow-panel");
      if (status !== 200) {
        panel.replaceChildren(el("p", { class: "empty" }, data.error || t("tempo.no_data")));
        return;
      }
      const boards = data.boards.map((b) => el("tr", {
        class: b.over ? "over" : null, dataset: { table: b.table, board: String(b.board) } },
        el("td", {}, b.table), el("td", {}, String(b.round ?? "–")),
        el("td", {}, el("a", { href: "/tempo?table=" + encodeURIComponent(b.table) +
          "&board=" + b.board }, t("console.board", { board: b.board }))),
        el("td", { class: "num" + (b.over ? " over" : "") }, minutes(b.seconds)),
        el("td", { class: "num" }, minutes(b.allowance)),
        el("td", { class: "num" }, t("tempo.ns", { pair: b.pairs.NS ?? "–" }) + " " +
          minutes(b.sides.NS)),
        el("td", { class: "num" }, t("tempo.ew", { pair: b.pairs.EW ?? "–" }) + " " +
          minutes(b.sides.EW)),
        el("td", { class: "over" }, b.slow_sides.map(side).join(", "))));
      const pairs = data.pairs.map((p) => el("tr", { class: p.over ? "over" : null },
        el("td", {}, t("tempo.pair", { pair: p.pair })),
        el("td", { class: "num" }, minutes(p.seconds)),
        el("td", { class: "num" }, minutes(p.share)), el("td", { class: "num" },
          String(p.boards))));
      panel.replaceChildren(
        el("h2", {}, t("nav.tempo"), el("span", { class: "dim" },
          t("console.law", { law: data.law }) + " · " + plural("tempo.slow_line",
            data.minutes_per_round, { minutes: data.minutes_per_round,
            tables: data.slow_tables.join(", ") || t("tempo.none") }))),
        el("table", { class: "timeline slow", id: "slow" },
          el("thead", {}, el("tr", {}, [t("check.table"), t("evening.round"), t("evening.board"),
            t("tempo.time"), t("tempo.allowance"), t("evening.ns"), t("evening.ew"),
            t("tempo.over_share")].map((h) => el("th", {}, h)))),
          el("tbody", {}, boards)),
        el("h3", {}, t("evening.pairs")),
        el("table", { class: "timeline slow", id: "slow-pairs" },
          el("thead", {}, el("tr", {}, [t("evening.pair"), t("tempo.time"), t("tempo.share"),
            t("cards.boards")].map(
            (h) => el("th", {}, h)))),
          el("tbody", {}, pairs)));
      if (!query.get("table")) document.body.dataset.ready = "slow";
    });
  }

  function show() {
    if (query.get("table") && query.get("board")) showTimeline(query.get("table"),
      query.get("board"));
    showSlow();
  }

  document.addEventListener("tenace-language", show);
  window.tenaceI18n.ready.then(() => get("/api/session")).then(({ data }) => {
    session.csrf = data.csrf || "";
    show();
  });
})();
