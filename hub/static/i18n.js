// The console's languages (hub/console_i18n.py): GET /api/i18n gives the user's language
// and its words; every element with data-i18n="key" gets its text (textContent), with
// data-i18n-title its tooltip, with data-i18n-placeholder its placeholder. A <select
// id="lang"> becomes the language switch: POST /api/i18n remembers the choice for the user
// and in the browser. window.tenaceI18n.t(key, params) gives a text to the page's own
// script, its {name} fields filled from params (the key itself while the catalogue is not
// there); tenaceI18n.ready is a promise of the catalogue, and the event "tenace-language" on
// document tells a page to draw its own texts again.
"use strict";

(function () {
  let strings = {};
  let resolve;
  const ready = new Promise((r) => { resolve = r; });

  function t(key, params) {
    const text = strings[key] || key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      (params[name] === undefined || params[name] === null ? whole : String(params[name])));
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
    strings = data.strings || {};
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
      if (data.ok) { strings = data.strings; document.documentElement.lang = language; apply(); }
    });
  }

  // The page's language as a BCP 47 tag for Intl (dates and times as its readers write
  // them: 24-hour in French and Italian), "en_XA" -> "en-XA".
  function locale() {
    return (document.documentElement.lang || "en").replace("_", "-");
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
    ready: ready,
    choose: choose,
    who: who,
    locale: locale,
  });
})();
