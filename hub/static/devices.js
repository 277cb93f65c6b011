// Tenace director console: the Devices page. Lists the event's device accounts (GET
// /api/devices), draws a pairing code with its QR code (POST /api/devices/pair) and revokes
// an account (POST /api/devices/revoke), each with the session's CSRF token. Texts go in
// through textContent (the page's own are t(key, params) of i18n.js, the table drawn again
// when the language changes); the QR code is the hub's own SVG (segno), parsed as SVG.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const session = { user: null, role: null, csrf: "" };
  const t = (key, params) => window.tenaceI18n.t(key, params);
  const plural = (key, n, params) => window.tenaceI18n.plural(key, n, params);
  const known = (key, fallback) => { const text = t(key); return text === key ? fallback : text; };
  const KINDS = { "table tablet": "devices.tablet", "card readers": "devices.readers",
    "seat tablet": "devices.seat_tablet" };   // the hub's names of the devices

  function say(text, error) {
    $("devices-message").textContent = text;
    $("devices-message").className = "message" + (error ? " error" : "");
  }

  function time(t) {
    return t ? new Date(t * 1000).toLocaleTimeString(tenaceI18n.locale(),
      { hour: "2-digit", minute: "2-digit", hour12: false }) : "";
  }

  function post(path, account) {
    return fetch(path, {
      method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
      body: JSON.stringify({ account: account }),
    }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/devices");
      return r.json();
    }).catch((err) => ({ ok: false, error: String(err) }));
  }

  function showCode(result) {
    $("pair-account").textContent = result.account;
    $("pair-code").textContent = result.code;
    $("pair-expires").textContent = time(result.expires);
    $("pair-hub").textContent = result.hub;
    $("pair-uri").textContent = result.uri;
    const svg = new DOMParser().parseFromString(result.svg, "image/svg+xml").documentElement;
    $("pair-qr").replaceChildren(document.importNode(svg, true));
    $("pair-panel").hidden = false;
  }

  function pair(account) {
    say(t("devices.drawing", { account: account }), false);
    post("/api/devices/pair", account).then((result) => {
      if (!result.ok) { say(result.error || t("devices.refused"), true); return; }
      say(t("devices.code_for", { account: account }), false);
      showCode(result);
      load();
    });
  }

  function revoke(account, button) {
    if (button.dataset.armed !== "yes") {      // two clicks: a revocation cuts a device off
      button.dataset.armed = "yes";
      button.textContent = t("devices.confirm_revoke");
      button.classList.add("armed");
      return;
    }
    say(t("devices.revoking", { account: account }), false);
    post("/api/devices/revoke", account).then((result) => {
      say(result.ok ? t("devices.revoked", { account: account })
        : (result.error || t("devices.refused")), !result.ok);
      load();
    });
  }

  function row(d) {
    const revokeButton = el("button", { type: "button", class: "button small danger",
      text: t("devices.revoke"), disabled: !d.paired,
      dataset: { account: d.account, job: "revoke" } });
    revokeButton.addEventListener("click", () => revoke(d.account, revokeButton));
    return el("tr", { dataset: { account: d.account } },
      el("td", { text: d.table }),
      el("td", { text: (KINDS[d.kind] ? known(KINDS[d.kind], d.kind) : d.kind) +
        (d.seat ? " " + known("letter." + d.seat, d.seat) : "") }),
      el("td", { text: d.account, class: "mono" }),
      el("td", { text: d.paired ? t("check.yes") : t("check.no") }),
      el("td", { class: d.online === null ? "dim" : (d.online ? "online" : "offline"),
        text: d.online === null ? t("devices.never") :
          (d.online ? t("devices.online") : t("devices.offline")) }),
      el("td", { text: d.code_expires ? t("devices.until", { time: time(d.code_expires) }) : "" }),
      el("td", {},
        el("button", { type: "button", class: "button small primary", text: t("devices.pair"),
          dataset: { account: d.account, job: "pair" }, onclick: () => pair(d.account) }),
        " ", revokeButton));
  }

  function load() {
    return fetch("/api/devices", { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/devices");
      return r.json();
    }).then((data) => {
      if (!data.devices) { say(data.error || t("devices.none"), true); return; }
      $("devices").tBodies[0].replaceChildren(...data.devices.map(row));
      const online = data.devices.filter((d) => d.online).length;
      $("devices-summary").textContent = plural("devices.summary",
        data.devices.length, { accounts: data.devices.length, online: online })
        + (data.tls ? " · TLS" : "");
      document.body.dataset.loaded = "yes";
    });
  }

  document.addEventListener("tenace-language", () => load());
  window.tenaceI18n.ready.then(() => fetch("/api/session", { cache: "no-store" })).then((r) => {
    if (!r.ok) throw new Error("no session");
    return r.json();
  }).then((s) => {
    Object.assign(session, s);
    tenaceI18n.who($("user"), s.user, s.role);
    $("pair-close").addEventListener("click", () => { $("pair-panel").hidden = true; });
    load();
    setInterval(load, 5000);
  }).catch(() => location.replace("/login?next=/devices"));
}());
