/* Table talk on the game page: new messages arrive without a reload, messages are sent in the
   background, notes are saved in place. Without this file the forms still work (redirect after POST). */
(function () {
  "use strict";
  var chat = document.getElementById("chat");
  if (!chat || !window.fetch) return;
  var list = document.getElementById("chat-messages");
  var form = document.getElementById("chat-form");
  var badge = document.getElementById("chat-unread");
  var last = parseInt(chat.dataset.last || "0", 10);
  var delay = parseInt(chat.dataset.pollMs || "4000", 10);
  var unread = parseInt((badge && badge.textContent) || "0", 10) || 0;
  var timer = null, busy = false, failures = 0;
  var headers = { "X-Requested-With": "fetch" };

  function nearBottom() { return list.scrollHeight - list.scrollTop - list.clientHeight < 80; }
  function showUnread() {
    if (!badge) return;
    badge.textContent = unread + " new";
    badge.hidden = unread === 0;
  }
  function add(data) {
    if (!data) return;
    if (typeof data.last === "number" && data.last > last) { last = data.last; }
    if (!data.html) return;
    var stick = nearBottom();
    list.insertAdjacentHTML("beforeend", data.html);
    // a message already shown (sent from this page, then polled) appears once
    var seen = {};
    Array.prototype.forEach.call(list.querySelectorAll(".chat-msg"), function (li) {
      if (seen[li.id]) { li.remove(); } else { seen[li.id] = true; }
    });
    if (stick) { list.scrollTop = list.scrollHeight; }
    if (data.fresh) { unread += data.fresh; showUnread(); }
  }
  // What the player looks at is read: the count goes when they reach the panel.
  chat.addEventListener("pointerdown", function () { unread = 0; showUnread(); });
  chat.addEventListener("focusin", function () { unread = 0; showUnread(); });

  function poll() {
    if (busy || document.hidden) { schedule(); return; }
    busy = true;
    fetch(chat.dataset.chatUrl + "?since=" + last, { headers: headers, credentials: "same-origin" })
      .then(function (r) {
        failures = 0;
        if (r.status === 200) { return r.json().then(add); }
        if (r.status === 401 || r.status === 403 || r.status === 404 || r.redirected) { chat = null; }
      })
      .catch(function () { failures += 1; })
      .then(function () { busy = false; schedule(); });
  }
  function schedule() {
    if (!chat) return;
    clearTimeout(timer);
    timer = setTimeout(poll, delay * Math.min(8, Math.pow(2, failures)));
  }
  if (delay > 0) {
    schedule();
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
  }
  list.scrollTop = list.scrollHeight;

  if (form) {
    var text = document.getElementById("chat-text");
    var error = document.getElementById("chat-error");
    var send = document.getElementById("chat-send");
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = new FormData(form);
      body.append("since", String(last));
      send.disabled = true;
      error.textContent = "";
      fetch(form.action, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
        .then(function (r) {
          return r.json().then(function (data) {
            if (!r.ok) { error.textContent = data.detail || ("Not sent (HTTP " + r.status + ")"); return; }
            add(data);
            text.value = "";
            form.querySelectorAll("input[name=to]").forEach(function (box) { box.checked = false; });
            list.scrollTop = list.scrollHeight;
          });
        })
        .catch(function () { error.textContent = "Not sent: the server could not be reached."; })
        .then(function () { send.disabled = false; text.focus(); });
    });
    // Ctrl+Enter (or Cmd+Enter) sends; Enter alone is a new line, as typed.
    text.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { form.requestSubmit(); }
    });
  }

  var notes = document.querySelector(".notes-form");
  if (notes) {
    notes.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var status = notes.querySelector(".notes-status");
      fetch(notes.action, { method: "POST", body: new FormData(notes), headers: headers, credentials: "same-origin" })
        .then(function (r) { return r.json().then(function (data) {
          status.textContent = r.ok ? "Saved." : (data.detail || "Not saved.");
        }); })
        .catch(function () { status.textContent = "Not saved: the server could not be reached."; });
    });
  }
})();
