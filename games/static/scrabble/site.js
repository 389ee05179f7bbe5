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
 *   A slip that cannot be sent (the server or the network is down) is kept in
 *   the browser (IndexedDB), listed as waiting, and sent, once, as soon as the
 *   server answers its health check; a service worker keeps the console for a
 *   reload with the network down (console-sw.js). A slip whose first answer was
 *   lost and that arrives twice is recognised by the server ("Already
 *   recorded"), never stored twice; one whose board has another result by then
 *   is shown as a conflict, with both scores and the board's amend link.
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

  /* --- slips kept while the server cannot be reached ------------------------ */

  /* A slip that cannot be sent (htmx's sendError, or a proxy's 502/503/504) is
     kept in this browser's IndexedDB, which survives a reload and a closed tab,
     and the slip box is cleared for the next one. The kept slips are listed in
     the "Waiting to send" box and sent in the order typed, each with the version
     it was typed against, as soon as the server answers its health check. The
     server settles each against the record: recorded, "Already recorded" (the
     same result, sent again: never stored twice) or a conflict (another result
     for the board: both shown, with the board's amend link), or refused (the
     slip goes back to the box to be corrected). Where IndexedDB is unavailable
     the slip stays on the screen and is sent again from there (below). */
  var RETRY_MS = 2000;
  var DB_NAME = "scrabble-console";
  var DB_STORE = "slips";
  var SLIP_BOXES = ["a_number", "a_score", "b_number", "b_score", "a_pre", "b_pre"];
  var draining = false;
  var drainAgain = false;
  var drainTimer = null;
  var sentThisVisit = [];

  function queueBox() {
    return document.getElementById("slip-queue");
  }

  function userKey() {
    var box = queueBox();
    return box ? box.getAttribute("data-user-key") : null;
  }

  function withStore(mode, action) {
    return new Promise(function (resolve, reject) {
      if (!window.indexedDB) throw new Error("no IndexedDB");
      var opening = window.indexedDB.open(DB_NAME, 1);
      opening.onupgradeneeded = function () {
        opening.result.createObjectStore(DB_STORE, { keyPath: "id" });
      };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var db = opening.result;
        var tx = db.transaction(DB_STORE, mode);
        var request = action(tx.objectStore(DB_STORE));
        tx.oncomplete = function () {
          db.close();
          resolve(request ? request.result : undefined);
        };
        tx.onerror = tx.onabort = function () {
          db.close();
          reject(tx.error);
        };
      };
    });
  }

  function putSlip(slip) {
    return withStore("readwrite", function (store) { return store.put(slip); });
  }

  function dropSlip(id) {
    return withStore("readwrite", function (store) { return store.delete(id); });
  }

  /* This user's kept slips, oldest first (a slip is sent only under the session
     of whoever typed it). */
  function mySlips() {
    return withStore("readonly", function (store) { return store.getAll(); })
      .then(function (slips) {
        return (slips || [])
          .filter(function (slip) { return slip.user === userKey(); })
          .sort(function (a, b) { return a.queuedAt - b.queuedAt; });
      });
  }

  function slipId() {
    // crypto.randomUUID needs a secure context; this key is local to the browser.
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  function slipLabel(fields) {
    return "#" + fields.a_number + " " + fields.a_score + " – " +
      fields.b_score + " #" + fields.b_number;
  }

  function clearSlipBox(form) {
    SLIP_BOXES.forEach(function (name) {
      var input = form.querySelector('[name="' + name + '"]');
      if (input) input.value = "";
      setNote(form, name, null);
    });
    var confirmed = form.querySelector('[name="confirmed"]');
    if (confirmed) confirmed.value = "";
    updateTie(form, false);
    var first = form.querySelector('[name="a_number"]');
    if (first) first.focus();
  }

  function keepSlip(form, why) {
    var box = queueBox();
    if (!box) return Promise.reject(new Error("no queue on this page"));
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields[name] = String(value);
    });
    var slip = {
      id: slipId(),
      user: userKey(),
      url: new URL(form.getAttribute("action"), window.location.href).href,
      where: box.getAttribute("data-where") || "",
      fields: fields,
      label: slipLabel(fields),
      queuedAt: Date.now(),
      state: "waiting",
    };
    return putSlip(slip).then(function () {
      clearSlipBox(form);
      setNote(form, "__all__", {
        level: "warn",
        text: "Not sent: " + why + ". The slip " + slip.label + " is kept in this " +
          "browser (Waiting to send) and sent as soon as the server answers. " +
          "Type the next one.",
      });
      return showQueue().then(function () { scheduleDrain(RETRY_MS); });
    });
  }

  function slipNotSent(form, why) {
    keepSlip(form, why).catch(function () { keepOnScreen(form, why); });
  }

  function healthUrl() {
    var form = document.querySelector("form[data-slip]");
    return (form && form.getAttribute("data-health-url")) || "/api/health";
  }

  function csrfToken() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function scheduleDrain(delay) {
    clearTimeout(drainTimer);
    drainTimer = setTimeout(drain, delay);
  }

  function setQueueStatus(text) {
    var box = queueBox();
    var status = box && box.querySelector("[data-queue-status]");
    if (status) status.textContent = text;
  }

  /* Send one kept slip; resolves to what became of it, rejects while the server
     cannot be reached (the slip stays waiting). */
  function sendSlip(slip) {
    var body = new FormData();
    Object.keys(slip.fields).forEach(function (name) {
      body.append(name, slip.fields[name]);
    });
    return fetch(slip.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-Slip-Queue": "1", "X-CSRFToken": csrfToken() },
    }).then(function (response) {
      if (response.type === "opaqueredirect" || response.status === 403) {
        var signIn = new Error("signed out");
        signIn.signIn = true;
        throw signIn;
      }
      if (response.status >= 502 && response.status <= 504) throw new Error("down");
      var json = (response.headers.get("Content-Type") || "").indexOf("json") >= 0;
      if (!json) {
        return { outcome: "refused", message: "The server refused the slip (" +
          response.status + ")." };
      }
      return response.json();
    });
  }

  function settleSlip(slip, answer) {
    if (answer.outcome === "recorded" || answer.outcome === "already") {
      sentThisVisit.push(answer.message);
      return dropSlip(slip.id).then(function () { return true; });
    }
    slip.state = answer.outcome === "conflict" ? "conflict" : "refused";
    slip.answer = answer;
    return putSlip(slip).then(function () { return false; });
  }

  function drain() {
    if (!queueBox()) return;
    if (draining) {
      // A slip kept while the others are being sent: its turn comes right after.
      drainAgain = true;
      return;
    }
    draining = true;
    drainAgain = false;
    var recorded = false;
    mySlips()
      .then(function (slips) {
        var waiting = slips.filter(function (slip) { return slip.state === "waiting"; });
        if (!waiting.length) return;
        return fetch(healthUrl(), { cache: "no-store", credentials: "same-origin" })
          .then(function (response) {
            if (!response.ok) throw new Error("not ready");
            setQueueStatus("Sending the waiting slips…");
          })
          .then(function () {
            // One at a time, in the order typed.
            return waiting.reduce(function (chain, slip) {
              return chain
                .then(function () { return sendSlip(slip); })
                .then(function (answer) { return settleSlip(slip, answer); })
                .then(function (stored) { recorded = recorded || stored; });
            }, Promise.resolve());
          });
      })
      .then(function () {
        draining = false;
        setQueueStatus("");
        if (drainAgain) scheduleDrain(0);
        return showQueue();
      })
      .catch(function (error) {
        draining = false;
        if (error && error.signIn) {
          setQueueStatus("Signed out: sign in again to send the waiting slips.");
          return showQueue();
        }
        setQueueStatus("The server cannot be reached: the slips below wait in " +
          "this browser and are sent as soon as it answers.");
        scheduleDrain(RETRY_MS);
        return showQueue();
      })
      .then(function () { if (recorded) refreshLists(); });
  }

  /* After kept slips were stored: the lists of the round as they now are, the
     slip box (and what the director is typing in it) left as it is. */
  function refreshLists() {
    var lists = document.getElementById("results-lists");
    if (!lists) return;
    fetch(window.location.href, {
      credentials: "same-origin",
      headers: { "HX-Request": "true" },
      cache: "no-store",
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var freshLists = fresh.getElementById("results-lists");
        var current = document.getElementById("results-lists");
        if (freshLists && current) current.replaceWith(document.importNode(freshLists, true));
        var typedAt = fresh.querySelector('input[name="typed_at"]');
        var mine = document.querySelector('form[data-slip] input[name="typed_at"]');
        if (typedAt && mine) mine.value = typedAt.value;
      })
      .catch(function () { /* the next answer brings them */ });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function slipItem(slip) {
    var item = element("li", "queued " + slip.state);
    item.setAttribute("data-slip-id", slip.id);
    var head = slip.label + (slip.where ? " (" + slip.where + ")" : "");
    if (slip.state === "waiting") {
      item.appendChild(element("span", "", "Waiting: " + head));
      return item;
    }
    var answer = slip.answer || {};
    item.appendChild(element("span", "", (slip.state === "conflict" ?
      "Conflict: " : "Not recorded: ") + head + ". " + (answer.message || "")));
    if (answer.amend_url) {
      var link = element("a", "", " Amend board " + answer.board);
      link.href = answer.amend_url;
      item.appendChild(document.createTextNode(" "));
      item.appendChild(link);
    }
    if (slip.state === "refused") {
      var back = element("button", "small", "Back to the slip box");
      back.type = "button";
      back.setAttribute("data-slip-back", slip.id);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(back);
    }
    var dismiss = element("button", "small secondary", "Dismiss");
    dismiss.type = "button";
    dismiss.setAttribute("data-slip-dismiss", slip.id);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(dismiss);
    return item;
  }

  function showQueue() {
    var box = queueBox();
    if (!box) return Promise.resolve();
    return mySlips().then(function (slips) {
      var list = box.querySelector("[data-queue-list]");
      list.textContent = "";
      slips.forEach(function (slip) { list.appendChild(slipItem(slip)); });
      sentThisVisit.forEach(function (message) {
        list.appendChild(element("li", "queued sent", message));
      });
      var waiting = slips.filter(function (slip) { return slip.state === "waiting"; });
      box.querySelector("[data-queue-count]").textContent = String(waiting.length);
      box.hidden = !slips.length && !sentThisVisit.length;
    }).catch(function () { /* no IndexedDB: slips stay on the screen instead */ });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.getAttribute) return;
    var dismiss = target.getAttribute("data-slip-dismiss");
    var back = target.getAttribute("data-slip-back");
    if (!dismiss && !back) return;
    var id = dismiss || back;
    mySlips().then(function (slips) {
      var slip = slips.filter(function (s) { return s.id === id; })[0];
      var form = document.querySelector("form[data-slip]");
      if (back && slip && form) {
        SLIP_BOXES.forEach(function (name) {
          var input = form.querySelector('[name="' + name + '"]');
          if (input) input.value = slip.fields[name] || "";
        });
        updateTie(form, false);
        checkSlip(form);
      }
      return dropSlip(id);
    }).then(showQueue);
  });

  /* Offline reload: the service worker keeps the console's pages and files for a
     reload with the network down. Browsers allow one only in a secure context
     (https, or localhost): over plain http on a LAN address the page says so,
     and the slips are still kept (IndexedDB needs no worker). */
  function startWorker() {
    var box = queueBox();
    if (!box) return;
    var note = document.getElementById("offline-reload");
    if (!window.isSecureContext || !navigator.serviceWorker) {
      if (note) {
        note.hidden = false;
        note.textContent = "Offline reload is not available: this site is not " +
          "served over https, and browsers keep pages for a reload without the " +
          "network only for https sites. Slips typed while the server cannot be " +
          "reached are still kept in this browser and sent when it answers, but " +
          "do not reload this page until the network is back.";
      }
      return;
    }
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (!note || !event.data || event.data.kept === undefined) return;
      note.hidden = false;
      note.textContent = event.data.kept
        ? "This page is kept in this browser: it reloads without the network."
        : "This page could not be kept in this browser for a reload without " +
          "the network; slips typed meanwhile are still kept and sent.";
      if (event.data.kept) note.setAttribute("data-kept", "");
    });
    navigator.serviceWorker
      .register(box.getAttribute("data-worker-url"), { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        // The files this page loaded before the worker controlled it, and the page.
        var urls = [window.location.href];
        document.querySelectorAll("script[src], link[rel=stylesheet]").forEach(
          function (node) { urls.push(node.src || node.href); }
        );
        if (registration.active) registration.active.postMessage({ keep: urls });
      })
      .catch(function () { /* the slips are kept all the same */ });
  }

  /* The old way, where IndexedDB is unavailable: the slip stays on the screen
     and is sent again, once, when the server answers. */
  var waitingSlip = null;

  function keepOnScreen(form, why) {
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
    fetch(healthUrl(), { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("not ready");
        waitingSlip = null;
        form.removeAttribute("data-unsent");
        setNote(form, "__all__", { level: "warn", text: "Sending the slip again…" });
        window.htmx.trigger(form, "submit");
      })
      .catch(function () { setTimeout(resendWhenBack, RETRY_MS); });
  }

  window.addEventListener("online", function () { scheduleDrain(0); });

  document.addEventListener("htmx:sendError", function (event) {
    var form = slipOf(event.detail.elt);
    if (form) slipNotSent(form, "the server cannot be reached");
  });

  // The server answered a slip: the ones kept in the browser can go too.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful && slipOf(event.detail.elt)) scheduleDrain(0);
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
    if (queueBox()) {
      startWorker();
      showQueue().then(function () { scheduleDrain(0); });
    }
  });
})();
