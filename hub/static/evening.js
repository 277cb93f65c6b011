// Tenace director console: the evening page. Reads GET /api/evening; every change is a
// director command posted to /api/director with the session's CSRF token (hub/director.py:
// pair_add, pair_names, pair_withdraw, substitute, round_start, round_pause, round_time,
// ruling, public_results), logged by the hub with the user's name. An individual section
// (the state's "individual") lists its players: the same commands name a player by his
// number, with one name, and his substitute replaces him (player 1). The club's BridgeWebs
// account and the upload: /api/evening/bridgewebs (hub/bridgewebs_account.py).
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  let state = null;
  let selected = null;      // {section, pair}
  let csrf = "";

  function say(text, error) {
    $("message").textContent = text;
    $("message").className = "message" + (error ? " error" : "");
  }

  // What a command did, in the director's words (never the command's name).
  const DONE = {
    pair_add: "done.pair_add", pair_names: "done.pair_names",
    pair_withdraw: "done.pair_withdraw", substitute: "done.substitute",
    round_start: "done.round_start",
    round_time: "done.round_time", ruling: "done.ruling",
    public_results: "done.public_results",
  };

  // An individual's late changes name a player: "Player 7 of section A withdrawn".
  const DONE_SOLO = {
    pair_add: "done.player_add", pair_names: "done.player_names",
    pair_withdraw: "done.player_withdraw",
  };

  function done(body) {
    if (body.op === "round_pause") return t(body.paused ? "done.round_pause" : "done.round_resume");
    const key = (solo(body.section) && DONE_SOLO[body.op]) || DONE[body.op];
    return key ? t(key, body) : t("evening.done");
  }

  // Whether section ``name`` is an individual (its rows are players).
  function solo(name) {
    const section = state && state.sections.find((s) => s.name === name);
    return Boolean(section && section.individual);
  }

  // A text whose key follows the sections: kept in data-i18n, so that a change of language
  // words it again.
  function word(node, key) {
    node.dataset.i18n = key;
    node.textContent = t(key);
  }

  // The pair form speaks of a player when its section is an individual.
  function adapt() {
    const one = solo($("pair-section").value);
    word($("pair-number-label"), one ? "evening.player" : "evening.pair");
    word($("pair-name1-label"), one ? "evening.player_name" : "evening.player1");
    word($("pair-add"), one ? "evening.add_player" : "evening.add");
    word($("pair-rename"), one ? "evening.rename_player" : "evening.rename");
    $("pair-name2-field").hidden = one;
    $("pair-from-field").hidden = one;
    $("sub-player-field").hidden = one;
  }

  // The boards a withdrawn or late pair or player had a seat for and nobody played, each
  // given the artificial score the director chose by clicking: A- to his side (in an
  // individual both its players, Law 12C3), A+ to the other (Law 12C2), one ruling a board,
  // in turn; ``why`` (withdrawn, late) is the ruling's text.
  function ruleUnplayed(boards, why) {
    return boards.reduce((done, b) => done.then(() => command({ op: "ruling",
      kind: "artificial", table: b.table, board: b.board, round: b.round,
      ns: b.side === "NS" ? "A-" : "A+", ew: b.side === "EW" ? "A-" : "A+",
      text: why })), Promise.resolve());
  }

  // "Zoé Roux in place of Bob Baker, rounds 2, 3" for each substitute of a row.
  function substitutes(p, one) {
    return (p.substitutes || []).map((sub) => el("div", { class: "dim sub" },
      t("evening.sub_line", { name: sub.name, rounds: sub.rounds.join(", "),
        player: (one ? p.names[0] : p.names[sub.player - 1])
          || (one ? "#" + p.pair : sub.player) })));
  }

  function command(body) {
    return fetch("/api/director", {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/evening");
      return r.json();
    }).then((result) => {
      if (result.ok) say(done(body));
      else say(result.error || t("console.refused"), true);
      return refresh().then(() => result);
    }).catch((err) => say(String(err), true));
  }

  function options(select, values) {
    const keep = select.value;
    select.replaceChildren(...values.map((v) => el("option", { value: String(v), text: String(v) })));
    if (values.map(String).includes(keep)) select.value = keep;
  }

  function render() {
    const rows = [];
    const players = state.sections.length > 0 && state.sections.every((s) => s.individual);
    word($("pairs-title"), players ? "evening.players" : "evening.pairs");
    word($("pairs-number"), players ? "evening.player" : "evening.pair");
    for (const section of state.sections) {
      const one = Boolean(section.individual);
      for (const p of section.pairs) {
        const marks = [];
        if (p.late) marks.push(el("span", { class: "tag", text: t("evening.late") }));
        // the set-up's absent pair: a late pair takes its place from the round given
        if (p.absent) marks.push(el("span", { class: "tag absent", text: t("evening.absent") }));
        if (p.withdrawn) marks.push(el("span", { class: "tag", text: t("evening.withdrawn") }));
        // the boards a late pair missed at the sit-out's half table: no result, nobody opposite
        const sitOut = (p.unplayed || []).filter((b) => b.sit_out);
        const toRule = (p.unplayed || []).filter((b) => !b.sit_out);
        if (sitOut.length) {
          marks.push(el("span", { class: "tag sit-out-missed",
            text: t("evening.sitout_missed", { n: sitOut.length,
              boards: sitOut.map((b) => b.board).join(", ") }) }));
          // offered, never given unasked: A- to the late pair's side alone (nobody opposite)
          marks.push(el("button", { type: "button", class: "button small quiet rule-sitout",
            text: t("evening.rule_sitout", { n: sitOut.length }),
            onclick: () => sitOut.reduce((done, b) => done.then(() => command({ op: "ruling",
              kind: "artificial", table: b.table, board: b.board, round: b.round,
              [b.side.toLowerCase()]: "A-", text: t("evening.late") })), Promise.resolve()) }));
        }
        if (toRule.length) {
          marks.push(el("button", { type: "button", class: "button small danger rule-unplayed",
            text: t(one ? "evening.rule_unplayed_player" : "evening.rule_unplayed_pair",
              { n: toRule.length }),
            onclick: () => ruleUnplayed(toRule,
              t(p.withdrawn ? "evening.withdrawn" : "evening.late")) }));
        }
        const pick = () => {
          selected = { section: section.name, pair: p.pair };
          $("pair-section").value = section.name;
          $("pair-number").value = p.pair;
          $("pair-name1").value = p.names[0] || "";
          $("pair-name2").value = one ? "" : p.names[1] || "";
          const [first, second] = $("sub-player").options;   // "in place of": by name
          first.textContent = p.names[0] || "1";
          second.textContent = p.names[1] || "2";
          adapt();
        };
        rows.push(el("tr", { class: p.withdrawn ? "withdrawn" : null,
          dataset: { section: section.name, pair: String(p.pair) } },
          el("td", { text: section.name }), el("td", { text: String(p.pair) }),
          el("td", {}, [el("span", { text: p.names.join(" – ") }), ...substitutes(p, one)]),
          el("td", {}, marks),
          el("td", {}, el("button", { type: "button", class: "button small quiet",
            text: "✎", onclick: pick }))));
      }
    }
    $("pairs").tBodies[0].replaceChildren(...rows);
    options($("pair-section"), state.sections.map((s) => s.name));
    adapt();
    options($("cancel-table"), state.tables);
    options($("cancel-board"), state.boards);
    const clock = state.clock;
    $("clock-round").textContent = clock.round || "–";
    $("pair-from").placeholder = String(clock.round || 1);   // empty: the round in progress
    $("clock-state").textContent = (clock.paused ? "⏸ " : "") + t("evening.clock_minutes", { minutes: clock.minutes });
    if (!$("round-number").value) {          // the next round, never one after the last
      $("round-number").value = Math.min((clock.round || 0) + 1, clock.last || Infinity);
    }
    if (!$("round-minutes").value) $("round-minutes").value = clock.minutes;
    $("round-pause").disabled = clock.paused || !clock.started;
    $("round-resume").disabled = !clock.paused;
    $("public-ranking").checked = state.public.ranking;
    $("public-names").checked = state.public.names;
    $("public-boards").checked = state.public.boards;
    $("public-hide").value = state.public.hide_last_rounds || 0;
    const links = [];
    for (const section of state.sections) {
      for (const name of section.exports || state.exports) {
        links.push(el("a", { class: "button quiet small", download: true,
          href: "/api/evening/export/" + name + "?section=" + encodeURIComponent(section.name),
          text: section.name + " · " + name }));
      }
    }
    $("exports").replaceChildren(...links);
    // BridgeWebs takes pairs: an individual's section is not offered
    options($("bw-section"), state.sections.filter((section) => !section.individual)
      .map((section) => section.name));
  }

  // The club's BridgeWebs account (GET/POST /api/evening/bridgewebs): its password is sent,
  // never shown back; the upload posts the section's bridgewebs.pbn with it.
  function bwPost(path, body) {
    return fetch(path, { method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body) }).then((r) => r.json().catch(() => ({}))
      .then((data) => Object.assign({ status: r.status }, data)));
  }

  let bwAccount = null;

  function bwShow(account) {
    bwAccount = account;
    $("bw-club").value = account.club || "";
    $("bw-url").value = account.url || "";
    $("bw-password").value = "";
    $("bw-password").placeholder = account.password_set ? t("evening.bw_kept") : "";
    $("bw-state").textContent = account.club && account.password_set
      ? t("evening.bw_ready", { club: account.club }) : t("evening.bw_none");
    $("bw-upload").disabled = !(account.club && account.url && account.password_set
      && $("bw-section").options.length);
  }

  function bwLoad() {
    return fetch("/api/evening/bridgewebs", { cache: "no-store" }).then((r) => r.json())
      .then(bwShow);
  }

  function refresh() {
    return fetch("/api/evening", { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/evening");
      return r.json();
    }).then((data) => { state = data; render(); });
  }

  function pairBody(op) {
    const given = solo($("pair-section").value) ? [$("pair-name1").value]
      : [$("pair-name1").value, $("pair-name2").value];
    const names = given.map((n) => n.trim()).filter((n) => n);
    const body = { op: op, section: $("pair-section").value,
      pair: Number($("pair-number").value), names: names };
    // the absent pair's place from that round (empty: the round in progress)
    if (op === "pair_add" && $("pair-from").value) body.from_round = Number($("pair-from").value);
    return body;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("pair-form").addEventListener("submit", (e) => { e.preventDefault(); command(pairBody("pair_add")); });
    $("pair-rename").addEventListener("click", () => command(pairBody("pair_names")));
    $("withdraw-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const body = { op: "pair_withdraw", section: $("pair-section").value,
        pair: Number($("pair-number").value) };
      const text = $("withdraw-text").value.trim();
      if (text) body.text = text;
      command(body);
    });
    $("pair-section").addEventListener("change", adapt);
    $("sub-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const section = $("pair-section").value;
      const rounds = [];
      for (const part of $("sub-rounds").value.split(/[\s,;]+/).filter(Boolean)) {
        const [a, b] = part.split("-").map(Number);   // "2-4": rounds 2, 3 and 4
        for (let r = a; r <= Math.min(b || a, a + 998); r++) rounds.push(r);
      }
      const body = { op: "substitute", section: section, pair: Number($("pair-number").value),
        player: solo(section) ? 1 : Number($("sub-player").value),
        name: $("sub-name").value.trim(), rounds: rounds };
      if ($("sub-member").value) body.member = Number($("sub-member").value);
      command(body);
    });
    $("round-form").addEventListener("submit", (e) => {
      e.preventDefault();
      command({ op: "round_start", round: Number($("round-number").value) })
        .then(() => { $("round-number").value = ""; refresh(); });
    });
    $("round-pause").addEventListener("click", () => command({ op: "round_pause", paused: true }));
    $("round-resume").addEventListener("click", () => command({ op: "round_pause", paused: false }));
    $("minutes-form").addEventListener("submit", (e) => {
      e.preventDefault();
      command({ op: "round_time", minutes: Number($("round-minutes").value) });
    });
    $("cancel-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const body = { op: "ruling", kind: "artificial", table: $("cancel-table").value,
        board: Number($("cancel-board").value), ns: $("cancel-ns").value, ew: $("cancel-ew").value };
      const text = $("cancel-text").value.trim();
      body.text = text || "board cancelled";
      command(body);
    });
    $("public-form").addEventListener("submit", (e) => {
      e.preventDefault();
      command({ op: "public_results", ranking: $("public-ranking").checked,
        names: $("public-names").checked, boards: $("public-boards").checked,
        hide_last_rounds: Number($("public-hide").value) || 0 });
    });
    $("bw-account").addEventListener("submit", (e) => {
      e.preventDefault();
      bwPost("/api/evening/bridgewebs", { club: $("bw-club").value, url: $("bw-url").value,
        password: $("bw-password").value }).then((result) => {
        if (result.ok) { say(t("evening.bw_saved")); bwShow(result); }
        else say(result.error || t("console.refused"), true);
      });
    });
    $("bw-upload-form").addEventListener("submit", (e) => {
      e.preventDefault();
      $("bw-upload").disabled = true;
      say(t("evening.bw_sending"));
      bwPost("/api/evening/bridgewebs/upload", { section: $("bw-section").value })
        .then((result) => {
          $("bw-upload").disabled = false;
          if (result.ok) say(t("evening.bw_reply", { message: result.message }));
          else if (result.status === 200) say(t("evening.bw_no_message"), true);
          else say(result.error || t("console.refused"), true);
        });
    });
    document.addEventListener("tenace-language", () => {
      if (state) render();
      if (bwAccount) bwShow(bwAccount);
    });
    fetch("/api/session", { cache: "no-store" }).then((r) => r.json()).then((s) => {
      csrf = s.csrf || "";
      window.tenaceCsrf = csrf;
      tenaceI18n.who($("user"), s.user, s.role);
    }).then(refresh).then(bwLoad);
  });
})();
