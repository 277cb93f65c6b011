// The director's score rulings in the console (Laws 12, 87, 90): a small form, in an alert's
// detail and in a table's panel, that posts the `ruling` director command (docs/protocol.md,
// hub/scoring.py), and withdraws one by its id (`ruling_undo`). The hub rescores at once and
// says why when it refuses. Loaded after dom.js and i18n.js (its texts: word(key, params))
// and before console.js, which calls window.tenaceRulingForm.
"use strict";

window.tenaceRulingForm = (function () {
  const KINDS = ["artificial", "assigned", "weighted", "split", "penalty", "fouled"];
  const word = (key, params) => (window.tenaceI18n ? window.tenaceI18n.t(key, params) : key);
  const hint = (kind) => word("ruling.hint." + kind);

  const node = window.tenaceDom.el;

  function score(text) {
    if (!/^-?\d+$/.test(text)) throw new Error(word("ruling.not_score", { text: text }));
    return Number(text);
  }

  function weights(text) {   // "60% 420, 40% -100" -> [[0.6, 420], [0.4, -100]]
    return text.split(/[,+]/).map((part) => {
      const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*(-?\d+)\s*$/.exec(part);
      if (!m) throw new Error(word("ruling.not_weight", { text: part.trim() }));
      return [Number(m[1]) / 100, Number(m[2])];
    });
  }

  // A side as typed: NS or EW, or as the user's language writes it (side.NS, side.EW in the
  // catalog: NZ and OW in Dutch, OW in German, EO in Spanish); no language's North-South
  // is another's East-West.
  function sideOf(text) {
    const t = text.toUpperCase();
    if (t === "NS" || t === word("side.NS").toUpperCase()) return "NS";
    if (t === "EW" || t === word("side.EW").toUpperCase()) return "EW";
    return null;
  }

  function side(text) {
    const t = text.trim().toUpperCase();
    if (/^A[+=-]$/.test(t)) return t;
    return t.includes("%") ? weights(t) : score(t);
  }

  // The command for the form's fields; throws an Error saying what to correct.
  function command(kind, table, board, text, note, alert) {
    const cmd = { op: "ruling", kind: kind };
    if (note) cmd.text = note;
    if (alert) cmd.alert = alert;
    const t = text.trim();
    if (!Number.isInteger(board) || board < 1) throw new Error(word("ruling.give_board"));
    cmd.board = board;
    if (kind === "fouled") {
      cmd.groups = t.split(";").map((g) => g.trim().split(/[\s,]+/).filter(Boolean))
        .filter((g) => g.length);
      if (!cmd.groups.length) throw new Error(word("ruling.give_groups"));
      return cmd;
    }
    if (kind === "penalty") {
      const m = /^(\S+|pair\s+(\d+))\s+(\d+(?:[.,]\d+)?)\s*(mp|percent|%|imp|vp)$/i.exec(t);
      const which = m && !m[2] ? sideOf(m[1]) : null;
      if (!m || (!m[2] && !which)) throw new Error(word("ruling.give_penalty"));
      if (m[2]) { cmd.pair = Number(m[2]); cmd.board = board; } else {
        cmd.table = table;
        cmd.side = which;
      }
      cmd.amount = Number(m[3].replace(",", "."));     // 1,5 where the language writes it so
      cmd.unit = m[4] === "%" ? "percent" : m[4].toLowerCase();
      return cmd;
    }
    if (!table) throw new Error(word("ruling.give_table"));
    cmd.table = table;
    if (kind === "artificial") {
      const parts = t.toUpperCase().split(/[\s/]+/).filter(Boolean);
      if (parts.length !== 2) throw new Error(word("ruling.give_artificial"));
      const alone = sideOf(parts[0]);     // Law 15B: "NS A+", "EW A-35": that side alone
      const level = /^(A[+=-])(\d+(?:[.,]\d+)?)?$/.exec(parts[1]);
      if (alone && level) {
        const name = alone.toLowerCase();
        cmd[name] = level[1];
        if (level[2]) cmd[name + "_percent"] = Number(level[2].replace(",", "."));
        return cmd;
      }
      cmd.ns = parts[0];
      cmd.ew = parts[1];
    } else if (kind === "assigned") {
      cmd.score_ns = score(t);
    } else if (kind === "weighted") {
      cmd.outcomes = weights(t);
    } else {
      const parts = t.split("/");
      if (parts.length !== 2) throw new Error(word("ruling.give_split"));
      cmd.ns = side(parts[0]);
      cmd.ew = side(parts[1]);
    }
    return cmd;
  }

  return function rulingForm(options) {
    const message = node("div", { class: "message", id: "ruling-message" });
    const say = (text, error) => {
      message.textContent = text;
      message.className = "message" + (error ? " error" : "");
    };
    const kind = node("select", { id: "ruling-kind", "aria-label": word("ruling.kind") },
      ...KINDS.map((k) => node("option", { value: k, text: word("ruling.kind." + k) })));
    const table = node("input", { id: "ruling-table", size: "5", value: options.table || "",
      "aria-label": word("check.table") });
    const board = node("input", { id: "ruling-board", type: "number", min: "1",
      value: options.board ?? "", "aria-label": word("evening.board"), class: "narrow" });
    const text = node("input", { id: "ruling-score", placeholder: hint("artificial"),
      "aria-label": word("ruling.score"), class: "wide" });
    const note = node("input", { id: "ruling-text", placeholder: word("ruling.reason_hint"),
      "aria-label": word("evening.reason") });
    const undo = node("input", { id: "ruling-undo-id", size: "5", placeholder: "R1",
      "aria-label": word("ruling.to_withdraw") });
    kind.addEventListener("change", () => { text.placeholder = hint(kind.value); });
    const send = (cmd, done) => {
      say(word("console.sending"), false);
      options.post(cmd).then((result) => {
        if (result.ok) say(done(result), false);
        else say(result.error || word("console.refused"), true);
      });
    };
    const apply = node("button", { class: "button primary", type: "button", id: "do-ruling",
      text: word("ruling.apply") });
    apply.addEventListener("click", () => {
      let cmd;
      try {
        cmd = command(kind.value, table.value.trim(), Number(board.value), text.value,
          note.value.trim(), options.alert);
      } catch (err) {
        say(err.message, true);
        return;
      }
      send(cmd, (result) => word("ruling.applied", { id: result.ruling || "" }));
    });
    const withdraw = node("button", { class: "button", type: "button", id: "do-ruling-undo",
      text: word("evening.withdraw") });
    withdraw.addEventListener("click", () => {
      const id = undo.value.trim().toUpperCase();
      if (!id) { say(word("ruling.give_id"), true); return; }
      send({ op: "ruling_undo", id: id }, () => word("ruling.withdrawn", { id: id }));
    });
    return node("fieldset", { class: "ruling-form", id: "ruling-form" },
      node("legend", { text: word("ruling.legend") }),
      kind, table, board, text, note, apply,
      node("span", { class: "dim", text: word("ruling.withdraw") }), undo, withdraw,
      node("a", { href: "/results", target: "_blank", text: word("ruling.results") }),
      message);
  };
}());
