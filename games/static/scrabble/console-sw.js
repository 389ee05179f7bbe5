/* The console's service worker: a reload at the venue with the network down still
 * shows the console (its pages as last loaded, and the site's files), so that the
 * slips kept in the browser (site.js: IndexedDB) are seen and sent when the server
 * answers again.
 *
 * Served by config/serviceworker.py at /console-sw.js (scope "/"); registered by
 * site.js from a results page, and only in a secure context (https or localhost).
 *
 * What it keeps, and for whom:
 * - the static files a console page loads (/static/…): the same for everyone;
 *   network first, the kept copy only when the network fails (the names carry no
 *   version);
 * - console pages (navigations under /tournaments/<id>/manage/) that the server
 *   marked with X-Console-User: kept in a cache of that user's own
 *   ("console-shell-<key>"), and served only while that user is the last one the
 *   server named. A visit to the sign-in or sign-out pages (/accounts/) drops every
 *   kept page, so one user's console is never shown to another.
 * - nothing else: no API answer, no POST, no htmx fragment is ever kept.
 */
"use strict";

var STATIC_CACHE = "console-static-v1";
var SHELL_CACHE = "console-shell-";
var META_CACHE = "console-meta";
var USER_RECORD = "/__console-user";
var USER_HEADER = "X-Console-User";
var CONSOLE_PAGE = /^\/tournaments\/[^/]+\/manage\//;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function currentUser() {
  return caches
    .open(META_CACHE)
    .then(function (cache) { return cache.match(USER_RECORD); })
    .then(function (found) { return found ? found.text() : ""; });
}

function setUser(key) {
  return caches.open(META_CACHE).then(function (cache) {
    return cache.put(USER_RECORD, new Response(key));
  });
}

/* Sign-in or sign-out: no page of whoever was signed in is kept. */
function forgetPages() {
  return caches
    .keys()
    .then(function (names) {
      return Promise.all(
        names
          .filter(function (name) { return name.indexOf(SHELL_CACHE) === 0; })
          .map(function (name) { return caches.delete(name); })
      );
    })
    .then(function () { return setUser(""); });
}

function keepPage(url, response) {
  var key = response.headers.get(USER_HEADER);
  if (!response.ok || !key || response.redirected) return Promise.resolve();
  var copy = response.clone();
  return currentUser()
    .then(function (previous) {
      // Another user signed in without this worker seeing it: drop the other's.
      return previous && previous !== key ? forgetPages() : null;
    })
    .then(function () { return setUser(key); })
    .then(function () { return caches.open(SHELL_CACHE + key); })
    .then(function (cache) { return cache.put(url, copy); });
}

function keptPage(url) {
  return currentUser().then(function (key) {
    if (!key) return undefined;
    return caches.open(SHELL_CACHE + key).then(function (cache) {
      return cache.match(url);
    });
  });
}

function notKept() {
  return new Response(
    "The server cannot be reached, and this page was not kept in this browser.",
    { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } }
  );
}

function consolePage(event) {
  var url = event.request.url;
  return fetch(event.request)
    .then(function (response) {
      event.waitUntil(keepPage(url, response).catch(function () {}));
      return response;
    })
    .catch(function () {
      return keptPage(url).then(function (found) { return found || notKept(); });
    });
}

/* Only the console's own files are kept (the ones its pages ask to keep, below);
   a fresh answer for one of them replaces its copy. */
function staticFile(event) {
  return fetch(event.request)
    .then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        event.waitUntil(
          caches.open(STATIC_CACHE).then(function (cache) {
            return cache.match(event.request).then(function (kept) {
              return kept ? cache.put(event.request, copy) : null;
            });
          })
        );
      }
      return response;
    })
    .catch(function () {
      return caches.match(event.request, { cacheName: STATIC_CACHE }).then(
        function (found) { return found || Response.error(); }
      );
    });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname.indexOf("/accounts/") === 0) {
    // Signing in or out (a GET or the sign-out form's POST): it goes on as is.
    event.waitUntil(forgetPages());
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFile(event));
  } else if (request.mode === "navigate" && CONSOLE_PAGE.test(url.pathname)) {
    event.respondWith(consolePage(event));
  }
});

/* A page loaded before this worker controlled it asks for itself and its files
   to be kept (site.js). The answer says whether a copy of the page is kept now (a
   copy served offline asks too, and its fetch fails: the copy is still there). */
self.addEventListener("message", function (event) {
  var urls = (event.data && event.data.keep) || [];
  var source = event.source;
  var page = null;
  var keeping = urls.map(function (href) {
    var url = new URL(href, self.location.href);
    if (url.origin !== self.location.origin) return null;
    if (url.pathname.indexOf("/static/") === 0) {
      return caches
        .open(STATIC_CACHE)
        .then(function (cache) { return cache.add(url.href); })
        .catch(function () {});
    }
    if (!CONSOLE_PAGE.test(url.pathname)) return null;
    page = url.href;
    return fetch(url.href, { credentials: "same-origin" })
      .then(function (response) { return keepPage(url.href, response); })
      .catch(function () {});
  });
  event.waitUntil(
    Promise.all(keeping)
      .then(function () { return page ? keptPage(page) : undefined; })
      .then(function (found) {
        if (source) source.postMessage({ kept: Boolean(found) });
      })
  );
});
