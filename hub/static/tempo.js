// Tenace director console: tempo. A board's timeline (?table=&board=, opened from an alert
// with &alert= to attach it to the ruling) and the slow-play panel. Data from /api/tempo/*
// (hub/console_tempo.py). Every text from the hub goes in through textContent.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const query = new URLSearchParams(location.search);
  const session = { csrf: "" };

  const secs = (x) => (x === null || x === undefined ? "–" : x.toFixed(1) + " s");
  const minutes = (x) => (x === null || x === undefined ? "–"
    : Math.floor(x / 60) + ":" + String(Math.round(x % 60)).padStart(2, "0"));
  const clock = (t) => (t === null ? "–" : new Date(t * 1000).toLocaleTimeString([], {
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
      const now = a.kind === "call" ? "Auction" : "Play";
      if (now !== phase) {
        phase = now;
        rows.push(el("tr", { class: "phase" }, el("td", { colspan: "8" }, now)));
      }
      const mine = marks.get(a.index) || [];
      const think = a.think || 0;
      const track = el("div", { class: "bar-track" },
        a.stop_wait ? bar("bar-stop", 0, a.stop_wait / longest, "STOP wait") : null,
        bar("bar-think", a.stop_wait / longest, Math.max(0.003, think / longest), null));
      rows.push(el("tr", { class: mine.length ? "marked" : null,
        dataset: { index: String(a.index), marks: mine.map((m) => m.kind).join(" ") } },
        el("td", { class: "num" }, String(a.index)),
        el("td", {}, SEAT_NAMES[a.seat] + (a.player !== a.seat ? " (by " + a.player + ")" : "")),
        el("td", {}, a.item + (a.stop ? " STOP" : "")),
        el("td", {}, clock(a.at)),
        el("td", { class: "num" }, secs(a.think)),
        el("td", { class: "num dim" }, a.stop_wait ? "+" + secs(a.stop_wait) + " stop" : ""),
        el("td", { class: "num dim" }, "±" + a.precision.toFixed(1) + " " + a.source),
        el("td", { class: "bar" }, track,
          mine.map((m) => el("div", { class: "mark" }, m.detail + " (" + m.law + ")")))));
    }
    return el("table", { class: "timeline", id: "timeline" },
      el("thead", {}, el("tr", {}, ["#", "Seat", "Call / card", "At", "Think", "", "Precision",
        "Time"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows));
  }

  function attachForm(view) {
    const alertId = query.get("alert");
    if (!alertId) return null;
    const text = el("textarea", { id: "attach-text", rows: "2",
      placeholder: "Ruling (the timeline's reference is added)" });
    const message = el("div", { class: "message", id: "attach-message" });
    const button = el("button", { class: "button primary", type: "button", id: "attach",
      onclick: () => {
        fetch("/api/tempo/attach", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
          body: JSON.stringify({ alert: alertId, table: view.table, board: view.board,
            text: text.value }),
        }).then((r) => r.json()).then((res) => {
          message.textContent = res.ok ? "Attached to the ruling of " + alertId + ": " +
            res.reference : "Refused: " + res.error;
          message.className = "message" + (res.ok ? "" : " error");
        });
      } }, "Attach to the ruling");
    return el("div", {}, el("h3", {}, "Attach to the ruling of " + alertId),
      el("div", { class: "attach" }, text, button), message);
  }

  function showTimeline(table, board) {
    const panel = $("timeline-panel");
    get("/api/tempo/board/" + encodeURIComponent(table) + "/" + encodeURIComponent(board))
      .then(({ status, data }) => {
        panel.hidden = false;
        if (status !== 200) {
          panel.replaceChildren(el("p", { class: "empty" }, data.error || "No timeline"));
          return;
        }
        const sides = data.side_seconds;
        panel.replaceChildren(
          el("h2", {}, "Table " + data.table + " · board " + data.board,
            el("span", { class: "dim" }, "round " + (data.round ?? "–") + " · NS " +
              (data.ns ?? "–") + " · EW " + (data.ew ?? "–") + " · " + minutes(data.seconds) +
              " at the table (NS " + minutes(sides.NS) + ", EW " + minutes(sides.EW) + ")")),
          el("p", { class: "dim", id: "mark-count" }, data.marks.length + " mark(s)"),
          timeline(data),
          attachForm(data),
          el("p", { class: "ref", id: "reference" }, data.reference));
        document.body.dataset.ready = "timeline";
      });
  }

  // Slow play -------------------------------------------------------------------------------
  function showSlow() {
    get("/api/tempo/slow").then(({ status, data }) => {
      const panel = $("slow-panel");
      if (status !== 200) {
        panel.replaceChildren(el("p", { class: "empty" }, data.error || "No data"));
        return;
      }
      const boards = data.boards.map((b) => el("tr", {
        class: b.over ? "over" : null, dataset: { table: b.table, board: String(b.board) } },
        el("td", {}, b.table), el("td", {}, String(b.round ?? "–")),
        el("td", {}, el("a", { href: "/tempo?table=" + encodeURIComponent(b.table) +
          "&board=" + b.board }, "Board " + b.board)),
        el("td", { class: "num" + (b.over ? " over" : "") }, minutes(b.seconds)),
        el("td", { class: "num" }, minutes(b.allowance)),
        el("td", { class: "num" }, "NS " + (b.pairs.NS ?? "–") + " " + minutes(b.sides.NS)),
        el("td", { class: "num" }, "EW " + (b.pairs.EW ?? "–") + " " + minutes(b.sides.EW)),
        el("td", { class: "over" }, b.slow_sides.join(", "))));
      const pairs = data.pairs.map((p) => el("tr", { class: p.over ? "over" : null },
        el("td", {}, "Pair " + p.pair), el("td", { class: "num" }, minutes(p.seconds)),
        el("td", { class: "num" }, minutes(p.share)), el("td", { class: "num" },
          String(p.boards))));
      panel.replaceChildren(
        el("h2", {}, "Slow play", el("span", { class: "dim" }, "Law " + data.law + " · " +
          data.minutes_per_round + " minutes a round · slow tables: " +
          (data.slow_tables.join(", ") || "none"))),
        el("table", { class: "timeline slow", id: "slow" },
          el("thead", {}, el("tr", {}, ["Table", "Round", "Board", "Time", "Allowance", "NS",
            "EW", "Over their share"].map((h) => el("th", {}, h)))),
          el("tbody", {}, boards)),
        el("h3", {}, "Pairs"),
        el("table", { class: "timeline slow", id: "slow-pairs" },
          el("thead", {}, el("tr", {}, ["Pair", "Time", "Share", "Boards"].map(
            (h) => el("th", {}, h)))),
          el("tbody", {}, pairs)));
      if (!query.get("table")) document.body.dataset.ready = "slow";
    });
  }

  get("/api/session").then(({ data }) => {
    session.csrf = data.csrf || "";
    if (query.get("table") && query.get("board")) showTimeline(query.get("table"),
      query.get("board"));
    showSlow();
  });
})();
