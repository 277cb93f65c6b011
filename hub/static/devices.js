// Tenace director console: the Devices page. Lists the event's device accounts (GET
// /api/devices), draws a pairing code with its QR code (POST /api/devices/pair) and revokes
// an account (POST /api/devices/revoke), each with the session's CSRF token. Texts go in
// through textContent; the QR code is the hub's own SVG (segno), parsed as SVG, not HTML.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const session = { user: null, role: null, csrf: "" };

  function say(text, error) {
    $("devices-message").textContent = text;
    $("devices-message").className = "message" + (error ? " error" : "");
  }

  function time(t) {
    return t ? new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit",
      hour12: false }) : "";
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
    say("drawing a code for " + account + "…", false);
    post("/api/devices/pair", account).then((result) => {
      if (!result.ok) { say(result.error || "refused", true); return; }
      say("code for " + account + ": give it to the device", false);
      showCode(result);
      load();
    });
  }

  function revoke(account, button) {
    if (button.dataset.armed !== "yes") {      // two clicks: a revocation cuts a device off
      button.dataset.armed = "yes";
      button.textContent = "Confirm revoke";
      button.classList.add("armed");
      return;
    }
    say("revoking " + account + "…", false);
    post("/api/devices/revoke", account).then((result) => {
      say(result.ok ? account + " revoked" : (result.error || "refused"), !result.ok);
      load();
    });
  }

  function row(d) {
    const revokeButton = el("button", { type: "button", class: "button small danger",
      text: "Revoke", disabled: !d.paired, dataset: { account: d.account, job: "revoke" } });
    revokeButton.addEventListener("click", () => revoke(d.account, revokeButton));
    return el("tr", { dataset: { account: d.account } },
      el("td", { text: d.table }),
      el("td", { text: d.kind + (d.seat ? " " + d.seat : "") }),
      el("td", { text: d.account, class: "mono" }),
      el("td", { text: d.paired ? "yes" : "no" }),
      el("td", { class: d.online === null ? "dim" : (d.online ? "online" : "offline"),
        text: d.online === null ? "never seen" : (d.online ? "online" : "offline") }),
      el("td", { text: d.code_expires ? "until " + time(d.code_expires) : "" }),
      el("td", {},
        el("button", { type: "button", class: "button small primary", text: "Pair",
          dataset: { account: d.account, job: "pair" }, onclick: () => pair(d.account) }),
        " ", revokeButton));
  }

  function load() {
    return fetch("/api/devices", { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/devices");
      return r.json();
    }).then((data) => {
      if (!data.devices) { say(data.error || "no devices", true); return; }
      $("devices").tBodies[0].replaceChildren(...data.devices.map(row));
      const online = data.devices.filter((d) => d.online).length;
      $("devices-summary").textContent = data.devices.length + " accounts, " + online +
        " online" + (data.tls ? " · TLS" : "");
      document.body.dataset.loaded = "yes";
    });
  }

  fetch("/api/session", { cache: "no-store" }).then((r) => {
    if (!r.ok) throw new Error("no session");
    return r.json();
  }).then((s) => {
    Object.assign(session, s);
    $("user").textContent = s.user + " · " + s.role;
    $("pair-close").addEventListener("click", () => { $("pair-panel").hidden = true; });
    load();
    setInterval(load, 5000);
  }).catch(() => location.replace("/login?next=/devices"));
}());
