/* perfwh site: charts drawn with the Vega libraries served with the site, sized to their
 * container; a line above every table wider than its box saying that it scrolls; and, on pages
 * of perfwh's fallback renderer (.pw-navbar), its drop-down menus and its search. Quarto's pages have Bootstrap's navbar and Quarto's own search: nothing here
 * touches them.
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
  var base = self ? self.src : document.baseURI;
  var bundleUrl = new URL("vendor/vega-bundle.js", base).href;

  /* -- charts ----------------------------------------------------------------------------- */

  // Narrowest a panel may become before side-by-side panels go one above the other, and the
  // most a chart may grow beyond the width its spec asks for.
  var MIN_PANEL = 240, MAX_GROWTH = 2.2;
  // pixels kept free beside a chart: a filter changed later lays it out again, and its axis
  // labels may then reach a few pixels further than in the drawing that was measured
  var SLACK = 8;
  var EMBED = { actions: false, renderer: "svg", mode: "vega-lite" };

  // The views of a spec whose width can change: the panels of a horizontal or vertical
  // concatenation, or the spec itself; each must have a numeric width.
  function resizable(spec) {
    var views = spec.hconcat || spec.vconcat || [spec];
    return views.every(function (v) { return typeof v.width === "number"; }) ? views : [];
  }

  function setWidth(view, width) {
    view.width = Math.max(40, Math.floor(width));
    (view.layer || []).forEach(function (layer) { if (typeof layer.width === "number") { layer.width = view.width; } });
  }

  // On a narrow screen: panels one above the other, legends below, shorter axis labels.
  function stack(spec) {
    spec.vconcat = spec.hconcat;
    delete spec.hconcat;
    spec.config = spec.config || {};
    spec.config.legend = Object.assign({}, spec.config.legend, { orient: "bottom", columns: 1 });
    spec.config.axis = Object.assign({ labelLimit: 120 }, spec.config.axis);
  }

  // The most of a chart's width its axis labels may take (a spec may let long labels show
  // whole: on a phone they would leave its marks no room), and the least they keep.
  var LABEL_SHARE = 0.38, MIN_LABELS = 120;

  function capLabels(spec, room) {
    var most = Math.max(MIN_LABELS, Math.floor(room * LABEL_SHARE));
    Object.keys(spec.config || {}).forEach(function (key) {
      var axis = spec.config[key];
      if (/^axis/.test(key) && axis && axis.labelLimit > most) { axis.labelLimit = most; }
    });
  }

  // Axis labels Vega cut at their labelLimit: each gets its full text as an SVG title, which
  // the browser shows on hover (Vega lets axis labels ignore the pointer: these take it back).
  function titleCutLabels(view) {
    (function walk(node) {
      var el = node._svg;
      if (node.mark && node.mark.role === "axis-label" && el && node.text != null) {
        var lines = [].concat(node.text);  // a label of several lines is drawn as one tspan each
        if (el.textContent !== lines.join("") && !el.querySelector("title")) {
          var title = document.createElementNS("http://www.w3.org/2000/svg", "title");
          title.textContent = lines.join(" ");
          el.appendChild(title);
          el.setAttribute("pointer-events", "auto");
        }
      }
      (node.items || []).forEach(walk);
    })(view.scenegraph().root);
  }

  // Draw a chart to the width of its container, measured: Vega's own layout cannot size a
  // concatenation to its container, and axis labels and legends take room no spec states.
  // The first drawing shows how much room they take; the panels are then given the rest (at
  // most MAX_GROWTH times what the spec asked for), or stacked when side by side they would
  // be narrower than MIN_PANEL, and the chart is drawn again.
  function draw(el, target, spec, attempt) {
    return window.vegaEmbed(target, spec, EMBED).then(function (result) {
      var views = resizable(spec);
      var svg = target.querySelector("svg");
      if (attempt >= 3 || !views.length || !svg) { return result; }
      var room = el.clientWidth;
      var used = svg.getBoundingClientRect().width;
      var inner = spec.vconcat
        ? Math.max.apply(null, views.map(function (v) { return v.width; }))
        : views.reduce(function (sum, v) { return sum + v.width; }, 0);
      var scale = Math.min((room - (used - inner) - SLACK) / inner, MAX_GROWTH);
      var narrowest = Math.min.apply(null, views.map(function (v) { return v.width; })) * scale;
      if (spec.hconcat && views.length > 1 && narrowest < MIN_PANEL) {
        stack(spec);
      } else if (Math.abs(scale - 1) < 0.02 && used <= room) {
        return result;
      } else {
        views.forEach(function (v) { setWidth(v, v.width * scale); });
      }
      result.finalize();
      target.textContent = "";
      return draw(el, target, spec, attempt + 1);
    });
  }

  // Draw (or draw again) one chart from its spec, to the width its container has now.
  function drawChart(el) {
    var specEl = el.querySelector("script.perfwh-spec");
    var old = el.querySelector(".perfwh-chart-body");
    if (old) { el.removeChild(old); }
    var target = document.createElement("div");
    target.className = "perfwh-chart-body";
    el.appendChild(target);
    el.setAttribute("data-width", String(el.clientWidth));
    var spec;
    try {
      spec = JSON.parse(specEl.textContent);
    } catch (err) {
      fail(el, err);
      return;
    }
    capLabels(spec, el.clientWidth);
    draw(el, target, spec, 0).then(function (result) {
      titleCutLabels(result.view);
      el.setAttribute("data-rendered", "true");
    }).catch(function (err) { fail(el, err); });
  }

  function drawAll() {
    var charts = document.querySelectorAll(".perfwh-chart");
    Array.prototype.forEach.call(charts, drawChart);
    // a phone turned, a window resized: charts whose container changed much are drawn again
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(function () {
        Array.prototype.forEach.call(charts, function (el) {
          if (Math.abs(el.clientWidth - Number(el.getAttribute("data-width"))) > 40) { drawChart(el); }
        });
      }, 250);
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

  function charts() {
    if (!document.querySelector(".perfwh-chart")) { return; }
    if (window.vegaEmbed) { drawAll(); return; }
    var s = document.createElement("script");
    s.src = bundleUrl;
    s.onload = drawAll;
    s.onerror = function () { console.error("perfwh: could not load " + bundleUrl); };
    document.head.appendChild(s);
  }

  /* -- wide tables: say that they scroll ------------------------------------------------- */

  // A table wider than its box scrolls inside it (.table-wrap), but overlay scrollbars - a
  // phone's, macOS's, a headless browser's - show nothing until one scrolls, so the rest of
  // the table looks cut off. Such a table gets a line above it saying so, kept up to date
  // when the window changes. Quarto's pages get it too: the tables are perfwh's own.
  var HINT = "Scroll sideways for more columns \u2192";

  function scrollBox(table) {
    var box = table.parentElement;
    while (box && box !== document.body) {
      var overflow = getComputedStyle(box).overflowX;
      if (overflow === "auto" || overflow === "scroll") { return box; }
      box = box.parentElement;
    }
    return null;
  }

  function markWide(box) {
    var hint = box.previousElementSibling;
    if (!hint || !hint.classList.contains("scroll-hint")) {
      hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.setAttribute("aria-hidden", "true");  // the table itself is there to read
      hint.textContent = HINT;
      box.parentNode.insertBefore(hint, box);
    }
    var wide = box.scrollWidth > box.clientWidth + 1;
    hint.hidden = !wide;
    box.classList.toggle("scrolls", wide);
  }

  function tables() {
    var boxes = [];
    Array.prototype.forEach.call(document.querySelectorAll("table"), function (table) {
      var box = scrollBox(table);
      if (box && boxes.indexOf(box) === -1) { boxes.push(box); }
    });
    function markAll() { boxes.forEach(markWide); }
    markAll();
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(markAll, 150);
    });
  }

  /* -- the fallback's navbar: menus open on click ------------------------------------------ */

  function menus() {
    var toggles = document.querySelectorAll(".pw-navbar .dropdown-toggle");
    function closeAll(except) {
      Array.prototype.forEach.call(toggles, function (t) {
        if (t === except) { return; }
        t.setAttribute("aria-expanded", "false");
        t.nextElementSibling.classList.remove("show");
      });
    }
    Array.prototype.forEach.call(toggles, function (toggle) {
      toggle.addEventListener("click", function (event) {
        event.stopPropagation();
        var open = toggle.getAttribute("aria-expanded") !== "true";
        closeAll(toggle);
        toggle.setAttribute("aria-expanded", open ? "true" : "false");
        toggle.nextElementSibling.classList.toggle("show", open);
      });
    });
    document.addEventListener("click", function () { closeAll(null); });
    document.addEventListener("keydown", function (event) { if (event.key === "Escape") { closeAll(null); } });
  }

  /* -- the fallback's search: an index written beside the pages ---------------------------- */

  function search() {
    var input = document.getElementById("pw-search-input");
    if (!input) { return; }
    var list = input.parentNode.querySelector(".pw-search-results");
    var indexUrl = new URL(input.getAttribute("data-index"), document.baseURI);
    var loaded = false;
    function load(then) {
      if (loaded || window.PERFWH_SEARCH) { loaded = true; then(); return; }
      var s = document.createElement("script");
      s.src = indexUrl.href;
      s.onload = function () { loaded = true; then(); };
      document.head.appendChild(s);
    }
    // The words around the first match in a section's text, for a hit found in the text.
    function snippet(text, word) {
      var at = text.toLowerCase().indexOf(word);
      if (at === -1) { return ""; }
      var start = Math.max(0, text.lastIndexOf(" ", Math.max(0, at - 50)) + 1);
      var end = text.indexOf(" ", Math.min(text.length, at + word.length + 80));
      end = end === -1 ? text.length : end;
      return (start > 0 ? "\u2026" : "") + text.slice(start, end) + (end < text.length ? "\u2026" : "");
    }

    function show() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var phrase = words.join(" ");
      while (list.firstChild) { list.removeChild(list.firstChild); }
      if (!words.length) { list.hidden = true; return; }
      // titles, headings, reports and scenarios first; then sections whose text holds the words
      var named = [], inText = [];
      (window.PERFWH_SEARCH || []).forEach(function (e) {
        var name = (e.title + " " + e.kind).toLowerCase();
        if (words.every(function (w) { return name.indexOf(w) !== -1; })) { named.push(e); return; }
        var text = (e.text || "").toLowerCase();
        if (text && words.every(function (w) { return text.indexOf(w) !== -1 || name.indexOf(w) !== -1; })) {
          inText.push(e);
        }
      });
      var hits = named.concat(inText).slice(0, 30);
      hits.forEach(function (e) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = new URL(e.href, indexUrl).href;
        a.textContent = e.title;           // text, never HTML: titles come from the reports
        var kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = e.kind;
        a.appendChild(kind);
        if (named.indexOf(e) === -1) {
          var around = document.createElement("span");
          around.className = "snippet";
          var found = e.text.toLowerCase().indexOf(phrase) !== -1 ? phrase
            : words.filter(function (w) { return e.text.toLowerCase().indexOf(w) !== -1; })[0];
          around.textContent = snippet(e.text, found);
          a.appendChild(around);
        }
        li.appendChild(a);
        list.appendChild(li);
      });
      if (!hits.length) {
        var none = document.createElement("li");
        none.className = "kind";
        none.textContent = "  no match";
        list.appendChild(none);
      }
      list.hidden = false;
    }
    input.addEventListener("input", function () { load(show); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { input.value = ""; list.hidden = true; }
    });
    document.addEventListener("click", function (event) {
      if (!input.parentNode.contains(event.target)) { list.hidden = true; }
    });
  }

  function start() {
    charts();
    tables();
    menus();
    search();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
