// The console's languages (hub/console_i18n.py): GET /api/i18n gives the user's language
// and its words; every element with data-i18n="key" gets its text (textContent), with
// data-i18n-title its tooltip, with data-i18n-placeholder its placeholder. A <select
// id="lang"> becomes the language switch: POST /api/i18n remembers the choice for the user
// and in the browser. window.tenaceI18n.t(key, params) gives a text to the page's own
// script, its {name} fields filled from params (the key itself while the catalogue is not
// there); tenaceI18n.card(card), rank(rank), call(call) and strain(strain) write them in the page's
// language (♠R, 3SA, Passe); tenaceI18n.ready is a promise of the catalogue, and the event "tenace-language" on
// document tells a page to draw its own texts again. tenaceI18n.plural(key, n, params)
// writes a count: the form of key for n in the page's language ("1 résultat", "2
// résultats"; Polish "1 wynik", "2 wyniki", "5 wyników"), chosen by the language's rule.
"use strict";

(function () {
  let strings = {};
  let plurals = {};                 // key -> its forms in the language (GET /api/i18n)
  let rule = (n) => (n === 1 ? 0 : 1);
  let resolve;
  const ready = new Promise((r) => { resolve = r; });

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      (params[name] === undefined || params[name] === null ? whole : String(params[name])));
  }

  function t(key, params) {
    return fill(strings[key] || key, params);
  }

  // A language's plural rule: the C expression of its catalog's Plural-Forms ("n == 1 ? 0 :
  // n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"), read here into
  // a function of n, never through eval (the console's Content-Security-Policy forbids it,
  // and a text from the network is no code): the numbers, n, ( ), ! and unary -, * / %,
  // + -, < <= > >=, == !=, &&, || and ?: of C, with C's precedence. A rule it cannot read
  // throws an Error naming it.
  const TOKEN = /\s*(\d+|n|==|!=|<=|>=|&&|\|\||[-+*\/%<>!?:()])/y;
  const BINARY = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
  const APPLY = {
    "||": (a, b) => +(a !== 0 || b !== 0), "&&": (a, b) => +(a !== 0 && b !== 0),
    "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b), "<": (a, b) => +(a < b),
    "<=": (a, b) => +(a <= b), ">": (a, b) => +(a > b), ">=": (a, b) => +(a >= b),
    "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
    "/": (a, b) => (b === 0 ? 0 : Math.trunc(a / b)), "%": (a, b) => (b === 0 ? 0 : a % b),
  };

  function pluralRule(source) {
    const tokens = [];
    const text = String(source).trim().replace(/;$/, "");
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < text.length) {
      const at = TOKEN.lastIndex;
      const m = TOKEN.exec(text);
      if (!m) {
        if (/^\s*$/.test(text.slice(at))) break;
        throw new Error("plural rule " + JSON.stringify(text) + ": cannot read " + text.slice(at));
      }
      tokens.push(m[1]);
    }
    let i = 0;
    const fail = () => { throw new Error("plural rule " + JSON.stringify(text) + ": unexpected " + (tokens[i] || "end")); };
    const expect = (token) => { if (tokens[i] !== token) fail(); i += 1; };
    function primary() {
      const token = tokens[i];
      if (token === undefined) fail();
      i += 1;
      if (token === "n") return (n) => n;
      if (/^\d+$/.test(token)) { const value = Number(token); return () => value; }
      if (token === "(") { const inner = conditional(); expect(")"); return inner; }
      if (token === "!") { const operand = primary(); return (n) => +(operand(n) === 0); }
      if (token === "-") { const operand = primary(); return (n) => -operand(n); }
      return fail();
    }
    function binary(level) {
      if (level === BINARY.length) return primary();
      let left = binary(level + 1);
      while (BINARY[level].includes(tokens[i])) {
        const apply = APPLY[tokens[i]];
        i += 1;
        const a = left;
        const b = binary(level + 1);
        left = (n) => apply(a(n), b(n));
      }
      return left;
    }
    function conditional() {
      const test = binary(0);
      if (tokens[i] !== "?") return test;
      i += 1;
      const yes = conditional();
      expect(":");
      const no = conditional();
      return (n) => (test(n) !== 0 ? yes(n) : no(n));
    }
    const choose = conditional();
    if (i !== tokens.length) fail();
    return choose;
  }

  // The form of key for the count n, its fields filled from params and {n} from n: the
  // form the language's rule gives n (the last form for an index the catalog lacks); a key
  // without plural forms is t(key, params).
  function plural(key, n, params) {
    const all = Object.assign({ n: n }, params || {});
    const forms = plurals[key];
    if (!forms || !forms.length) return t(key, all);
    const index = rule(Math.abs(Math.trunc(Number(n))) || 0);
    return fill(forms[Math.min(Math.max(index, 0), forms.length - 1)], all);
  }

  function learn(data) {
    strings = data.strings || {};
    plurals = data.plurals || {};
    try {
      rule = pluralRule((data.plural && data.plural.rule) || "n != 1");
    } catch (err) {
      console.error(err.message + " (the English rule used)");
      rule = (n) => (n === 1 ? 0 : 1);
    }
  }

  // A message the hub made ({key, values}: docs/protocol.md section 1, "Texts") in the page's
  // language, each value in the language's notation by what its field name says it is: a
  // seat (seat, ..._seat, seats), a card (♠R), a call (3SA, Passe), a time (the page's clock);
  // a value that is itself a message is rendered in turn (a list of them: separated by
  // "text.separator", except "more", whose parts carry their own punctuation). "text.plain"
  // is words already.
  const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const word = (key, fallback) => (strings[key] === undefined ? fallback : strings[key]);

  // A card and a call as the page's language writes them, from the catalog's rank.*,
  // strain.NT and call.* (wire.catalogs.card_text and call_text do the same in Python):
  // "SK" -> ♠R, "HT" -> ♥10, "3NT" -> 3SA, "4HX" -> 4♥X, "Pass" -> Passe; anything else as
  // it is.
  function rank(r) {
    if (r === "10") r = "T";
    return "AKQJT".includes(r) && r.length === 1 ? word("rank." + r, r === "T" ? "10" : r)
      : String(r);
  }

  function card(s) {
    const m = /^([SHDC])([AKQJT2-9]|10)$/.exec(String(s));
    return m ? SYMBOLS[m[1]] + rank(m[2]) : String(s);
  }

  function strain(s) {
    return s === "NT" ? word("strain.NT", "NT") : (SYMBOLS[s] || s);
  }

  function call(s) {
    const m = /^([1-7])(NT|[SHDC])(X{0,2})$/.exec(String(s));
    if (m) return m[1] + strain(m[2]) + m[3];
    return ["Pass", "X", "XX"].includes(s) ? word("call." + s, s) : String(s);
  }

  function kindOf(name) {
    for (const kind of ["seat", "card", "call", "time"]) {
      if (name === kind || name.endsWith("_" + kind)) return kind;
      if (kind !== "time" && (name === kind + "s" || name.endsWith("_" + kind + "s"))) {
        return kind + "s";
      }
    }
    return "";
  }

  // People's names (a field "names" or "..._names") as a person lists them: "Ann, Bob and
  // Cid" (French "Ann, Bob et Cid", the catalog's "text.and"); a blank one "text.blank"
  // (hub.texts.names_text does the same in Python).
  function namesText(names) {
    const words = names.map((n) => String(n ?? "").trim().split(/\s+/).join(" ")
      || word("text.blank", "(blank)"));
    if (words.length < 2) return words.join("");
    return word("text.and", "{most} and {last}").replace(/\{(most|last)\}/g, (_, part) =>
      (part === "most" ? words.slice(0, -1).join(", ") : words[words.length - 1]));
  }

  // A pair's players as the ranking gives them: its names, then each substitute (the
  // ranking's "substitutes", {name, for, player, rounds}: docs/protocol.md 12) worded in the
  // page's language: "Zoé Roux (remplace Bob Baker, tours 3-4)".
  function spans(rounds) {
    const out = [];
    for (const r of [...new Set(rounds)].sort((a, b) => a - b)) {
      const last = out[out.length - 1];
      if (last && r === last[1] + 1) last[1] = r; else out.push([r, r]);
    }
    return out.map(([a, b]) => (a === b ? String(a) : a + "-" + b)).join(", ");
  }

  function players(names, substitutes) {
    const subs = (substitutes || []).map((sub) => t(
      (sub.rounds || []).length === 1 ? "results.substitute_round" : "results.substitute_rounds", {
        name: sub.name, rounds: spans(sub.rounds || []),
        instead: sub.for || t("results.substitute_player", { player: sub.player }) }));
    return (names || []).concat(subs).join(" \u2013 ");
  }

  function valueText(kind, value, name) {
    if (value === null || value === undefined) return "\u2013";
    if (typeof value === "object" && !Array.isArray(value) && value.key) return text(value);
    if (Array.isArray(value)) {
      if (name === "names" || /_names$/.test(name || "")) return namesText(value);
      if (value.length && value.every((v) => v && typeof v === "object" && v.key)) {
        return value.map(text).join(name === "more" ? "" : word("text.separator", "; "));
      }
      return value.map((v) => valueText(kind.replace(/s$/, ""), v)).join(", ");
    }
    const s = String(value);
    if (kind === "seat") return word("seat." + s, s);
    if (kind === "card") return card(s);
    if (kind === "call") return call(s);
    if (kind === "time" && typeof value === "number") {
      return new Date(value * 1000).toLocaleTimeString(locale(), {
        hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
    }
    return s;
  }

  function text(message) {
    if (message === null || message === undefined) return "";
    if (typeof message === "string") return message;
    const values = message.values || {};
    if (message.key === "text.plain") return String(values.text || "");
    const params = {};
    for (const [name, value] of Object.entries(values)) params[name] = valueText(kindOf(name), value, name);
    if (strings[message.key] === undefined) return message.key;
    return t(message.key, params);
  }

  function apply() {
    for (const node of document.querySelectorAll("[data-i18n]")) {
      const text = strings[node.dataset.i18n];
      if (text) node.textContent = text;
    }
    for (const node of document.querySelectorAll("[data-i18n-title]")) {
      const text = strings[node.dataset.i18nTitle];
      if (text) node.title = text;
    }
    for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
      const text = strings[node.dataset.i18nPlaceholder];
      if (text) node.placeholder = text;
    }
    document.dispatchEvent(new CustomEvent("tenace-language"));
  }

  function load(data) {
    learn(data);
    document.documentElement.lang = data.language || "en";
    const select = document.getElementById("lang");
    if (select && data.languages) {
      select.replaceChildren(...Object.entries(data.languages).map(([code, name]) => {
        const option = document.createElement("option");
        option.value = code;
        option.textContent = name;
        option.selected = code === data.language;
        return option;
      }));
    }
    apply();
    resolve(data);
  }

  function choose(language) {
    const csrf = window.tenaceCsrf || "";
    return fetch("/api/i18n", {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ language: language }),
    }).then((r) => r.json()).then((data) => {
      if (data.ok) {
        learn(data);
        document.documentElement.lang = language;
        const select = document.getElementById("lang");   // a choice made by a script too
        if (select) select.value = language;
        apply();
      }
    });
  }

  // The page's language as a BCP 47 tag for Intl (dates and times as its readers write
  // them: 24-hour in French and Italian), "en_XA" -> "en-XA".
  function locale() {
    return (document.documentElement.lang || "en").replace("_", "-");
  }

  // A number as the page's language writes it, without grouping (scores stay "1100"):
  // number(57.5, 2) -> "57.50" in English, "57,50" in French; number(x, 0, 2): at most two
  // decimals.
  function number(x, digits, most) {
    return Number(x).toLocaleString(locale(), { minimumFractionDigits: digits,
      maximumFractionDigits: most === undefined ? digits : most, useGrouping: false });
  }

  // "dora · arbitre": the user's name, then the role in the page's language (a data-i18n
  // span, so that a change of language redraws it too).
  function who(node, user, role) {
    if (!user) { node.textContent = ""; return; }
    const span = document.createElement("span");
    span.dataset.i18n = "role." + role;
    span.textContent = t("role." + role);
    node.replaceChildren(user + " · ", span);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const select = document.getElementById("lang");
    if (select) select.addEventListener("change", () => choose(select.value));
    fetch("/api/i18n", { cache: "no-store" }).then((r) => r.json()).then(load)
      .catch(() => resolve({}));
  });

  window.tenaceI18n = Object.freeze({
    t: t,
    plural: plural,
    pluralRule: pluralRule,
    text: text,
    players: players,
    card: card,
    rank: rank,
    call: call,
    strain: strain,
    ready: ready,
    choose: choose,
    who: who,
    locale: locale,
    number: number,
  });
})();
