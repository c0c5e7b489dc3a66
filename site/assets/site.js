/* perfwh site: draws the charts of a page with the Vega libraries served with the site.
 *
 * A chart is <div class="perfwh-chart"><script type="application/json" class="perfwh-spec">,
 * its Vega-Lite spec written as JSON with <, > and & escaped (so no data can end the element).
 * The spec is read with JSON.parse, never evaluated. The bundle (vendor/vega-bundle.js, next to
 * this file) is loaded only on pages that have charts, by a relative URL: nothing comes from a
 * CDN. Each chart gets data-rendered="true" once drawn ("error" if it could not be).
 */
(function () {
  "use strict";
  var self = document.currentScript;
  var bundleUrl = new URL("vendor/vega-bundle.js", self ? self.src : document.baseURI).href;

  function drawAll() {
    var charts = document.querySelectorAll(".perfwh-chart");
    Array.prototype.forEach.call(charts, function (el) {
      var specEl = el.querySelector("script.perfwh-spec");
      var target = document.createElement("div");
      target.className = "perfwh-chart-body";
      el.appendChild(target);
      var spec;
      try {
        spec = JSON.parse(specEl.textContent);
      } catch (err) {
        fail(el, err);
        return;
      }
      window.vegaEmbed(target, spec, { actions: false, renderer: "svg" }).then(function () {
        el.setAttribute("data-rendered", "true");
      }).catch(function (err) { fail(el, err); });
    });
  }

  function fail(el, err) {
    el.setAttribute("data-rendered", "error");
    var msg = document.createElement("p");
    msg.className = "chart-error";
    msg.textContent = "This chart could not be drawn: " + (err && err.message ? err.message : err);
    el.appendChild(msg);
    console.error("perfwh chart:", err);
  }

  function start() {
    if (!document.querySelector(".perfwh-chart")) { return; }
    if (window.vegaEmbed) { drawAll(); return; }
    var s = document.createElement("script");
    s.src = bundleUrl;
    s.onload = drawAll;
    s.onerror = function () { console.error("perfwh: could not load " + bundleUrl); };
    document.head.appendChild(s);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
