/* Sign-up: preselect the browser's own time zone, so deadlines read in local time from
   the first mail. Only a fresh form is touched: a choice the person made (a re-shown form) is kept. */
(function () {
  "use strict";
  var select = document.querySelector("form select[name=timezone]");
  if (!select || !window.Intl || !Intl.DateTimeFormat) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var known = Array.prototype.some.call(select.options, function (o) { return o.value === zone; });
  if (zone && known) { select.value = zone; }
})();
