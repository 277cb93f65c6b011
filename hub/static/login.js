// Tenace director console: the login page. Posts the name and the password as JSON to
// /api/login (the hub sets an HttpOnly session cookie), then goes to the page asked for.
// Says so when the hub has no director's account yet, with the command that makes one. Its
// texts: t(key) of i18n.js (the browser's language or the cookie's).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const t = (key) => window.tenaceI18n.t(key);

  function next() {
    const wanted = new URLSearchParams(location.search).get("next") || "/";
    return /^\/(?!\/)/.test(wanted) ? wanted : "/";   // this site's paths only
  }

  function say(text, error) {
    $("login-message").textContent = text;
    $("login-message").className = "message" + (error ? " error" : "");
  }

  function state() {
    fetch("/api/login", { cache: "no-store" }).then((r) => r.json()).then((s) => {
      if (s.user) {
        location.replace(next());
        return;
      }
      $("no-director").hidden = s.director_account;
      $("create-command").textContent = s.create;
    }).catch(() => say(t("login.no_answer"), true));
  }

  function submit(ev) {
    ev.preventDefault();
    $("login-submit").disabled = true;
    say(t("login.checking"), false);
    fetch("/api/login", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: $("login-name").value, password: $("login-password").value }),
    }).then((r) => r.json()).then((result) => {
      if (result.ok) {
        location.replace(next());
        return;
      }
      $("login-password").value = "";
      say(result.error || t("console.refused"), true);
    }).catch((err) => say(String(err), true))
      .finally(() => { $("login-submit").disabled = false; });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login-form").addEventListener("submit", submit);
    state();
  });
}());
