// Tenace director console: the device check before play (GET /api/evening/check, every 5 s):
// every table and seat, its device paired? online? its battery and signal when it reports
// them, the card readers and the decks they serve.
"use strict";

(function () {
  const { $, el } = window.tenaceDom;
  const t = (key) => window.tenaceI18n.t(key);
  const KINDS = { "table tablet": "devices.tablet", "card readers": "devices.readers",
    "seat tablet": "devices.seat_tablet" };   // the hub's names of the devices
  const kind = (name) => (KINDS[name] ? t(KINDS[name]) : name);
  // A seat's letter as the page's language writes it (Z for South in Dutch, O for West in
  // French).
  const letter = (seat) => { const text = t("letter." + seat); return text === "letter." + seat ? seat : text; };
  let data = null;

  function yes(value) {
    if (value === null || value === undefined) return el("span", { class: "dim", text: t("check.unknown") });
    return el("span", { class: value ? "ok" : "bad", text: value ? t("check.yes") : t("check.no") });
  }

  function battery(value) {
    if (value === null || value === undefined) return t("check.unknown");
    return el("span", { class: value < 20 ? "bad" : value < 40 ? "warn" : "ok", text: value + " %" });
  }

  function signal(value) {
    if (value === null || value === undefined) return t("check.unknown");
    return el("span", { class: value < -80 ? "bad" : value < -70 ? "warn" : "ok", text: value + " dBm" });
  }

  function render() {
    const rows = [];
    let ready = 0, total = 0;
    for (const table of data.tables) {
      for (const d of table.devices) {
        total += 1;
        if (d.online && d.paired !== false) ready += 1;
        const decks = d.decks ? Object.entries(d.decks).map(([s, r]) => letter(s) + ": " + r).join(", ") : "";
        rows.push(el("tr", { dataset: { account: d.account } },
          el("td", { text: table.table }),
          el("td", { text: d.account + (d.seat ? " (" + letter(d.seat) + ")" : "") + " · " + kind(d.kind) }),
          el("td", {}, yes(d.paired)), el("td", {}, yes(d.online)),
          el("td", { class: "battery" }, battery(d.battery)),
          el("td", { class: "signal" }, signal(d.signal)),
          el("td", { text: [d.reader, decks, d.detail].filter((x) => x).join(" · ") }),
          el("td", { text: d.last_seen
            ? new Date(d.last_seen * 1000).toLocaleTimeString(tenaceI18n.locale()) : "" })));
      }
      if (!table.devices.length) {
        rows.push(el("tr", {}, el("td", { text: table.table }), el("td", { colspan: "7", class: "dim", text: "–" })));
      }
    }
    $("check").tBodies[0].replaceChildren(...rows);
    // Good news as good news: every device ready is said in words, in green.
    const all = total > 0 && ready === total;
    $("summary").textContent = all ? "✓ " + t("check.all_good") : ready + " / " + total;
    $("summary").className = all ? "ok" : "warn";
  }

  function refresh() {
    fetch("/api/evening/check", { cache: "no-store" }).then((r) => {
      if (r.status === 401) location.replace("/login?next=/check");
      return r.json();
    }).then((d) => { data = d; render(); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.addEventListener("tenace-language", () => { if (data) render(); });
    fetch("/api/session", { cache: "no-store" }).then((r) => r.json())
      .then((s) => { window.tenaceCsrf = s.csrf || ""; });
    refresh();
    setInterval(refresh, 5000);
  });
})();
