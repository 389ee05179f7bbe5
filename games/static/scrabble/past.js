/* A page of a tournament's past (?at=, tournaments/core/past.py): its links to the
 * same tournament's other pages keep the same point, so a director reading the
 * standings at 14:05 opens a scorecard at 14:05 too. Not the console's pages (they
 * write), nor the link back to the present. Without it, the links lead to the
 * present, as before. */
(function () {
  "use strict";
  var at = new URLSearchParams(window.location.search).get("at");
  var match = window.location.pathname.match(/^\/tournaments\/[0-9a-f-]+\//);
  if (!at || !match) {
    return;
  }
  document.querySelectorAll("main a[href]").forEach(function (link) {
    if (link.hasAttribute("data-present")) {
      return;
    }
    var url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin ||
        url.pathname.indexOf(match[0]) !== 0 ||
        url.pathname.indexOf("/manage/") !== -1) {
      return;
    }
    url.searchParams.set("at", at);
    link.href = url.pathname + url.search + url.hash;
  });
})();
