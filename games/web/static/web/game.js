/* The game page without reloads: poll a small fragment, send decisions in the background, count down.
   Everything works without this file too (plain forms, redirect after POST); this only makes it smoother. */
(function () {
  "use strict";
  var live = document.getElementById("live");

  function csrfHeaders() { return { "X-Requested-With": "fetch" }; }

  /* Every fetch that brings a fragment takes a number; a fragment is shown only if no later-sent fetch's fragment is
     shown already. A poll answered after a pick's POST would otherwise put back the answered prompt. */
  var sent = 0, shown = 0;
  function ticket() { sent += 1; var n = sent; return function (data) { if (n > shown) { shown = n; swap(data); } }; }

  function swap(data) {
    if (!live || !data || typeof data.html !== "string") return;
    // Table talk and notes stay as they are (a message being typed, the messages shown): the fragment has a
    // slot where they go back.
    var talk = document.getElementById("talk");
    if (talk && live.contains(talk)) { talk.remove(); }
    // Keep the sections the player opened or closed (history rounds, the folded rest of the board, a discard pile),
    // each found again by its id or by its place and summary; a section new to the page opens as the server drew it,
    // so a new round of the history shows its newest event.
    var seen = {};
    live.querySelectorAll("details").forEach(function (d) { seen[detailsKey(d)] = d.open; });
    live.innerHTML = data.html;
    live.dataset.version = data.version;
    placeFocus();
    live.querySelectorAll("details").forEach(function (d) {
      var key = detailsKey(d);
      if (key in seen) { d.open = seen[key]; }
    });
    var slot = document.getElementById("talk-slot");
    if (talk && slot) { slot.replaceWith(talk); }
    // the title line (status badge, Replay button) is rendered by the server like the rest
    var head = document.getElementById("game-head");
    if (head && typeof data.head === "string") { head.innerHTML = data.head; }
    tick();
    announce();
    document.dispatchEvent(new CustomEvent("game:updated", { detail: data }));
  }

  /* --- the phone's layout: the part of the board the decision is about (the presentation names it,
     board.phone_focus) goes right under the decision box; the rest of the board can be folded with one tap. On a wider screen, or without this file, the board stays as drawn. --- */
  var phone = window.matchMedia ? window.matchMedia("(max-width: 760px)") : null;
  function placeFocus() {
    var slot = document.getElementById("phone-focus");
    if (!slot || !phone || !phone.matches) return;
    var part = document.getElementById(slot.dataset.focus);
    if (!part || slot.contains(part)) return;
    slot.appendChild(part);
    slot.classList.add("filled");
  }
  placeFocus();

  function detailsKey(d) {
    if (d.id) return "#" + d.id;
    var home = d.parentElement && d.parentElement.closest("[id]");
    var summary = d.querySelector("summary");
    return (home ? home.id : "") + "|" + (summary ? summary.textContent.replace(/\s+/g, " ").trim() : "");
  }

  /* the live region: one short sentence per update (the decision asked now, or that the board changed) */
  function announce() {
    var status = document.getElementById("live-status");
    if (!status) return;
    var asked = live && live.querySelector("#decision .prompt-text");
    var result = live && live.querySelector("#result");
    status.textContent = result ? "The game is over." :
      asked ? "Your decision: " + asked.textContent.trim() : "The board was updated.";
  }

  /* --- polling: the server answers 204 (for one small query) until the game's version moves --- */
  var delay = live ? parseInt(live.dataset.pollMs || "4000", 10) : 0;
  var timer = null, busy = false, failures = 0;
  function poll() {
    if (!live || busy || document.hidden) { schedule(); return; }
    busy = true;
    var show = ticket();
    fetch(live.dataset.liveUrl + "?v=" + encodeURIComponent(live.dataset.version || ""),
          { headers: csrfHeaders(), credentials: "same-origin" })
      .then(function (r) {
        failures = 0;
        if (r.status === 200) { return r.json().then(show); }
        if (r.status === 401 || r.status === 403 || r.redirected) { live = null; }
      })
      .catch(function () { failures += 1; })
      .then(function () { busy = false; schedule(); });
  }
  function schedule() {
    if (!live) return;
    clearTimeout(timer);
    timer = setTimeout(poll, delay * Math.min(8, Math.pow(2, failures)));
  }
  if (live && delay > 0) {
    schedule();
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }

  /* --- decisions: POST in the background, then show the fresh fragment --- */
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!live || !form.classList.contains("decision-form") || !window.fetch || !window.FormData) return;
    ev.preventDefault();
    var body = new FormData(form);
    if (ev.submitter && ev.submitter.name) { body.append(ev.submitter.name, ev.submitter.value); }
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });  // no double submit
    if (ev.submitter) { ev.submitter.classList.add("sending"); }
    busy = true;
    var show = ticket();
    fetch(form.action, { method: "POST", body: body, headers: csrfHeaders(), credentials: "same-origin" })
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(show)
      .catch(function () { window.location.reload(); })
      .then(function () { busy = false; schedule(); });
  });

  /* --- tapping a board piece that stands for a pick (Mage Knight's reachable hexes): it presses
     the map form's own button for that option, so the same prompt id and option id go through the same POST
     (and the fetch above) as the buttons; the server still checks every pick. Enter or Space does it too. --- */
  function tapButton(el) {
    var form = el.closest(".mk-map-wrap") && el.closest(".mk-map-wrap").querySelector("form.decision-form");
    if (!form) return null;
    var id = el.getAttribute("data-option");
    return Array.prototype.find.call(form.querySelectorAll("button[name=option]"), function (b) { return b.value === id; }) || null;
  }
  function press(el) {
    var button = tapButton(el);
    if (!button || button.disabled) return;
    if (button.form.requestSubmit) { button.form.requestSubmit(button); } else { button.click(); }
  }
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-option]");
    if (el && el.closest(".mk-map-wrap")) { ev.preventDefault(); press(el); }
  });
  document.addEventListener("keydown", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-option]");
    if (el && el.closest(".mk-map-wrap") && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); press(el); }
  });
  /* the path preview: a dashed line from the viewer's hero to the hex under the pointer or the keyboard focus */
  function centreOf(g) {
    var b = g.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  }
  function preview(el, on) {
    var svg = el.ownerSVGElement || el.closest("svg");
    if (!svg) return;
    el.classList.toggle("preview", on);
    var old = svg.querySelector(".mk-path");
    if (old) old.remove();
    var me = svg.querySelector(".mk-figure.me");
    if (!on || !me) return;
    var m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(me.getAttribute("transform") || "");
    if (!m) return;
    var to = centreOf(el.querySelector("polygon") || el);
    var line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    line.setAttribute("class", "mk-path");
    line.setAttribute("x1", m[1]); line.setAttribute("y1", m[2]);
    line.setAttribute("x2", to[0]); line.setAttribute("y2", to[1]);
    svg.appendChild(line);
  }
  ["pointerover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (ev) {
      var el = ev.target.closest && ev.target.closest(".mk-tap");
      if (el) preview(el, true);
    });
  });
  ["pointerout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (ev) {
      var el = ev.target.closest && ev.target.closest(".mk-tap");
      if (el) preview(el, false);
    });
  });

  /* --- countdowns to each deadline --- */
  function fmt(ms) {
    if (ms <= 0) return "deadline passed";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), sec = s % 60;
    if (d > 0) return d + "d " + h + "h " + m + "m left";
    if (h > 0) return h + "h " + m + "m left";
    return m + "m " + (sec < 10 ? "0" : "") + sec + "s left";
  }
  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Date.parse(el.dataset.deadline) - Date.now();
      el.textContent = fmt(left);
      el.classList.toggle("soon", left < 3600 * 1000);
    });
  }
  tick();
  setInterval(tick, 1000);

  /* --- the phone menu: the header's links fold behind one button on narrow screens --- */
  var menu = document.getElementById("menu-toggle");
  if (menu) {
    menu.addEventListener("click", function () {
      var open = document.getElementById("topnav").classList.toggle("open");
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  /* --- copy buttons (invite link, API token) --- */
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-copy]");
    if (!btn) return;
    var src = document.querySelector(btn.dataset.copy);
    if (src && navigator.clipboard) {
      navigator.clipboard.writeText(src.textContent.trim()).then(function () { btn.textContent = "Copied"; });
    }
  });
})();
