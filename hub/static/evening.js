// Tenace director console: the evening page. Reads GET /api/evening; every change is a
// director command posted to /api/director with the session's CSRF token (hub/director.py:
// pair_add, pair_names, pair_withdraw, round_start, round_pause, round_time, ruling,
// public_results), logged by the hub with the user's name. The club's BridgeWebs account
// and the upload: /api/evening/bridgewebs (hub/bridgewebs_account.py).
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
    pair_withdraw: "done.pair_withdraw", round_start: "done.round_start",
    round_time: "done.round_time", ruling: "done.ruling",
    public_results: "done.public_results",
  };

  function done(body) {
    if (body.op === "round_pause") return t(body.paused ? "done.round_pause" : "done.round_resume");
    return DONE[body.op] ? t(DONE[body.op], body) : t("evening.done");
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
    for (const section of state.sections) {
      for (const p of section.pairs) {
        const marks = [];
        if (p.late) marks.push(el("span", { class: "tag", text: t("evening.late") }));
        if (p.withdrawn) marks.push(el("span", { class: "tag", text: t("evening.withdrawn") }));
        const pick = () => {
          selected = { section: section.name, pair: p.pair };
          $("pair-section").value = section.name;
          $("pair-number").value = p.pair;
          $("pair-name1").value = p.names[0] || "";
          $("pair-name2").value = p.names[1] || "";
        };
        rows.push(el("tr", { class: p.withdrawn ? "withdrawn" : null,
          dataset: { section: section.name, pair: String(p.pair) } },
          el("td", { text: section.name }), el("td", { text: String(p.pair) }),
          el("td", { text: p.names.join(" – ") }), el("td", {}, marks),
          el("td", {}, el("button", { type: "button", class: "button small quiet",
            text: "✎", onclick: pick }))));
      }
    }
    $("pairs").tBodies[0].replaceChildren(...rows);
    options($("pair-section"), state.sections.map((s) => s.name));
    options($("cancel-table"), state.tables);
    options($("cancel-board"), state.boards);
    const clock = state.clock;
    $("clock-round").textContent = clock.round || "–";
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
      for (const name of state.exports) {
        links.push(el("a", { class: "button quiet small", download: true,
          href: "/api/evening/export/" + name + "?section=" + encodeURIComponent(section.name),
          text: section.name + " · " + name }));
      }
    }
    $("exports").replaceChildren(...links);
    options($("bw-section"), state.sections.map((section) => section.name));
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
    $("bw-upload").disabled = !(account.club && account.url && account.password_set);
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
    const names = [$("pair-name1").value, $("pair-name2").value].map((n) => n.trim())
      .filter((n) => n);
    return { op: op, section: $("pair-section").value, pair: Number($("pair-number").value),
      names: names };
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
