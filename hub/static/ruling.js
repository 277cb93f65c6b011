// The director's score rulings in the console (Laws 12, 87, 90): a small form, in an alert's
// detail and in a table's panel, that posts the `ruling` director command (docs/protocol.md,
// hub/scoring.py), and withdraws one by its id (`ruling_undo`). The hub rescores at once and
// says why when it refuses. Loaded after dom.js and before console.js, which calls window.tenaceRulingForm.
"use strict";

window.tenaceRulingForm = (function () {
  const HINTS = {
    artificial: "NS EW: A+ A- (12C2: 60/50/40%, ±3 IMPs)",
    assigned: "NS score: 420 (12C1(a))",
    weighted: "60% 420, 40% -100 (12C1(c))",
    split: "NS / EW, each A+ A= A-, a score or weights: 420 / A- (12C1(f))",
    penalty: "NS 1.5 mp, or pair 3 10 percent (Law 90; mp, percent, imp, vp)",
    fouled: "tables of each changed form: A3 A4; A5 (Law 87)",
  };

  const node = window.tenaceDom.el;

  function score(text) {
    if (!/^-?\d+$/.test(text)) throw new Error("'" + text + "' is not a score");
    return Number(text);
  }

  function weights(text) {   // "60% 420, 40% -100" -> [[0.6, 420], [0.4, -100]]
    return text.split(/[,+]/).map((part) => {
      const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*(-?\d+)\s*$/.exec(part);
      if (!m) throw new Error("'" + part.trim() + "' is not 'percent% score'");
      return [Number(m[1]) / 100, Number(m[2])];
    });
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
    if (!Number.isInteger(board) || board < 1) throw new Error("give the board");
    cmd.board = board;
    if (kind === "fouled") {
      cmd.groups = t.split(";").map((g) => g.trim().split(/[\s,]+/).filter(Boolean))
        .filter((g) => g.length);
      if (!cmd.groups.length) throw new Error("give the tables of each changed form");
      return cmd;
    }
    if (kind === "penalty") {
      const m = /^(NS|EW|pair\s+(\d+))\s+(\d+(?:\.\d+)?)\s*(mp|percent|%|imp|vp)$/i.exec(t);
      if (!m) throw new Error("write the side (NS, EW or pair N), the amount and the unit");
      if (m[2]) { cmd.pair = Number(m[2]); cmd.board = board; } else {
        cmd.table = table;
        cmd.side = m[1].toUpperCase();
      }
      cmd.amount = Number(m[3]);
      cmd.unit = m[4] === "%" ? "percent" : m[4].toLowerCase();
      return cmd;
    }
    if (!table) throw new Error("give the table");
    cmd.table = table;
    if (kind === "artificial") {
      const parts = t.toUpperCase().split(/[\s/]+/).filter(Boolean);
      if (parts.length !== 2) throw new Error("write the NS and EW scores: A+ A-");
      cmd.ns = parts[0];
      cmd.ew = parts[1];
    } else if (kind === "assigned") {
      cmd.score_ns = score(t);
    } else if (kind === "weighted") {
      cmd.outcomes = weights(t);
    } else {
      const parts = t.split("/");
      if (parts.length !== 2) throw new Error("write NS / EW");
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
    const kind = node("select", { id: "ruling-kind", "aria-label": "Kind of ruling" },
      ...Object.keys(HINTS).map((k) => node("option", { value: k, text: k })));
    const table = node("input", { id: "ruling-table", size: "5", value: options.table || "",
      "aria-label": "Table" });
    const board = node("input", { id: "ruling-board", type: "number", min: "1",
      value: options.board ?? "", "aria-label": "Board", class: "narrow" });
    const text = node("input", { id: "ruling-score", placeholder: HINTS.artificial,
      "aria-label": "Score", class: "wide" });
    const note = node("input", { id: "ruling-text", placeholder: "law and reason (optional)",
      "aria-label": "Reason" });
    const undo = node("input", { id: "ruling-undo-id", size: "5", placeholder: "R1",
      "aria-label": "Ruling to withdraw" });
    kind.addEventListener("change", () => { text.placeholder = HINTS[kind.value]; });
    const send = (cmd, done) => {
      say("sending…", false);
      options.post(cmd).then((result) => {
        if (result.ok) say(done(result), false);
        else say(result.error || "refused", true);
      });
    };
    const apply = node("button", { class: "button primary", type: "button", id: "do-ruling",
      text: "Apply ruling" });
    apply.addEventListener("click", () => {
      let cmd;
      try {
        cmd = command(kind.value, table.value.trim(), Number(board.value), text.value,
          note.value.trim(), options.alert);
      } catch (err) {
        say(err.message, true);
        return;
      }
      send(cmd, (result) => "ruling " + (result.ruling || "") + " applied: rescored");
    });
    const withdraw = node("button", { class: "button", type: "button", id: "do-ruling-undo",
      text: "Withdraw" });
    withdraw.addEventListener("click", () => {
      const id = undo.value.trim().toUpperCase();
      if (!id) { say("give the ruling's id (R1, R2…)", true); return; }
      send({ op: "ruling_undo", id: id }, () => "ruling " + id + " withdrawn: rescored");
    });
    return node("fieldset", { class: "ruling-form", id: "ruling-form" },
      node("legend", { text: "Score ruling (rescores at once)" }),
      kind, table, board, text, note, apply,
      node("span", { class: "dim", text: "withdraw" }), undo, withdraw,
      node("a", { href: "/results", target: "_blank", text: "results" }),
      message);
  };
}());
