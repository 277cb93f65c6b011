// Tenace director console: the room map, the alert feed (with a sound), an alert's detail with
// the board drawn as a diagram, and the round clock. Live over Server-Sent Events
// (/api/events), commands posted to /api/director. Plain JS: no framework, nothing loaded
// from elsewhere. Every text from the hub goes in through textContent, never as HTML; every
// text of the page's own is t(key, params) of i18n.js, drawn again when the language changes.
"use strict";

(function () {
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const RANKS = "AKQJT98765432";
  const STATUSES = ["waiting", "bidding", "playing", "finished", "late", "alert", "offline"];
  const VOID_CALLS = new Set(["cancelled", "withdrawn"]);

  const state = {
    tables: new Map(),     // id -> table overview
    alerts: new Map(),     // id -> alert summary
    clock: null,
    offset: 0,             // hub time - browser time, seconds
    known: null,           // alert ids already seen (null before the first overview)
    selected: null,        // alert id shown in the detail panel
    table: null,           // table id the feed is filtered on
    detail: null,          // the full alert shown
    live: null,            // the selected table's board live (GET /api/table/{id})
    fresh: new Set(),
    tiles: new Map(),
  };
  window.tenaceBeeps = 0;  // alerts announced (tests read it; the sound itself may be blocked)

  const { $, el } = window.tenaceDom;

  function fill(node, ...children) {   // replaceChildren, leaving out what is not there
    node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
  }

  const hubNow = () => Date.now() / 1000 + state.offset;
  const human = (kind) => (kind || "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const tr = t;   // where a table is called t
  const known = (key, fallback) => { const text = t(key); return text === key ? fallback : text; };
  const seatName = (seat) => known("seat." + seat, seat);
  const statusText = (status) => known("status." + status, status);
  const kindName = (kind) => known("kind." + kind, human(kind));
  const alertStatus = (status) => known("alert." + status, status);

  function clockTime(t) {
    if (t === null || t === undefined) return "–";
    return new Date(t * 1000).toLocaleTimeString(tenaceI18n.locale(), {
      hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
    });
  }

  // Sound ---------------------------------------------------------------------------------
  let audio = null;

  function audioContext() {
    if (audio === null) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      try { audio = new Ctx(); } catch (err) { return null; }
    }
    if (audio.state === "suspended") audio.resume().then(showSound, () => {});
    return audio;
  }

  function tone(ctx, start, freq) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "square";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + 0.2);
  }

  function beep() {
    window.tenaceBeeps += 1;
    try {
      const ctx = audioContext();
      if (ctx && ctx.state === "running") {
        tone(ctx, ctx.currentTime, 880);
        tone(ctx, ctx.currentTime + 0.25, 1175);
      }
    } catch (err) { /* the browser may refuse sound before a gesture: the list still shows */ }
    showSound();
  }

  function showSound() {
    const on = audio !== null && audio.state === "running";
    const button = $("sound");
    button.textContent = on ? t("console.sound_on") : t("console.sound_off");
    button.classList.toggle("off", !on);
  }

  function unlockSound() {
    const ctx = audioContext();
    if (ctx && ctx.state === "running") showSound();
  }

  // Live feed -----------------------------------------------------------------------------
  let source = null;

  function connect() {
    source = new EventSource("/api/events");
    source.addEventListener("open", () => setLink(true));
    source.addEventListener("error", () => {
      setLink(false);
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        setTimeout(() => {        // the session ended: log in again; else reconnect
          fetch("/api/session", { cache: "no-store" })
            .then((r) => (r.status === 401 ? toLogin() : connect()), connect);
        }, 3000);
      }
    });
    source.addEventListener("room", (ev) => onRoom(JSON.parse(ev.data)));
    source.addEventListener("table", (ev) => onTable(JSON.parse(ev.data)));
    source.addEventListener("alert", (ev) => onAlert(JSON.parse(ev.data)));
    source.addEventListener("clock", (ev) => onClock(JSON.parse(ev.data)));
    source.addEventListener("hub", (ev) => renderHub(JSON.parse(ev.data)));
  }

  function setLink(up) {
    const link = $("link");
    link.textContent = up ? t("console.live") : t("console.reconnecting");
    link.dataset.up = up ? "yes" : "no";
    link.className = "link " + (up ? "up" : "down");
  }

  function onRoom(room) {
    state.tables = new Map(room.tables.map((t) => [t.id, t]));
    // Kept oldest first (the overview lists them newest first): new ones go at the end.
    state.alerts = new Map(room.alerts.slice().reverse().map((a) => [a.id, a]));
    const first = state.known === null;
    let fresh = false;
    if (first) state.known = new Set();
    for (const a of room.alerts) {
      if (!state.known.has(a.id)) {
        state.known.add(a.id);
        if (!first && a.status !== "resolved") { fresh = true; state.fresh.add(a.id); }
      }
    }
    onClock(room.clock);
    if (room.hub) renderHub(room.hub);
    renderMap();
    renderFeed();
    if (fresh) beep();
    refreshDetail();
  }

  function onTable(table) {
    state.tables.set(table.id, table);
    renderTile(table);
    renderSummary();
    if (state.table === table.id && state.selected === null) renderTablePanel();
    else if (state.table === table.id) loadLive(table.id);
  }

  function onAlert(alert) {
    const isNew = state.known !== null && !state.known.has(alert.id);
    if (state.known !== null) state.known.add(alert.id);
    state.alerts.set(alert.id, alert);
    if (isNew && alert.status !== "resolved") state.fresh.add(alert.id);
    renderFeed();
    if (isNew && alert.status !== "resolved") beep();
    if (state.selected === alert.id) refreshDetail();
  }

  function onClock(clock) {
    state.clock = clock;
    state.offset = clock.hub_time - Date.now() / 1000;
    renderClock();
    renderRoundButton();
  }

  // The round clock -----------------------------------------------------------------------
  // What the room is really doing, from the tables (hub.console_views.rounds): "Rounds 6-9
  // in play; round 5 finished", then the time left of the clock's round (started by the
  // first table to start a board of it, or by the director).
  function roundsText(clock) {
    const playing = clock.in_play || [];
    const parts = [];
    if (playing.length === 1) parts.push(t("rounds.one", { round: playing[0] }));
    else if (playing.length > 1) {
      parts.push(t("rounds.many", { first: playing[0], last: playing[playing.length - 1] }));
    }
    if (clock.finished) {
      parts.push(t(parts.length ? "rounds.finished" : "rounds.all_finished",
        { round: clock.finished }));
    }
    if (!parts.length) {
      return clock.round ? t("console.round", { round: clock.round }) : t("console.round_none");
    }
    return parts.join("; ");
  }

  function renderClock() {
    const clock = state.clock;
    const box = $("clock");
    if (!clock) {
      $("clock-round").textContent = t("console.round_none");
      $("clock-left").textContent = t("console.not_started");
      box.className = "clock";
      return;
    }
    $("clock-round").textContent = roundsText(clock);
    $("clock-round").dataset.round = String(clock.round);
    // every table has finished the movement's last round: no round's minutes to count
    const done = Boolean(clock.last) && clock.finished >= clock.last;
    $("clock-which").textContent = clock.round && !done
      ? t("rounds.clock", { round: clock.round }) : "";
    if (done) {
      $("clock-left").textContent = "\u2013";
      box.className = "clock";
      return;
    }
    if (!clock.round || clock.deadline === null) {
      $("clock-left").textContent = clock.round ? "--:--" : t("console.not_started");
      box.className = "clock";
      return;
    }
    const left = clock.deadline - hubNow();
    const secs = Math.floor(Math.abs(left));
    const text = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0");
    $("clock-left").textContent = left >= 0 ? text : t("console.over", { time: text });
    box.className = "clock" + (left < 0 ? " over" : left < 120 ? " low" : "");
  }

  function nextRound() {
    return state.clock && state.clock.round ? state.clock.round + 1 : 1;
  }

  // No round after the movement's last (clock.last): the button says the round is the last.
  function renderRoundButton() {
    const clock = state.clock || {};
    const over = clock.last && nextRound() > clock.last;
    $("round-start").textContent = over ? t("console.last_round", { round: clock.last })
      : t("console.start_round_n", { round: nextRound() });
    $("round-start").disabled = Boolean(over);
  }

  // One click starts the round the button names. When tables have not finished the clock's
  // round, the director is asked first (they will be reported late); an answer "no" leaves
  // everything as it was, and says so.
  function onRoundStart() {
    const round = nextRound();
    const clock = state.clock || {};
    if (clock.round && clock.behind > 0 && !window.confirm(plural("rounds.confirm",
      clock.behind, { round: clock.round, next: round }))) {
      return;
    }
    post({ op: "round_start", round: round }).then((result) => {
      if (!result.ok) {
        window.alert(t("console.round_refused", { round: round, error: result.error }));
      }
    });
  }

  // The room map --------------------------------------------------------------------------
  function renderMap() {
    const map = $("map");
    map.replaceChildren();
    state.tiles.clear();
    for (const table of state.tables.values()) renderTile(table);
    renderSummary();
  }

  function renderTile(t) {
    const info = [];
    if (t.board !== null) info.push(tr("console.board", { board: t.board }));
    info.push(tr("console.round", { round: t.round }));
    const lines = [el("div", { class: "info" }, info.join(" · "))];
    if (t.pairs.NS !== null || t.pairs.EW !== null) {
      lines.push(el("div", { class: "info" }, tr("console.pairs",
        { ns: t.pairs.NS ?? "–", ew: t.pairs.EW ?? "–" })));
    }
    if (t.contract && t.phase === "play") {
      lines.push(el("div", { class: "info" }, contractText(t.contract) + " " +
        known("letter." + t.declarer, t.declarer)));
    }
    if (t.boards.length) {
      lines.push(el("div", { class: "info" }, tr("console.boards_done",
        { done: t.done, total: t.boards.length })));
    }
    if (t.devices.offline.length) {
      lines.push(el("div", { class: "info" }, tr("console.offline",
        { devices: t.devices.offline.join(", ") })));
    }
    const tile = el("div", {
      class: "tile s-" + t.status + (state.table === t.id ? " selected" : ""),
      tabindex: "0", role: "button", id: "tile-" + t.id,
      dataset: { table: t.id, status: t.status },
      onclick: () => selectTable(t.id),
      onkeydown: (ev) => { if (ev.key === "Enter") selectTable(t.id); },
    },
    el("div", { class: "name" }, t.id,
      t.alerts ? el("span", { class: "badge", title: tr("console.alerts_open") },
        String(t.alerts)) : null),
    el("div", { class: "state" }, statusText(t.status)),
    lines);
    const old = state.tiles.get(t.id);
    if (old && old.parentNode) old.replaceWith(tile);
    else $("map").append(tile);
    state.tiles.set(t.id, tile);
  }

  function renderSummary() {
    const counts = {};
    for (const t of state.tables.values()) counts[t.status] = (counts[t.status] || 0) + 1;
    // "3 tables playing · 1 table late": each status's count in the language's plural form
    // (tally.waiting, tally.bidding, tally.playing, tally.finished, tally.late, tally.alert,
    // tally.offline).
    $("map-summary").textContent = STATUSES
      .filter((s) => counts[s]).map((s) => plural("tally." + s, counts[s]))
      .join(" · ");
  }

  // The hub's counters (hub/status) and what it found wrong with its log ------------------
  // A refusal's reason code in words: its counter.* label, else its refusal.* text when that
  // is a word and not a sentence with fields to fill, else the code with spaces.
  function refusedLabel(code) {
    const label = known("counter." + code, "");
    if (label) return label;
    const text = known("refusal." + code, "");
    return text && !text.includes("{") ? text : code.replace(/_/g, " ");
  }

  function renderHub(status) {
    const c = status.counters || {};
    const refused = Object.entries(c.refused || {})
      .map(([code, n]) => refusedLabel(code) + " " + n);
    const parts = [
      t("hub.events", { n: c.accepted || 0 }), t("hub.duplicates", { n: c.duplicates || 0 }),
      t("hub.refused", { n: refused.length ? refused.join(", ") : "0" }),
      t("hub.gaps", { n: c.gaps || 0 }), t("hub.queue", { n: c.queue || 0 }),
      t("hub.devices", { n: c.devices || 0 })];
    if (status.chain_broken) parts.push(t("hub.chain_broken", { at: status.chain_broken }));
    if (status.set_aside) parts.push(t("hub.set_aside", { records: status.set_aside.join(", ") }));
    if (status.log_behind) parts.push(plural("hub.log_lost", status.log_behind));
    $("hub-counters").textContent = t("hub.line", { parts: parts.join(" · ") });
    state.hub = status;
  }

  function renderLegend() {
    $("legend").replaceChildren(...STATUSES.map(
      (s) => el("span", { class: "s-" + s }, statusText(s))));
  }

  function selectTable(id) {
    state.table = state.table === id ? null : id;
    for (const [tid, tile] of state.tiles) tile.classList.toggle("selected", tid === state.table);
    renderFeed();
    if (state.table !== null) {
      state.selected = null;
      state.detail = null;
      renderTablePanel();
    } else if (state.selected === null) {
      $("detail").hidden = true;
    }
  }

  function renderTablePanel() {
    const t = state.tables.get(state.table);
    const panel = $("detail");
    if (!t) { panel.hidden = true; return; }
    const message = el("div", { class: "message" });
    fill(panel,
      el("div", { class: "detail-head" },
        el("h2", {}, tr("console.table", { table: t.id }),
          el("span", { class: "dim" }, statusText(t.status))),
        el("button", { class: "button quiet close", type: "button", onclick: closeDetail },
          tr("console.close"))),
      el("p", { class: "detail-text" },
        (t.board !== null ? tr("console.board", { board: t.board }) + " · " : "") +
        tr("console.round", { round: t.round }) + " · " +
        tr("console.pairs", { ns: t.pairs.NS ?? "–", ew: t.pairs.EW ?? "–" }) + " · " +
        tr("console.table_line", { done: t.done, total: t.boards.length,
          online: t.devices.online })),
      el("div", { class: "actions" },
        el("span", {}, tr("console.mode", { mode: t.strict ? tr("console.mode_strict") :
          tr("console.mode_box") })),
        el("span", {}),
        el("button", {
          class: "button", type: "button", id: "table-mode",
          onclick: () => command({ op: "table_mode", table: t.id, strict: !t.strict }, message),
        }, t.strict ? tr("console.to_box") : tr("console.to_strict"))),
      tempoLink(t.id, t.board, null),
      el("div", { class: "actions" },
        el("span", {}, tr("console.readers", { errors: Object.keys(t.readers || {}).length === 0
          ? tr("console.no_error") : Object.entries(t.readers).map(([seat, counts]) =>
            known("letter." + seat, seat) + " " + Object.entries(counts).map(([k, n]) =>
              known("reader." + k, k) + " " + n).join(", ")).join(" · ") }) +
          (t.tapping_only ? tr("console.tapping_note") : "")),
        el("span", {}),
        el("button", {
          class: "button", type: "button", id: "tapping-only",
          onclick: () => command({ op: "table_mode", table: t.id,
                                   tapping_only: !t.tapping_only }, message),
        }, t.tapping_only ? tr("console.use_readers") : tr("console.tapping_only"))),
      liveBox(t.id),
      message,
      rulingForm(t.id, t.board, null));
    panel.hidden = false;
    loadLive(t.id);
  }

  // The table's board live (GET /api/table/{id}, hub.console_table): fetched again at each
  // "table" event of the feed while the table's panel is open; only its own box is redrawn.
  let liveAsked = null;      // the table whose board is being fetched
  let liveAgain = false;     // a change came while fetching: fetch once more after
  let liveKeep = null;       // another shard's table: asked again every minute while open,
                             // so that the hub keeps following it (hub.sharding)

  function loadLive(id) {
    if (liveAsked === id) { liveAgain = true; return; }
    liveAsked = id;
    fetch("/api/table/" + encodeURIComponent(id), { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null)).then((data) => {
        liveAsked = null;
        if (data && data.table === id) state.live = data;
        if (liveKeep !== null) clearTimeout(liveKeep);
        liveKeep = data && data.remote ? setTimeout(() => {
          liveKeep = null;
          if (state.table === id) loadLive(id);
        }, 60000) : null;
        const box = $("live-table");
        if (box && state.table === id) box.replaceWith(liveBox(id));
        if (liveAgain) { liveAgain = false; if (state.table === id) loadLive(id); }
      }, () => { liveAsked = null; });
  }

  function cardText(card) {
    return el("span", { class: "sym-" + card[0] }, window.tenaceI18n.card(card));
  }

  function liveBox(id) {
    const live = state.live && state.live.table === id ? state.live : null;
    const box = el("div", { class: "live", id: "live-table" },
      el("h3", {}, t("live.title")));
    if (!live) return box;
    if (live.board === null) {
      box.append(el("p", { class: "dim" }, t("live.none")));
      return box;
    }
    box.dataset.board = String(live.board);
    box.append(el("p", { class: "detail-text" }, t("live.board", { board: live.board,
      dealer: seatName(live.dealer), vul: known("vul." + live.vulnerability,
        live.vulnerability) })));
    box.append(el("p", { class: "turn", id: "live-turn" }, live.over ? t("live.over")
      : live.turn ? t("live.turn", { seat: seatName(live.turn),
        what: live.phase === "auction" ? t("live.to_call") : t("live.to_play") }) : ""));
    const auction = auctionTable({ dealer: live.dealer, auction: live.auction.map((e) =>
      [e.seat, e.call, null, e.alert, e.status]) }, { call: null });
    auction.id = "live-auction";
    live.auction.forEach((e, i) => {      // an alert's explanation on its call
      const cell = auction.querySelector("td[data-index='" + (i + 1) + "']");
      if (cell && e.alert) {
        cell.title = t("live.alerted") + (e.explanation ? ": " + e.explanation : "");
        if (e.explanation) cell.append(el("div", { class: "explain" }, e.explanation));
      }
    });
    box.append(auction);
    if (live.contract) {
      box.append(el("div", { class: "contract" }, live.contract === "PASS"
        ? t("console.passed_out") : [t("console.contract") + " ",
          el("strong", {}, contractText(live.contract)),
          live.declarer ? " " + t("console.by", { seat: seatName(live.declarer) }) : ""]));
    }
    if (live.tricks.length) {
      const rows = live.tricks.map((trick) => {
        const cards = Object.fromEntries(trick.cards.map(([seat, card]) => [seat, card]));
        return el("tr", { dataset: { trick: String(trick.number) } },
          el("td", { class: "dim" }, String(trick.number)),
          SEATS.map((seat) => el("td", {
            class: [seat === trick.leader ? "lead" : "", seat === trick.winner ? "win" : ""]
              .join(" ").trim() || null,
            title: seat === trick.leader ? t("live.lead") : (seat === trick.winner
              ? t("live.won", { seat: seatName(seat) }) : null),
          }, cards[seat] ? cardText(cards[seat]) : "")));
      });
      box.append(el("table", { class: "play", id: "live-tricks" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), SEATS.map((s) => el("th", {}, seatName(s))))),
        el("tbody", {}, rows)));
    }
    if (live.won) {
      box.append(el("p", { class: "dim", id: "live-won" }, t("live.tricks",
        { ns: live.won.NS, ew: live.won.EW })));
    }
    return box;
  }

  // The alert feed ------------------------------------------------------------------------
  function renderFeed() {
    const feed = $("feed");
    const all = [...state.alerts.values()].reverse();   // newest first
    const open = all.filter((a) => a.status !== "resolved");
    const shown = [...open, ...all.filter((a) => a.status === "resolved")]
      .filter((a) => state.table === null || a.table === state.table);
    feed.replaceChildren(...shown.map(feedItem));
    if (!shown.length) feed.append(el("li", { class: "empty" }, t("console.no_alert")));
    $("feed-count").textContent = plural("console.open", open.length) +
      (state.table !== null ? " · " + t("console.feed_table", { table: state.table }) : "");
    $("feed-all").hidden = state.table === null;
    document.title = (open.length ? "(" + open.length + ") " : "") + t("console.title");
  }

  function whereOf(a) {
    const where = [t("console.table", { table: a.table })];
    if (a.board !== null) where.push(t("console.at_board", { board: a.board }));
    if (a.round !== null) where.push(t("console.at_round", { round: a.round }));
    if (a.seats.length) where.push(a.seats.map(seatName).join(", "));
    return where;
  }

  function feedItem(a) {
    const where = whereOf(a);
    const times = [t("console.detected", { time: clockTime(a.detected) })];
    if (a.occurred !== null) {
      times.unshift(t("console.occurred", { time: clockTime(a.occurred) }));
    }
    if (a.acknowledged_at !== null) {
      times.push(t("console.acknowledged", { time: clockTime(a.acknowledged_at) }));
    }
    const item = el("li", {
      class: a.status + (state.selected === a.id ? " selected" : "") +
        (state.fresh.has(a.id) ? " fresh" : ""),
      tabindex: "0", id: "alert-" + a.id, dataset: { alert: a.id, status: a.status },
      onclick: () => selectAlert(a.id),
      onkeydown: (ev) => { if (ev.key === "Enter") selectAlert(a.id); },
    },
    el("div", { class: "top" },
      el("span", { class: "kind" }, kindName(a.kind),
        a.law ? el("span", { class: "dim" }, " · " + t("console.law", { law: a.law })) : null),
      el("span", { class: "chip " + a.status }, alertStatus(a.status))),
    el("div", { class: "where" }, where.join(" · ")),
    el("div", { class: "times" }, times.join(" · ")));
    return item;
  }

  function selectAlert(id) {
    state.selected = id;
    state.fresh.delete(id);
    for (const node of $("feed").children) {
      node.classList.toggle("selected", node.dataset.alert === id);
      if (node.dataset.alert === id) node.classList.remove("fresh");
    }
    refreshDetail();
  }

  function closeDetail() {
    state.selected = null;
    state.detail = null;
    state.table = null;
    $("detail").hidden = true;
    for (const tile of state.tiles.values()) tile.classList.remove("selected");
    renderFeed();
  }

  let fetching = 0;

  function refreshDetail() {
    if (state.selected === null) {
      if (state.table !== null) renderTablePanel();
      return;
    }
    const id = state.selected;
    const ticket = ++fetching;
    fetch("/api/alert/" + encodeURIComponent(id), { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((alert) => {
        if (ticket !== fetching || state.selected !== id) return;
        if (alert === null) { $("detail").hidden = true; return; }
        state.detail = alert;
        renderDetail(alert);
      })
      .catch(() => {});
  }

  // The alert in full ---------------------------------------------------------------------
  function renderDetail(a) {
    const ev = a.evidence || {};
    const panel = $("detail");
    const message = el("div", { class: "message", id: "action-message" });
    const ruleText = el("textarea", { id: "rule-text", rows: "2",
      placeholder: t("console.ruling_placeholder") });
    const resolveText = el("textarea", { id: "resolve-text", rows: "1",
      placeholder: t("console.note_placeholder") });
    const closed = a.status === "resolved";
    const where = whereOf(a);
    if (a.call !== null) where.push(t("console.at_call", { call: a.call }));
    if (a.trick !== null) where.push(t("console.at_trick", { trick: a.trick }));
    const explain = known("explain." + a.kind, null);

    fill(panel,
      el("div", { class: "detail-head" },
        el("h2", {}, kindName(a.kind),
          el("span", { class: "law" }, a.law ? t("console.law", { law: a.law }) : ""),
          el("span", { class: "chip " + a.status, id: "detail-status" }, alertStatus(a.status))),
        el("button", { class: "button quiet close", type: "button", onclick: closeDetail },
          t("console.close"))),
      el("div", { class: "where" }, where.join(" · ")),
      explain ? el("p", { class: "detail-explain dim", id: "detail-explain" }, explain) : null,
      el("p", { class: "detail-text", id: "detail-text" },
        a.text ? tenaceI18n.text(a.text) : a.detail),
      el("div", { class: "detail-grid" },
        el("div", {}, el("h3", {}, t("console.h_board")), diagram(ev, a)),
        el("div", {}, el("h3", {}, t("console.h_auction")), contractLine(ev),
          auctionTable(ev, a)),
        el("div", {}, el("h3", {}, t("console.h_play")), playTable(ev, a))),
      el("h3", { style: null }, t("console.h_options")),
      optionsList(a.options || []),
      factsLine(a.facts || {}),
      el("div", { class: "stamp" }, stamps(a)),
      tempoLink(a.table, a.board, a.id),
      allowBoard(a, message),
      awardDeprived(a, message),
      a.ruling ? el("div", { class: "stamp" }, t("console.ruling_is", { text: a.ruling.text }))
        : null,
      el("div", { class: "actions" },
        el("button", {
          class: "button primary", type: "button", id: "do-acknowledge",
          disabled: a.status !== "open",
          onclick: () => command({ op: "acknowledge", id: a.id }, message),
        }, t("console.acknowledge")),
        el("span", { class: "dim" }, a.acknowledged_at !== null
          ? t("console.attention", { time: clockTime(a.acknowledged_at) })
          : t("console.records_time")),
        el("span", {}),
        el("span", {}, t("console.ruling")), ruleText,
        el("button", {
          class: "button", type: "button", id: "do-rule", disabled: closed,
          onclick: () => {
            if (!ruleText.value.trim()) { say(message, t("console.write_first"), true); return; }
            command({ op: "rule", id: a.id, text: ruleText.value }, message);
          },
        }, t("console.rule")),
        el("span", {}, t("console.close")), resolveText,
        el("button", {
          class: "button danger", type: "button", id: "do-resolve", disabled: closed,
          onclick: () => {
            const cmd = { op: "resolve", id: a.id };
            if (resolveText.value.trim()) cmd.text = resolveText.value;
            command(cmd, message);
          },
        }, t("console.resolve"))),
      message,
      rulingForm(a.table, a.board, a.id));
    panel.hidden = false;
  }

  // A board not this table's this round is withheld there until the director allows it
  // (docs/protocol.md section 8): the command is logged with his name.
  function allowBoard(a, message) {
    if (a.kind !== "wrong_board" || !(a.facts || {}).withheld) return null;
    return el("div", { class: "actions" }, el("button", {
      class: "button", type: "button", id: "do-allow-board",
      onclick: () => command({ op: "allow_board", table: a.table, board: a.board,
                               round: a.round }, message),
    }, t("console.allow_board", { board: a.board })));
  }

  // Law 15B: a pair playing a board again at a table where the other pair had not played it;
  // once that play is over and cancelled, the other pair is owed an artificial score: A+
  // for its side alone in one step (the hub refuses it, saying why, before then).
  function awardDeprived(a, message) {
    const facts = a.facts || {};
    if (a.kind !== "board_already_played" || !facts.deprived_side) return null;
    return el("div", { class: "actions" }, el("button", {
      class: "button", type: "button", id: "do-award-15b",
      onclick: () => command({ op: "ruling", kind: "artificial", table: a.table, board: a.board,
        round: a.round, [facts.deprived_side.toLowerCase()]: "A+", alert: a.id,
        text: t("results.award_text", { pair: facts.deprived }) }, message),
    }, t("results.award", { pair: facts.deprived })));
  }

  function stamps(a) {
    const out = [];
    const at = (key, time) => out.push(t(key, { time: clockTime(time) }));
    if (a.occurred !== null) at("console.occurred", a.occurred);
    at("console.detected", a.detected);
    if (a.acknowledged_at !== null) at("console.acknowledged", a.acknowledged_at);
    if (a.ruled_at !== null) at("console.ruled", a.ruled_at);
    if (a.resolved_at !== null) at("console.resolved", a.resolved_at);
    out.push(t("console.version", { version: a.version }));
    return out.join(" · ");
  }

  // An option in the director's language from its text (a rect.* key and its values: the
  // seats and calls in his notation); an option without one, or with a key this catalog
  // lacks, shows its English words.
  function optionText(o) {
    const said = o.say ? tenaceI18n.text(o.say) : "";
    return said && said !== o.say.key ? said : o.text;
  }

  function optionsList(options) {
    if (!options.length) return el("p", { class: "empty" }, t("console.no_options"));
    return el("ul", { class: "options" }, options.map((o) => el("li", {},
      el("span", { class: "law" }, o.law), optionText(o),
      o.chooser ? el("span", { class: "dim" }, " (" + known("chooser." + o.chooser, o.chooser) +
        ")") : null)));
  }

  function factsLine(facts) {
    const keys = Object.keys(facts).filter((k) => !["kind", "law", "detail"].includes(k));
    if (!keys.length) return null;
    const text = (k) => {
      const v = facts[k];
      // Times are seconds since the epoch: show them as the clock does.
      return k + ": " + (typeof v === "number" && v > 1e9 ? clockTime(v) : JSON.stringify(v));
    };
    return el("div", { class: "facts" }, keys.map(text).join(" · "));
  }

  // The board as a diagram ----------------------------------------------------------------
  function parseDeal(pbn) {
    // "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 ..." -> {N: {S: "AKQJ", ...}, ...}
    const m = /^([NESW]):(.*)$/.exec((pbn || "").trim());
    if (!m) return null;
    const hands = m[2].trim().split(/\s+/);
    if (hands.length !== 4) return null;
    const out = {};
    let seat = SEATS.indexOf(m[1]);
    for (const hand of hands) {
      const suits = hand === "-" ? null : hand.split(".");
      out[SEATS[seat]] = suits && suits.length === 4
        ? { S: suits[0], H: suits[1], D: suits[2], C: suits[3] } : null;
      seat = (seat + 1) % 4;
    }
    return out;
  }

  function handsRead(read) {
    const out = {};
    for (const [seat, cards] of Object.entries(read || {})) {
      const hand = { S: "", H: "", D: "", C: "", other: [] };
      for (const card of cards) {
        if (/^[SHDC][AKQJT2-9]$/.test(card)) hand[card[0]] += card[1];
        else hand.other.push(card);
      }
      for (const s of SUITS) {
        hand[s] = [...hand[s]].sort((x, y) => RANKS.indexOf(x) - RANKS.indexOf(y)).join("");
      }
      out[seat] = hand;
    }
    return out;
  }

  const rankText = (r) => window.tenaceI18n.rank(r);

  function cardNode(card) {
    return el("span", {}, el("span", { class: "sym-" + card[0] }, SYMBOLS[card[0]] || card[0]),
      rankText(card.slice(1)));
  }

  function diagram(ev, a) {
    let hands = parseDeal(ev.deal);
    let source = t("console.hand_record");
    if (!hands && ev.hands_read && Object.keys(ev.hands_read).length) {
      hands = handsRead(ev.hands_read);
      source = t("console.cards_read");
    }
    if (ev.board === undefined) return el("p", { class: "empty" }, t("console.no_board"));
    const played = new Set((ev.play || []).map((p) => p[1]));
    const seats = new Set(a.seats || []);
    const box = el("div", { class: "diagram", id: "diagram" });
    for (const seat of SEATS) {
      const hand = hands ? hands[seat] : null;
      const node = el("div", { class: "hand " + seat + (seats.has(seat) ? " highlight" : ""),
        dataset: { seat: seat } },
      el("div", { class: "seat" }, seatName(seat) + pairOf(ev, seat)));
      if (!hand) {
        node.append(el("div", { class: "empty" }, t("console.not_known")));
      } else {
        for (const s of SUITS) {
          const ranks = [...(hand[s] || "")];
          node.append(el("div", { class: "line", dataset: { suit: s } },
            el("span", { class: "sym-" + s }, SYMBOLS[s] + " "),
            ranks.length ? ranks.map((r) => el("span", {
              class: played.has(s + r) ? "played" : null }, rankText(r))) : "–"));
        }
        if (hand.other && hand.other.length) {
          node.append(el("div", { class: "line alerted" },
            t("console.read", { cards: hand.other.join(" ") })));
        }
      }
      box.append(node);
    }
    box.append(el("div", { class: "centre" },
      el("strong", {}, t("console.board", { board: ev.board })),
      el("span", {}, t("console.dealer", { seat: ev.dealer ? seatName(ev.dealer) : "–" })),
      el("span", {}, t("console.vul", { vul: ev.vulnerability
        ? known("vul." + ev.vulnerability, ev.vulnerability) : "–" })),
      el("span", { class: "dim" }, source)));
    return box;
  }

  function pairOf(ev, seat) {
    const pairs = ev.pairs || {};
    const pair = seat === "N" || seat === "S" ? pairs.NS : pairs.EW;
    return pair === null || pair === undefined ? "" : " · " + t("console.pair", { pair: pair });
  }

  const contractText = (contract) => window.tenaceI18n.call(contract || "");

  function declarerOf(auction) {
    const live = (auction || []).filter((e) => !VOID_CALLS.has(e[4]));
    const bids = live.filter((e) => /^[1-7]/.test(e[1]));
    if (!bids.length) return null;
    const last = bids[bids.length - 1];
    const strain = last[1].slice(1);
    const side = "NS".includes(last[0]) ? "NS" : "EW";
    const first = bids.find((e) => e[1].slice(1) === strain && side.includes(e[0]));
    return first ? first[0] : last[0];
  }

  function contractLine(ev) {
    if (ev.board === undefined) return null;
    if (ev.contract) {
      const declarer = declarerOf(ev.auction);
      return el("div", { class: "contract", id: "contract" }, t("console.contract") + " ",
        el("strong", {}, contractText(ev.contract)),
        declarer ? " " + t("console.by", { seat: seatName(declarer) }) : "");
    }
    return el("div", { class: "contract dim", id: "contract" },
      ev.phase === "over" ? t("console.passed_out") : t("console.auction_running"));
  }

  function auctionTable(ev, a) {
    const auction = ev.auction || [];
    if (!auction.length) return el("p", { class: "empty" }, t("console.no_call"));
    const start = SEATS.indexOf(ev.dealer) >= 0 ? SEATS.indexOf(ev.dealer) : 0;
    const order = [0, 1, 2, 3].map((i) => SEATS[(start + i) % 4]);
    const rows = [];
    let row = [null, null, null, null];
    let next = 0;
    auction.forEach((entry, i) => {
      const col = order.indexOf(entry[0]);
      if (col < next) { rows.push(row); row = [null, null, null, null]; }
      const call = entry[1];
      const bid = /^([1-7])(NT|[SHDC])$/.exec(call);
      const cell = el("td", {
        class: [VOID_CALLS.has(entry[4]) ? "void" : "", a.call === i + 1 ? "mark" : ""]
          .join(" ").trim() || null,
        title: entry[4] + (entry[3] ? ", " + t("console.alerted") : ""),
        dataset: { index: String(i + 1) },
      }, bid ? [bid[1], bid[2] === "NT" ? window.tenaceI18n.strain("NT") : el("span",
        { class: "sym-" + bid[2] }, SYMBOLS[bid[2]])] : window.tenaceI18n.call(call),
      entry[3] ? el("span", { class: "alerted" }, "!") : null);
      row[col] = cell;
      next = col + 1;
      if (next === 4) { rows.push(row); row = [null, null, null, null]; next = 0; }
    });
    if (row.some((c) => c !== null)) rows.push(row);
    return el("table", { class: "auction", id: "auction" },
      el("thead", {}, el("tr", {}, order.map((s) => el("th", {}, seatName(s))))),
      el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => c || el("td", {}))))));
  }

  function winnerOf(cards, trump) {
    let best = cards[0];
    for (const c of cards.slice(1)) {
      const [suit, bestSuit] = [c[1][0], best[1][0]];
      if (suit === bestSuit) {
        if (RANKS.indexOf(c[1][1]) < RANKS.indexOf(best[1][1])) best = c;
      } else if (suit === trump) {
        best = c;
      }
    }
    return best;
  }

  function playTable(ev, a) {
    const play = ev.play || [];
    if (!play.length) return el("p", { class: "empty" }, t("console.no_card"));
    const m = /^[1-7](NT|[SHDC])/.exec(ev.contract || "");
    const trump = m && m[1] !== "NT" ? m[1] : null;
    const rows = [];
    for (let i = 0; i < play.length; i += 4) {
      const cards = play.slice(i, i + 4);
      const number = i / 4 + 1;
      const win = cards.length === 4 ? winnerOf(cards, trump) : null;
      const cells = {};
      for (const c of cards) {
        const td = el("td", { class: c === win ? "win" : null,
          title: c === cards[0] ? t("console.lead") : null },
        c === cards[0] ? "\u25B8" : "", cardNode(c[1]));
        if (cells[c[0]]) cells[c[0]].append(" ", ...td.childNodes);
        else cells[c[0]] = td;
      }
      rows.push(el("tr", { class: a.trick === number ? "mark" : null,
        dataset: { trick: String(number) } },
      el("td", { class: "dim" }, String(number)),
      SEATS.map((s) => cells[s] || el("td", {})),
      el("td", { class: "dim" }, win ? known("letter." + win[0], win[0]) : "")));
    }
    return el("table", { class: "play", id: "play" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"),
        SEATS.map((s) => el("th", {}, known("letter." + s, s))), el("th", {}, t("console.won")))),
      el("tbody", {}, rows));
  }

  // Commands ------------------------------------------------------------------------------
  // Every POST carries the session's CSRF token (from /api/session); a session gone sends
  // the page to the login.
  function post(cmd) {
    return fetch("/api/director", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify(cmd),
    }).then((r) => {
      if (r.status === 401) toLogin();
      return r.json();
    }).catch((err) => ({ ok: false, error: String(err) }));
  }

  // The session -----------------------------------------------------------------------------
  const session = { user: null, role: null, csrf: "" };

  function toLogin() {
    location.replace("/login?next=" + encodeURIComponent(location.pathname));
  }

  function logout() {
    if (source) source.close();        // the feed ends with the session
    source = null;
    fetch("/api/logout", { method: "POST", headers: { "X-CSRF-Token": session.csrf } })
      .finally(toLogin);
  }

  function publicSettings() {       // the director's: what /results shows the room
    const boxes = { ranking: $("public-ranking"), names: $("public-names"),
      boards: $("public-boards") };
    let hideLast = 0;      // set on the evening page (/evening): kept when a box changes
    fetch("/api/results", { cache: "no-store" }).then((r) => r.json()).then((data) => {
      const current = data.public || {};
      for (const [name, box] of Object.entries(boxes)) box.checked = current[name] !== false;
      hideLast = current.hide_last_rounds || 0;
      $("public-panel").hidden = false;
    });
    for (const box of Object.values(boxes)) {
      box.addEventListener("change", () => {
        const cmd = { op: "public_results" };
        for (const [name, b] of Object.entries(boxes)) cmd[name] = b.checked;
        if (hideLast) cmd.hide_last_rounds = hideLast;
        say($("public-message"), t("console.sending"), false);
        post(cmd).then((result) => say($("public-message"), result.ok ? t("console.saved") :
          (result.error || t("console.refused")), !result.ok));
      });
    }
  }

  function start() {
    return fetch("/api/session", { cache: "no-store" }).then((r) => {
      if (!r.ok) throw new Error("no session");
      return r.json();
    }).then((s) => {
      Object.assign(session, s);
      document.body.dataset.role = s.role;
      tenaceI18n.who($("user"), s.user, s.role);
      $("round-start").hidden = s.role !== "director";
      $("devices-link").hidden = s.role !== "director";
      if (s.role === "director") publicSettings();
    });
  }

  function tempoLink(table, board, alertId) {   // hub/static/tempo.js: the board's timeline
    if (board === null || board === undefined || session.role !== "director") return null;
    const href = "/tempo?table=" + encodeURIComponent(table) + "&board=" + board +
      (alertId ? "&alert=" + encodeURIComponent(alertId) : "");
    return el("div", { class: "actions" }, el("a", { class: "button quiet", href: href,
      target: "_blank", id: "tempo-link" }, t("console.timeline", { board: board })));
  }

  function rulingForm(table, board, alertId) {   // hub/static/ruling.js: score rulings
    return window.tenaceRulingForm
      ? window.tenaceRulingForm({ table: table, board: board, alert: alertId, post: post }) : null;
  }

  function say(node, text, error) {
    node.textContent = text;
    node.className = "message" + (error ? " error" : "");
  }

  function command(cmd, message) {
    say(message, t("console.sending"), false);
    return post(cmd).then((result) => {
      if (result.ok && result.forwarded) {   // another shard's: it answered, applied there
        say(message, result.shard === null || result.shard === undefined
          ? t("console.forwarded_any") : t("console.forwarded", { shard: result.shard }), false);
      } else if (result.ok) {
        say(message, t("console.done"), false);
        refreshDetail();
      } else {
        say(message, result.error || t("console.refused"), true);
      }
      return result;
    });
  }

  function redraw() {             // the language changed: every text of the page again
    renderLegend();
    showSound();
    renderClock();
    renderRoundButton();
    if (source !== null) setLink(source.readyState === EventSource.OPEN);
    if (state.hub) renderHub(state.hub);
    if (state.known === null) return;     // the room not there yet: drawn when it comes
    renderMap();
    renderFeed();
    if (state.detail !== null && state.selected !== null) renderDetail(state.detail);
    else if (state.table !== null) renderTablePanel();
  }

  // Start ---------------------------------------------------------------------------------
  document.addEventListener("DOMContentLoaded", () => {
    renderLegend();
    showSound();
    $("round-start").addEventListener("click", onRoundStart);
    $("sound").addEventListener("click", () => {
      const ctx = audioContext();
      if (ctx && ctx.state === "running") tone(ctx, ctx.currentTime, 660);
      showSound();
    });
    $("feed-all").addEventListener("click", () => selectTable(state.table));
    document.addEventListener("pointerdown", unlockSound, { once: true });
    document.addEventListener("keydown", unlockSound, { once: true });
    $("logout").addEventListener("click", logout);
    setInterval(renderClock, 250);
    document.addEventListener("tenace-language", redraw);
    window.tenaceI18n.ready.then(() => { redraw(); return start(); }).then(connect, toLogin);
  });
}());
