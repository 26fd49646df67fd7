// The glossary's tips on tap (issue 11 item 7). Hover and keyboard focus show a term's tip with CSS alone; a
// phone has no hover, so a tap opens the tip here (a second tap, a tap elsewhere or Escape closes it). Without
// JavaScript the tap follows the term's link to its entry in the page's glossary.
(function () {
  function closeAll(except) {
    document.querySelectorAll("a.term.open").forEach(function (t) { if (t !== except) t.classList.remove("open"); });
  }
  document.addEventListener("click", function (e) {
    var term = e.target.closest && e.target.closest("a.term");
    if (!term) { closeAll(null); return; }
    e.preventDefault();  // the tip is the answer; the page's glossary stays one tab stop away
    closeAll(term);
    term.classList.toggle("open");
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") closeAll(null); });
})();
