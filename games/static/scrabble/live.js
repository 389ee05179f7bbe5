/* Live pages: they follow the site's event feed (Server-Sent Events) and redraw
 * themselves as events commit; every page still works without it.
 *
 * - A display (projector) page: on each of its tournament's events it fetches
 *   itself again and swaps its content; it shows one panel (standings, pairings)
 *   at a time when cycling, and a long table a page at a time.
 * - A game page being recorded: on each new event of the game, a reader at the
 *   last turn is taken to the new last turn (htmx swaps the viewer); a reader
 *   looking at an earlier turn is told how many turns there are now.
 * The browser's EventSource reconnects by itself and resumes after the last
 * event it received (Last-Event-ID), so nothing is missed after a drop. A page
 * more than a page of events behind gets one "behind" event instead of them
 * (games/livefeed.py) and reads itself again, as after an event.
 */
(function () {
  "use strict";

  function follow(url, onEvent) {
    if (!window.EventSource || !url) return null;
    var source = new EventSource(url);
    source.onmessage = function (message) {
      onEvent(JSON.parse(message.data));
    };
    source.addEventListener("behind", function () { onEvent(null); });
    return source;
  }

  /* --- the display ---------------------------------------------------------- */

  function setUpDisplay(root) {
    var seconds = parseInt(root.dataset.seconds, 10) || 12;
    var cycling = root.dataset.show === "cycle";
    var panelIndex = 0;
    var pageIndex = 0;
    var refreshTimer = null;

    function panels() {
      return Array.prototype.slice.call(root.querySelectorAll(".display-panel"));
    }

    function pagesOf(panel) {
      var rows = Array.prototype.slice.call(panel.querySelectorAll("tbody tr"));
      rows.forEach(function (row) { row.hidden = false; });
      var table = panel.querySelector("table");
      if (!rows.length || !table) return { rows: rows, size: 1, count: 1 };
      var top = table.querySelector("tbody").getBoundingClientRect().top;
      var height = rows[0].getBoundingClientRect().height || 1;
      var size = Math.max(1, Math.floor((window.innerHeight - top - 16) / height));
      return { rows: rows, size: size, count: Math.ceil(rows.length / size) };
    }

    function draw() {
      var all = panels();
      if (!all.length) return;
      panelIndex = panelIndex % all.length;
      all.forEach(function (panel, index) { panel.hidden = index !== panelIndex; });
      var pages = pagesOf(all[panelIndex]);
      pageIndex = pageIndex % pages.count;
      pages.rows.forEach(function (row, index) {
        row.hidden = Math.floor(index / pages.size) !== pageIndex;
      });
      var label = all[panelIndex].querySelector(".display-page-no");
      if (label) {
        label.textContent = pages.count > 1 ? " · page " + (pageIndex + 1) + " of " + pages.count : "";
      }
      return pages.count;
    }

    function tick() {
      var count = draw() || 1;
      pageIndex += 1;
      if (pageIndex >= count) {
        pageIndex = 0;
        if (cycling) panelIndex += 1;
      }
      draw();
    }

    function refresh() {
      fetch(window.location.href, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html")
            .getElementById("display-content");
          var current = document.getElementById("display-content");
          if (!fresh || !current) return;
          current.replaceWith(document.importNode(fresh, true));
          draw();
          var status = root.querySelector(".display-status");
          if (status) status.textContent = "Updated " + new Date().toLocaleTimeString();
        })
        .catch(function () { /* the next event tries again */ });
    }

    follow(root.dataset.feedUrl, function (event) {
      if (event && event.stream_type !== "tournament") return;
      // A burst of results (a director typing slips) costs one fetch.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(refresh, 100);
    });
    draw();
    window.addEventListener("resize", draw);
    setInterval(tick, seconds * 1000);
  }

  /* --- a game being recorded ------------------------------------------------- */

  function setUpLiveGame() {
    var viewer = document.getElementById("viewer");
    if (!viewer || !viewer.dataset.feedUrl) return;
    var url = viewer.dataset.feedUrl;
    var timer = null;

    function update() {
      var current = document.getElementById("viewer");
      if (!current) return;
      var atEnd = current.dataset.index === current.dataset.count;
      var page = current.dataset.liveUrl;
      if (atEnd && window.htmx) {
        window.htmx.ajax("GET", page, { target: "#viewer", select: "#viewer", swap: "outerHTML show:none" });
        return;
      }
      fetch(page, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("viewer");
          var note = document.getElementById("live-note");
          if (fresh && note && fresh.dataset.count !== current.dataset.count) {
            note.textContent = fresh.dataset.count + " turns recorded so far: » goes to the last.";
          }
        });
    }

    follow(url, function () {
      clearTimeout(timer);
      timer = setTimeout(update, 100);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var display = document.getElementById("display");
    if (display && display.dataset.feedUrl) setUpDisplay(display);
    setUpLiveGame();
  });
})();
