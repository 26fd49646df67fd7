/* The nav's and the lobby's unread table-talk counts, refreshed without a reload on every signed-in
   page: one small GET (counts only) every WEB_UNREAD_POLL_INTERVAL_MS while the tab is visible, and when it
   comes back into view. Without this file the counts are those of the page's load. */
(function () {
  "use strict";
  var nav = document.getElementById("nav-lobby");
  if (!nav || !window.fetch || !nav.dataset.unreadUrl) return;
  var delay = parseInt(nav.dataset.pollMs || "30000", 10);
  if (!(delay > 0)) return;
  var timer = null, busy = false, failures = 0, stopped = false;

  function show(badge, count, words) {
    badge.textContent = words ? count + " new message" + (count === 1 ? "" : "s") : String(count);
    badge.hidden = count === 0;
  }
  function apply(data) {
    var games = data.games || {};
    var badge = document.getElementById("nav-unread");
    if (badge) show(badge, data.total || 0, false);
    Array.prototype.forEach.call(document.querySelectorAll("[data-unread-game]"), function (b) {
      show(b, games[b.dataset.unreadGame] || 0, true);
    });
  }
  function poll() {
    if (busy || stopped || document.hidden) { schedule(); return; }
    busy = true;
    fetch(nav.dataset.unreadUrl, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
      .then(function (r) {
        failures = 0;
        if (r.status === 200 && !r.redirected) return r.json().then(apply);
        stopped = true;  // signed out (a redirect to the login page) or gone: stop asking
      })
      .catch(function () { failures += 1; })
      .then(function () { busy = false; schedule(); });
  }
  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(poll, delay * Math.min(8, Math.pow(2, failures)));
  }
  schedule();
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
