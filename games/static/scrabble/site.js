/* Progressive enhancements; every page works without them.
 *
 * - Game viewer: ← / → step through the turns, Home / End jump to the start / end
 *   (the links they follow are plain links; htmx swaps only the viewer); a screen
 *   reader hears each new turn. Inside the board, the arrow keys move from square
 *   to square instead (the WAI-ARIA grid pattern: one tab stop, then arrows).
 * - "Share" links copy their address (the turn's, or a game's secret link) to
 *   the clipboard, and say so; without a clipboard the link is still a link.
 * - Results entry: each slip is checked as it is typed (the server answers with a
 *   message per field); a tied score opens the inputs for the scores before the
 *   end-of-game adjustments; after a swap the first field has the focus again.
 *   A slip that cannot be sent (the server or the network is down) stays on the
 *   screen with a message and is sent again, once, as soon as the server answers
 *   its health check; a slip whose first answer was lost and that arrives twice
 *   is recognised by the server ("Already recorded"), never stored twice.
 */
(function () {
  "use strict";

  var NAV_KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };

  function isTyping(element) {
    return Boolean(
      element && element.closest &&
      element.closest("input, textarea, select, button, [contenteditable=true]")
    );
  }

  /* Stepping through a game: every key press counts (a held key steps on), and
     only the turn finally wanted is loaded once the previous load has landed. */
  var wantedTurn = null;
  var loadingTurn = false;

  function viewerState() {
    var viewer = document.getElementById("viewer");
    if (!viewer || !viewer.dataset.turnUrl) return null;
    return {
      viewer: viewer,
      index: parseInt(viewer.dataset.index, 10),
      count: parseInt(viewer.dataset.count, 10),
    };
  }

  function turnUrl(viewer, index) {
    return viewer.dataset.turnUrl.replace("/turn/0/", "/turn/" + index + "/");
  }

  function loadWantedTurn() {
    var state = viewerState();
    if (!state || wantedTurn === null || wantedTurn === state.index) {
      wantedTurn = null;
      return;
    }
    var url = turnUrl(state.viewer, wantedTurn);
    if (!window.htmx) {
      window.location.href = url;
      return;
    }
    loadingTurn = true;
    window.htmx
      .ajax("GET", url, { target: "#viewer", select: "#viewer", swap: "outerHTML show:none" })
      .then(function () {
        history.pushState({ htmx: true }, "", url);
      })
      .finally(function () {
        loadingTurn = false;
        loadWantedTurn();
      });
  }

  /* --- the board as a grid ------------------------------------------------- */

  var GRID_KEYS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

  function boardCell(element) {
    return element && element.closest ? element.closest(".board [role=gridcell]") : null;
  }

  function moveInBoard(cell, key) {
    var row = cell.parentElement;
    var cells = Array.prototype.slice.call(row.querySelectorAll("[role=gridcell]"));
    var rows = Array.prototype.slice.call(cell.closest("tbody").rows);
    var column = cells.indexOf(cell);
    var rowIndex = rows.indexOf(row);
    if (key === "Home") column = 0;
    else if (key === "End") column = cells.length - 1;
    else {
      var step = GRID_KEYS[key];
      if (!step) return false;
      rowIndex = Math.max(0, Math.min(rows.length - 1, rowIndex + step[0]));
      column = Math.max(0, Math.min(cells.length - 1, column + step[1]));
    }
    var target = rows[rowIndex].querySelectorAll("[role=gridcell]")[column];
    if (target && target !== cell) {
      cell.setAttribute("tabindex", "-1");
      target.setAttribute("tabindex", "0");
      target.focus();
    }
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var cell = boardCell(event.target);
    if (cell) {
      if (moveInBoard(cell, event.key)) event.preventDefault();
      return;
    }
    var step = NAV_KEYS[event.key];
    var state = viewerState();
    if (step === undefined || !state || isTyping(event.target)) return;
    event.preventDefault();
    var from = wantedTurn === null ? state.index : wantedTurn;
    var to = step === "first" ? 0 : step === "last" ? state.count : from + step;
    to = Math.max(0, Math.min(state.count, to));
    if (to === from) return;
    wantedTurn = to;
    var where = state.viewer.querySelector(".turn-nav .where");
    if (where) where.textContent = to ? "Turn " + to + " of " + state.count : "Start";
    if (!loadingTurn) loadWantedTurn();
  });

  /* Keep the current line of the score sheet in view, inside its own scroll box. */
  function showCurrentTurn() {
    var wrap = document.querySelector(".sheet-wrap");
    var row = wrap && wrap.querySelector("tr.current");
    if (!row) return;
    var offset = row.getBoundingClientRect().top - wrap.getBoundingClientRect().top;
    var target = wrap.scrollTop + offset - wrap.clientHeight / 2 + row.clientHeight / 2;
    wrap.scrollTop = Math.max(0, target);
  }

  /* --- results entry ------------------------------------------------------- */

  var checkSequence = 0;
  var checkTimer = null;

  function slipOf(element) {
    return element && element.closest ? element.closest("form[data-slip]") : null;
  }

  function setNote(form, field, note) {
    var span = form.querySelector('.note[data-for="' + field + '"]');
    if (!span) return;
    span.textContent = note ? note.text : "";
    span.className = "note" + (note ? " " + note.level : "");
    var input = form.querySelector('[name="' + field + '"]');
    if (input) {
      if (note && note.level === "error") input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }

  function updateTie(form, tiedByServer) {
    var a = form.querySelector('[name="a_score"]');
    var b = form.querySelector('[name="b_score"]');
    var box = form.querySelector(".tie-fields");
    if (!a || !b || !box) return;
    var tied = tiedByServer || (a.value !== "" && a.value === b.value);
    if (tied) {
      box.hidden = false;
    } else if (!box.hidden) {
      box.hidden = true;
      // The scores before the adjustments belong to a tie: once the scores differ
      // they are not sent (an amendment replaces the whole result).
      box.querySelectorAll("input").forEach(function (input) { input.value = ""; });
    }
  }

  function checkSlip(form) {
    var url = form.getAttribute("data-check-url");
    if (!url) return;
    var sequence = ++checkSequence;
    fetch(url, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
    })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        // A later keystroke or a submission makes this answer stale.
        if (!answer || sequence !== checkSequence || !form.isConnected) return;
        Object.keys(answer.notes).forEach(function (field) {
          setNote(form, field, answer.notes[field]);
        });
        updateTie(form, answer.tied);
      })
      .catch(function () { /* the submission still checks everything */ });
  }

  document.addEventListener("input", function (event) {
    var form = slipOf(event.target);
    if (!form) return;
    updateTie(form, false);
    clearTimeout(checkTimer);
    checkTimer = setTimeout(function () { checkSlip(form); }, 250);
  });

  document.addEventListener("submit", function (event) {
    if (slipOf(event.target)) {
      clearTimeout(checkTimer);
      checkSequence++;
    }
  }, true);

  /* A slip not sent: keep it, say so, and send it again when the server is back. */
  var RETRY_MS = 2000;
  var waitingSlip = null;

  function slipNotSent(form, why) {
    setNote(form, "__all__", {
      level: "error",
      text: "Not sent: " + why + ". The slip stays here and is sent again as soon " +
        "as the server answers.",
    });
    form.setAttribute("data-unsent", "");
    if (waitingSlip) return;
    waitingSlip = form;
    setTimeout(resendWhenBack, RETRY_MS);
  }

  function resendWhenBack() {
    var form = waitingSlip;
    if (!form || !document.body.contains(form)) {
      waitingSlip = null;
      return;
    }
    var url = form.getAttribute("data-health-url") || "/api/health";
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("not ready");
        waitingSlip = null;
        form.removeAttribute("data-unsent");
        setNote(form, "__all__", { level: "warn", text: "Sending the slip again…" });
        window.htmx.trigger(form, "submit");
      })
      .catch(function () { setTimeout(resendWhenBack, RETRY_MS); });
  }

  document.addEventListener("htmx:sendError", function (event) {
    var form = slipOf(event.detail.elt);
    if (form) slipNotSent(form, "the server cannot be reached");
  });

  document.addEventListener("htmx:responseError", function (event) {
    var form = slipOf(event.detail.elt);
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    // A proxy's "bad gateway" or "unavailable": the server behind it is down.
    if (form && (status === 502 || status === 503 || status === 504)) {
      slipNotSent(form, "the server is not answering (" + status + ")");
    }
  });

  function focusAutofocus(root) {
    var field = (root || document).querySelector("[autofocus]");
    if (!field) return;
    // htmx would focus it again when the swap settles, by which time a fast
    // director may already have typed into the next box.
    field.removeAttribute("autofocus");
    if (document.activeElement !== field) {
      field.focus();
      if (field.select) field.select();
    }
  }

  // Right after the swap, so that the next keystroke lands in the new slip.
  document.addEventListener("htmx:afterSwap", function () {
    var panel = document.getElementById("results-panel");
    if (!panel) return;
    // htmx wires the new form up only when the swap settles (20 ms later): an Enter
    // typed before that submitted the slip as a plain form, reloading the page.
    if (window.htmx) window.htmx.process(panel);
    focusAutofocus(panel);
    panel.querySelectorAll("form[data-slip]").forEach(function (form) {
      updateTie(form, form.hasAttribute("data-tied"));
    });
  });

  document.addEventListener("htmx:afterSettle", showCurrentTurn);

  /* Say the new turn once the viewer has swapped to it. */
  document.addEventListener("htmx:afterSwap", function () {
    var viewer = document.getElementById("viewer");
    var announcer = document.getElementById("announcer");
    if (viewer && announcer && viewer.dataset.announce) {
      announcer.textContent = viewer.dataset.announce;
    }
  });

  /* --- share links ---------------------------------------------------------- */

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-share]") : null;
    if (!link || !navigator.clipboard) return;
    event.preventDefault();
    var url = new URL(link.getAttribute("href"), window.location.href).href;
    var status = link.parentElement.querySelector(".share-status");
    navigator.clipboard.writeText(url).then(
      function () { if (status) status.textContent = "Link copied: " + url; },
      function () { if (status) status.textContent = "Copy this link: " + url; }
    );
  });

  document.addEventListener("DOMContentLoaded", function () {
    showCurrentTurn();
    document.querySelectorAll("form[data-slip]").forEach(function (form) {
      updateTie(form, form.hasAttribute("data-tied"));
    });
  });
})();
