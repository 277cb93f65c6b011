// Tenace director console: the set-up page. Builds the set-up document of the console's API
// (docs/console-api.md) from the form, checks it (POST /api/setup?check=1) or sends it (POST
// /api/setup) with the session's CSRF token, and marks each field the hub names in its
// errors. Imports the club's roster (POST /api/roster, text/csv) and offers its names for
// the players ("Name #number": sent as {"member": number}). Texts go in through textContent;
// the page's own are t(key, params) of i18n.js, and the labels it builds carry data-i18n so
// that the language switch redraws them.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const known = (key, fallback) => { const text = t(key); return text === key ? fallback : text; };
  // A text the language switch redraws (i18n.js puts data-i18n keys in again).
  const word = (key) => el("span", { dataset: { i18n: key } }, t(key));
  const session = { user: null, role: null, csrf: "" };
  let defaults = { event: {}, section: {}, movements: ["mitchell", "howell", "teams", "swiss_pairs", "swiss_teams"],
    scorings: [], editions: ["2017"] };
  let cards = [];

  function say(text, error) {
    $("setup-message").textContent = text;
    $("setup-message").className = "message" + (error ? " error" : "");
  }

  function api(path, options) {
    return fetch(path, Object.assign({ cache: "no-store" }, options || {})).then((r) => {
      if (r.status === 401) location.replace("/login?next=/setup");
      return r.json().then((data) => Object.assign({ status: r.status }, data));
    }).catch((err) => ({ ok: false, error: String(err) }));
  }

  function post(path, body, type) {
    return api(path, { method: "POST", body: body,
      headers: { "Content-Type": type || "application/json", "X-CSRF-Token": session.csrf } });
  }

  function options(select, values, chosen, prefix) {   // prefix: the options' words, if any
    select.replaceChildren(...values.map((v) => el("option", { value: v,
      text: prefix ? known(prefix + v, String(v)) : v,
      dataset: prefix && t(prefix + v) !== prefix + v ? { i18n: prefix + v } : null,
      selected: String(v) === String(chosen) })));
  }

  // A section ------------------------------------------------------------------------------
  // The field of a section's size: teams (teams, Swiss teams), pairs (Swiss pairs), tables.
  // A movement file gives its own tables: the size is then only the pairs' rows to name.
  // An individual's size is its players, 4 a table, each named on his own row.
  const SIZE = { teams: "teams", swiss_teams: "teams", swiss_pairs: "entrants",
    file: "pairs_named", individual: "players" };
  const sizeField = (kind) => SIZE[kind] || "tables";

  function pairCount(card) {
    const size = parseInt(card.size.value, 10) || 0;
    const kind = card.movement.value;
    return kind === "swiss_pairs" || kind === "file" || kind === "individual" ? size : 2 * size;
  }

  // The built-in individual (bridgecore/individual.py, the rainbow) seats 4·T players, the
  // tables T at least 5 and prime to 6: 20, 28, 44, 52... players.
  function individualPlayers(count) {
    const tables = count / 4;
    return Number.isInteger(tables) && tables >= 5 && tables % 2 !== 0 && tables % 3 !== 0;
  }

  function drawPairs(card) {
    const count = Math.min(pairCount(card), 120);
    const kept = {};
    card.pairs.querySelectorAll("input").forEach((i) => { kept[i.dataset.key] = i.value; });
    const missing = parseInt(card.missing.value, 10) || 0;
    const rows = [];
    const single = card.movement.value === "individual";
    for (let p = 1; p <= count; p++) {
      const field = card.field("pairs." + p);
      if (single) {        // one player a row: "Player 7"
        rows.push(el("div", { class: "pair single" }, el("span", { class: "who" },
          word("setup.player_row"), " ", el("span", { class: "num", text: String(p) })),
          el("input", { class: "player", list: "roster-names", "data-field": field,
            "data-key": p + ".1", value: kept[p + ".1"] || null,
            "aria-label": t("setup.individual_label", { player: p }) })));
        continue;
      }
      const input = (n) => el("input", { class: "player", list: "roster-names",
        placeholder: t(n === 1 ? "setup.player" : "setup.partner"), "data-field": field,
        "data-i18n-placeholder": n === 1 ? "setup.player" : "setup.partner",
        "data-key": p + "." + n, value: kept[p + "." + n] || null,
        "aria-label": t("setup.player_label", { pair: p, player: n }) });
      rows.push(el("div", { class: "pair" + (p === missing ? " out" : "") },
        el("span", { class: "num", text: String(p) }), input(1), input(2)));
    }
    card.pairs.replaceChildren(...rows);
    const selected = card.missing.value;
    options(card.missing, ["", ...Array.from({ length: count }, (_, i) => String(i + 1))],
      selected);
    card.missing.options[0].textContent = t("setup.none");
    card.missing.options[0].dataset.i18n = "setup.none";
  }

  function shape(card) {
    const kind = card.movement.value;
    const sizeKey = "setup." + sizeField(kind);
    card.sizeLabel.firstChild.dataset.i18n = sizeKey;
    card.sizeLabel.firstChild.textContent = t(sizeKey);
    card.size.dataset.field = card.field(sizeField(kind));
    const even = (parseInt(card.size.value, 10) || 0) % 2 === 0;
    card.relayLabel.hidden = kind !== "mitchell" || !even;
    card.arrowLabel.hidden = kind !== "mitchell";
    card.missingLabel.hidden = kind !== "mitchell" && kind !== "howell";
    card.roundsLabel.hidden = kind === "teams" || kind === "file";
    // an individual: the built-in movement's counts said; its own .ASC file, if chosen
    card.ascLabel.hidden = kind !== "file" && kind !== "individual";
    card.playersHint.hidden = kind !== "individual";
    card.size.max = kind === "individual" ? 240 : 60;
    card.pairsTitle.dataset.i18n = kind === "individual" ? "setup.individual_names" : "setup.pairs";
    card.pairsTitle.textContent = t(card.pairsTitle.dataset.i18n);
    drawPairs(card);
  }

  function addSection(values) {
    const index = cards.length;
    const v = Object.assign({}, defaults.section, values || {});
    const card = { index: index, field: (key) => "sections[" + card.index + "]." + key };
    card.name = el("input", { class: "short sec-name", value: v.name ||
      String.fromCharCode(65 + index), "data-field": card.field("name") });
    card.movement = el("select", { class: "sec-movement", "data-field": card.field("movement") });
    // a club's own movement: its .ASC file (movement_file), read here and sent as base64
    options(card.movement, [...defaults.movements, "file"],
      v.movement_file ? "file" : v.movement || "mitchell", "movement.");
    card.kept = typeof v.movement_file === "string" && v.movement_asc
      ? { movement_file: v.movement_file, movement_asc: v.movement_asc } : null;
    card.asc = el("input", { type: "file", accept: ".asc,.ASC", class: "sec-asc",
      "data-field": card.field("movement_file") });
    card.ascName = el("span", { class: "dim sec-asc-name",
      text: card.kept ? card.kept.movement_file : "" });
    card.ascLabel = el("label", {}, word("setup.movement_file"), " ", card.asc, " ",
      card.ascName);
    card.asc.addEventListener("change", () => {
      const chosen = card.asc.files[0];
      card.ascName.textContent = chosen ? "" : card.kept ? card.kept.movement_file : "";
    });
    card.size = el("input", { type: "number", min: 1, max: 60, class: "short sec-size",
      value: v.tables || v.teams || v.entrants || 8 });
    card.sizeLabel = el("label", {}, word("setup.tables"), " ", card.size);
    card.playersHint = el("span", { class: "dim sec-players-hint" },
      word("setup.players_hint"));
    card.pairsTitle = word("setup.pairs");
    card.bpr = el("input", { type: "number", min: 1, max: 36, class: "short sec-bpr",
      value: v.boards_per_round || 3, "data-field": card.field("boards_per_round") });
    card.rounds = el("input", { type: "number", min: 1, class: "short sec-rounds",
      placeholder: t("setup.all"), "data-i18n-placeholder": "setup.all", value: v.rounds || null,
      "data-field": card.field("rounds") });
    card.roundsLabel = el("label", {}, word("setup.rounds"), " ", card.rounds);
    card.relay = el("select", { class: "sec-relay", "data-field": card.field("relay") });
    card.relay.append(
      el("option", { value: "skip", text: t("setup.skip"), dataset: { i18n: "setup.skip" } }),
      el("option", { value: "relay", text: t("setup.relay"), dataset: { i18n: "setup.relay" } }));
    card.relayLabel = el("label", {}, word("setup.even"), " ", card.relay);
    card.arrow = el("input", { type: "checkbox", class: "sec-arrow",
      "data-field": card.field("arrow_switch") });
    card.arrowLabel = el("label", { class: "choice" }, card.arrow, " ", word("setup.arrow"));
    card.missing = el("select", { class: "sec-missing", "data-field": card.field("missing_pair") });
    card.missingLabel = el("label", {}, word("setup.missing"), " ", card.missing);
    card.pairs = el("div", { class: "pairs" });
    const remove = el("button", { type: "button", class: "button small quiet",
      text: t("setup.remove"), dataset: { i18n: "setup.remove" },
      onclick: () => {
        cards = cards.filter((c) => c !== card);
        card.node.remove();
        cards.forEach((c, i) => {     // the fields the hub's errors name follow the index
          c.index = i;
          c.node.querySelectorAll("[data-field]").forEach((n) => {
            n.dataset.field = n.dataset.field.replace(/^sections\[\d+\]/, "sections[" + i + "]");
          });
          c.node.dataset.field = "sections[" + i + "]";
        });
        cards.forEach(shape);
      } });
    card.node = el("div", { class: "section-card", "data-field": "sections[" + index + "]" },
      el("h3", {}, word("setup.section"), remove),
      el("div", { class: "row" },
        el("label", {}, word("setup.name"), " ", card.name),
        el("label", {}, word("setup.movement"), " ", card.movement),
        card.ascLabel,
        card.sizeLabel, card.playersHint,
        el("label", {}, word("setup.bpr"), " ", card.bpr), card.roundsLabel,
        card.relayLabel, card.missingLabel, card.arrowLabel),
      el("details", { open: true }, el("summary", {}, card.pairsTitle), card.pairs));
    for (const input of [card.movement, card.size]) {
      input.addEventListener("change", () => shape(card));
    }
    card.movement.addEventListener("change", () => {   // an individual proposes 20 players
      if (card.movement.value === "individual" &&
          !individualPlayers(parseInt(card.size.value, 10))) {
        card.size.value = 20;
        shape(card);
      }
    });
    card.missing.addEventListener("change", () => drawPairs(card));
    cards.push(card);
    $("sections").append(card.node);
    shape(card);
    return card;
  }

  // The document -----------------------------------------------------------------------------
  function player(text) {
    const m = /^(.*\S)\s+#(\d+)$/.exec(text.trim());
    return m ? { member: parseInt(m[2], 10) } : text.trim();
  }

  function sectionDoc(card) {
    const kind = card.movement.value;
    const number = (input) => (input.value === "" ? undefined : Number(input.value));
    const out = { name: card.name.value.trim(), movement: kind,
      boards_per_round: number(card.bpr) };
    out[sizeField(kind)] = number(card.size);
    if (kind !== "teams" && card.rounds.value !== "") out.rounds = number(card.rounds);
    if ((kind === "mitchell" || kind === "howell") && card.missing.value !== "") {
      out.missing_pair = number(card.missing);
    }
    if (kind === "mitchell" && !card.relayLabel.hidden && card.relay.value === "relay") {
      out.relay = true;
    }
    if (kind === "mitchell" && card.arrow.checked) out.arrow_switch = true;
    const pairs = {};
    card.pairs.querySelectorAll(".pair").forEach((row) => {
      const names = [...row.querySelectorAll("input")].map((i) => i.value)
        .filter((t) => t.trim()).map(player);
      if (names.length) pairs[row.querySelector(".num").textContent] = names;
    });
    if (Object.keys(pairs).length) out.pairs = pairs;
    if (kind === "individual" && card.asc.files[0]) {   // its own file: the file says all
      delete out.players;
      delete out.rounds;
      const chosen = card.asc.files[0];
      return readFile(chosen).then((data) => Object.assign(out,
        { movement_file: { name: chosen.name, data: data } }));
    }
    if (kind !== "file") return out;
    // the file gives the tables and the rounds: the size only numbers the pairs' rows here
    delete out.movement;
    delete out[sizeField(kind)];
    const chosen = card.asc.files[0];
    if (!chosen) {
      return Promise.resolve(Object.assign(out, card.kept || { movement_file: "" }));
    }
    return readFile(chosen).then((data) => Object.assign(out,
      { movement_file: { name: chosen.name, data: data } }));
  }

  function readFile(file) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
  }

  function documentOf() {
    const event = { name: $("ev-name").value.trim(), edition: $("ev-edition").value,
      scoring: $("ev-scoring").value, conventions: $("ev-conventions").value,
      language: $("ev-language").value };
    if ($("ev-date").value) event.date = $("ev-date").value;
    if ($("ev-minutes").value !== "") event.minutes_per_round = Number($("ev-minutes").value);
    if ($("ev-part").value !== "") event.part = Number($("ev-part").value);
    if ($("ev-carry").value !== "") {
      event.carry = Number($("ev-carry").value);
      event.carry_form = $("ev-carry-form").value;
    }
    return Promise.all(cards.map(sectionDoc)).then((sections) => {
      const doc = { event: event, sections: sections };
      const file = $("boards-file").files[0];
      if ($("boards-file-choice").checked) {
        if (!file) return Object.assign(doc, { boards: { file: "" } });
        return readFile(file).then((data) => Object.assign(doc,
          { boards: { file: { name: file.name, data: data } } }));
      }
      return doc;
    });
  }

  // Errors -----------------------------------------------------------------------------------
  function clearErrors() {
    $("setup-good").replaceChildren();
    $("setup-good").hidden = true;
    document.querySelectorAll(".bad").forEach((n) => n.classList.remove("bad"));
    $("setup-errors").replaceChildren();
  }

  function showErrors(errors) {
    clearErrors();
    for (const e of errors) {
      let field = e.field || "";
      let nodes = [];
      while (field) {     // the field, else the nearest field it belongs to
        nodes = document.querySelectorAll('[data-field="' + CSS.escape(field) + '"]');
        if (nodes.length) break;
        field = field.includes(".") ? field.slice(0, field.lastIndexOf(".")) : "";
      }
      nodes.forEach((n) => { n.classList.add("bad"); n.title = e.error; });
      $("setup-errors").append(el("li", { "data-field": e.field || "" },
        e.field ? el("code", { text: e.field }) : null, e.field ? ": " : "", e.error));
    }
  }

  function send(check) {
    clearErrors();
    // a section of the club's movement file needs its file: said here, on its field
    const unpicked = cards.filter((c) => c.movement.value === "file" && !c.asc.files[0] &&
      !c.kept).map((c) => ({ field: c.field("movement_file"), error: t("setup.asc_missing") }));
    // an individual of the built-in movement: a count it seats, said on the players' field
    const miscounted = cards.filter((c) => c.movement.value === "individual" &&
      !c.asc.files[0] && !individualPlayers(Number(c.size.value)))
      .map((c) => ({ field: c.field("players"),
        error: t("setup.players_count", { n: c.size.value || 0 }) }));
    const local = unpicked.concat(miscounted);
    if (local.length) {
      showErrors(local);
      say(plural("setup.problems", local.length), true);
      return;
    }
    say(check ? t("setup.checking") : t("setup.setting_up"), false);
    const query = check ? "?check=1" : $("next-session").checked ? "?next=1" : "";
    documentOf().then((doc) => post("/api/setup" + query,
      JSON.stringify(doc))).then((result) => {
      if (result.ok) {
        say(check ? t("setup.good") : t("setup.done"), false);
        if (check) {
          $("setup-good").replaceChildren(...result.summary.map((line) =>
            el("li", { class: "fine", text: line })));
          $("setup-good").hidden = false;
          return;
        }
        $("setup-done-summary").textContent = result.summary.join("\n");
        $("setup-done").hidden = false;
        $("setup-form").hidden = true;
        $("setup-waiting").hidden = true;
        document.body.dataset.done = "yes";
        return;
      }
      say(result.errors ? plural("setup.problems", result.errors.length)
        : (result.error || t("setup.refused")), true);
      if (result.errors) showErrors(result.errors);
    });
  }

  // The roster -------------------------------------------------------------------------------
  function loadRoster() {
    return api("/api/roster").then((data) => {
      const members = data.members || [];
      $("roster-names").replaceChildren(...members.map((m) =>
        el("option", { value: m.name + " #" + m.number })));
      $("roster-count").dataset.count = String(members.length);
      $("roster-count").textContent = plural("setup.members", members.length);
      document.body.dataset.roster = String(members.length);
    });
  }

  function importRoster() {
    const file = $("roster-file").files[0];
    if (!file) return;
    file.arrayBuffer().then((bytes) => post("/api/roster", bytes, "text/csv"))
      .then((result) => {
        if (result.ok) {
          say(plural("setup.imported", result.members), false);
          loadRoster();
        } else {
          say(t("setup.not_imported"), true);
          showErrors((result.errors || [{ error: result.error }]).map((e) =>
            ({ field: "", error: (e.line ? t("setup.line", { line: e.line }) + ": " : "") +
              e.error })));
        }
      });
  }

  // The names typed at check-in, matched to the roster: shown; applied to the pair only when
  // the director accepts them (checkin_accept: a member matched alone gives his name).
  // In an individual each player's name is his own: accepted one player at a time.
  function accept(table, side, names, button, player) {
    const command = { op: "checkin_accept", table: table, side: side, names: names };
    if (player !== undefined) command.player = player;
    post("/api/director", JSON.stringify(command)).then((result) => {
      button.disabled = Boolean(result.ok);
      button.textContent = result.ok ? t("setup.accepted") : t("setup.accept");
      button.title = result.ok ? names.join(" – ") : (result.error || "");
    });
  }

  function loadCheckins() {
    return api("/api/setup/checkins").then((data) => {
      const checkins = data.checkins || [];
      const groups = {};
      for (const c of checkins) {
        const name = c.members.length === 1 ? c.members[0].name : c.name;
        if (name) (groups[c.table + " " + c.side] = groups[c.table + " " + c.side] || []).push(name);
      }
      const seen = new Set();
      const rows = checkins.map((c) => {
        const key = c.table + " " + c.side;
        let action = null;
        const name = c.members.length === 1 ? c.members[0].name : c.name;
        const same = (a, b) => a.length === b.length && a.every((n, i) => n === b[i]);
        if (c.individual) {               // each player's name on its own
          if (name && c.number !== null && same([name], c.pair_names || [])) {
            action = el("span", { class: "dim accepted" }, t("setup.accepted"));  // his already
          } else if (name && c.number !== null) {
            const button = el("button", { type: "button", class: "button accept",
              dataset: { table: c.table, side: c.side, player: String(c.number) } },
              t("setup.accept"));
            button.addEventListener("click", () => accept(c.table, c.side, [name], button,
              c.number));
            action = button;
          }
        } else if (!seen.has(key) && groups[key] && same(groups[key], c.pair_names || [])) {
          // the pair's names already: nothing to accept
          action = el("span", { class: "dim accepted" }, t("setup.accepted"));
        } else if (!seen.has(key) && groups[key]) {
          const button = el("button", { type: "button", class: "button accept",
            dataset: { table: c.table, side: c.side } }, t("setup.accept"));
          button.addEventListener("click", () => accept(c.table, c.side, groups[key], button));
          action = button;
        }
        seen.add(key);
        return el("tr", {},
          el("td", { text: c.table }),
          el("td", { text: known("side." + c.side, c.side) + " " + c.pair }),
          el("td", { text: c.name || "#" + c.number }),
          el("td", { class: c.members.length ? null : "none", text: c.members.length ?
            c.members.map((m) => m.name + " #" + m.number).join(", ") : t("setup.not_member") }),
          el("td", {}, action));
      });
      $("checkins").tBodies[0].replaceChildren(...rows);
      $("checkins-panel").hidden = rows.length === 0;
    });
  }

  // Start ------------------------------------------------------------------------------------
  function start(state) {
    defaults = Object.assign(defaults, state.defaults || {});
    $("setup-waiting").hidden = !state.waiting;
    if (!state.waiting && state.summary.length) {
      $("setup-current").hidden = false;
      $("setup-summary").textContent = state.summary.join("\n");
    }
    if (!state.can_set_up) {
      $("setup-locked").hidden = false;
      $("setup-locked").textContent = state.started.length ?
        t("setup.started", { sections: state.started.join(", ") }) : t("setup.no_setup");
      $("setup-submit").disabled = true;
      if (state.started.length) {     // played: only the next session may replace it
        $("next-session-choice").hidden = false;
        $("next-session").addEventListener("change", () => {
          $("setup-submit").disabled = !$("next-session").checked;
        });
      }
    }
    const current = state.setup && state.setup.event;
    if (current && current.part) {    // the next session of the same event, proposed
      $("ev-name").value = current.name || "";
      $("ev-part").value = current.part + 1;
    }
    options($("ev-edition"), defaults.editions, defaults.event.edition || "2017");
    options($("ev-scoring"), defaults.scorings, defaults.event.scoring || "matchpoints",
      "scoring.");
    options($("ev-conventions"), defaults.conventions || [], defaults.event.conventions || "",
      "conventions.");
    const languages = defaults.languages || {};    // code -> the language's own name
    $("ev-language").replaceChildren(...Object.keys(languages).map((code) => el("option", {
      value: code, text: languages[code], selected: code === (defaults.event.language || "en") })));
    $("ev-minutes").value = defaults.event.minutes_per_round || 20;
    $("ev-date").value = new Date().toISOString().slice(0, 10);
    addSection();
    $("add-section").addEventListener("click", () => addSection());
    $("setup-check").addEventListener("click", () => send(true));
    $("setup-form").addEventListener("submit", (e) => { e.preventDefault(); send(false); });
    $("boards-file").addEventListener("change", () => { $("boards-file-choice").checked = true; });
    $("roster-file").addEventListener("change", importRoster);
    if (!state.waiting) {
      loadCheckins();
      setInterval(loadCheckins, 10000);
    }
    return loadRoster().then(() => { document.body.dataset.loaded = "yes"; });
  }

  document.addEventListener("tenace-language", () => {    // what data-i18n does not redraw
    const count = $("roster-count").dataset.count;
    if (count !== undefined) $("roster-count").textContent = plural("setup.members", count);
    if (session.user) {              // the hub's summaries, made again in the new language
      api("/api/setup").then((state) => {
        if (!$("setup-current").hidden) $("setup-summary").textContent = state.summary.join("\n");
        if (!$("setup-done").hidden) $("setup-done-summary").textContent = state.summary.join("\n");
      });
    }
  });
  window.tenaceI18n.ready.then(() => api("/api/session")).then((s) => {
    if (!s.user) throw new Error("no session");
    Object.assign(session, s);
    tenaceI18n.who($("user"), s.user, s.role);
    return api("/api/setup");
  }).then(start).catch(() => location.replace("/login?next=/setup"));
}());
