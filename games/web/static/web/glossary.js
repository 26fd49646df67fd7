// The glossary's tips on tap. Hover and keyboard focus show a term's tip with CSS alone; a
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
  // the page's list of terms folds (it would lengthen the page) unless the address points into it
  var fold = document.getElementById("glossary-fold");
  if (fold && !(location.hash && fold.querySelector(location.hash.replace(/[^\w#-]/g, "")))) { fold.open = false; }
})();
