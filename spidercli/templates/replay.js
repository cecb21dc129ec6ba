// spidercli replay page: draws the position after entry N from the embedded data.
// Data: {geometry, width, height, runsToWin, frames}; a frame is
//   e entry number (0 = start), l its YAML line, a its action text,
//   m moves, s score, r runs removed, k stock cards, d deals left, x suits of the runs removed,
//   c columns [face-down count, face-up cards as "TS9S8H"], t the position in words,
//   f (refused entries only) [rule ID, message, cards]; text: the page's words in its language,
//   stock: each frame's stock line.
// Every string is drawn with textContent, never parsed as HTML.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var G = DATA.geometry;
  var FRAMES = DATA.frames;
  var T = DATA.text;
  var LAST = FRAMES.length - 1;
  var NS = "http://www.w3.org/2000/svg";
  var SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RANK = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var shown = -1;

  function $(id) { return document.getElementById(id); }

  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function at(x, y) { return "translate(" + x + "," + y + ")"; }

  function rect(cls, extra) {
    var attrs = { "class": cls, width: G.cardW, height: G.cardH, rx: 6 };
    for (var key in extra) attrs[key] = extra[key];
    return el("rect", attrs);
  }

  function face(card, x, y, key, marked) {
    var colour = "HD".indexOf(card[1]) >= 0 ? "red" : "black";
    var symbol = SYMBOL[card[1]];
    var attrs = { transform: at(x, y) };
    attrs[key] = card;
    var g = el("g", attrs);
    g.appendChild(rect("face"));
    g.appendChild(el("text", { "class": "rank " + colour, x: 5, y: 18 }, (RANK[card[0]] || card[0]) + symbol));
    g.appendChild(el("text", { "class": "pip " + colour, x: G.cardW / 2, y: G.cardH - 22 }, symbol));
    if (marked) g.appendChild(rect("hl"));
    return g;
  }

  function back(x, y, key, value) {
    var attrs = { transform: at(x, y) };
    attrs[key] = value;
    var g = el("g", attrs);
    g.appendChild(rect("back"));
    g.appendChild(el("rect", { "class": "back-in", x: 4, y: 4, width: G.cardW - 8, height: G.cardH - 8, rx: 4 }));
    return g;
  }

  function slot(x, y) { return rect("slot", { x: x, y: y }); }

  function columnX(c) { return G.gap + c * (G.cardW + G.gap); }

  // The same drawing as spidercli/svg.py's board_body.
  function draw(f) {
    var marked = f.f ? f.f[2].split(" ") : [];
    var parts = [el("rect", { "class": "felt", width: DATA.width, height: "100%" })];
    for (var i = 0; i < DATA.runsToWin; i++) {
      parts.push(i < f.x.length ? face("K" + f.x[i], columnX(i), G.top, "data-run", false)
                                : slot(columnX(i), G.top));
    }
    var stockX = columnX(f.c.length - 1);
    if (f.d === 0) parts.push(slot(stockX, G.top));
    for (var d = 0; d < f.d; d++) {
      parts.push(back(stockX - (f.d - 1 - d) * G.dealStep, G.top, "data-stock", d + 1));
    }
    if (f.d) {
      parts.push(el("text", { "class": "deals", x: stockX + G.cardW / 2, y: G.top + G.cardH / 2 + 7 }, String(f.d)));
    }
    f.c.forEach(function (column, c) {
      var x = columnX(c);
      var y = G.columnsY;
      parts.push(el("text", { "class": "num", x: x + G.cardW / 2, y: G.columnsY - 8 }, String(c + 1)));
      var g = el("g", { "data-col": c + 1 });
      for (var n = 0; n < column[0]; n++, y += G.downStep) g.appendChild(back(x, y, "data-card", "down"));
      for (var j = 0; j < column[1].length; j += 2, y += G.upStep) {
        var card = column[1].substr(j, 2);
        g.appendChild(face(card, x, y, "data-card", marked.indexOf(card) >= 0));
      }
      if (!g.firstChild) parts.push(slot(x, G.columnsY));
      parts.push(g);
    });
    board.replaceChildren.apply(board, parts);
  }

  function show(n) {
    n = Math.max(0, Math.min(LAST, n));
    if (n === shown) return;
    shown = n;
    var f = FRAMES[n];
    draw(f);
    var counters = $("counters");
    counters.dataset.entry = f.e;
    counters.dataset.moves = f.m;
    counters.dataset.score = f.s;
    $("entry").textContent = f.e;
    $("moves").textContent = f.m;
    $("score").textContent = f.s;
    $("runs").textContent = f.r + " / " + DATA.runsToWin + " " + f.x.split("").map(function (s) { return SYMBOL[s]; }).join("");
    $("stock").textContent = DATA.stock[n];
    var action = $("action");
    action.textContent = "";
    if (f.e === 0) {
      action.textContent = T.start;
    } else {
      action.appendChild(document.createTextNode((f.f ? T.entry : T.after).replace("{n}", f.e)));
      var code = document.createElement("code");
      code.textContent = f.a;
      action.appendChild(code);
      action.appendChild(document.createTextNode(T.line.replace("{n}", f.l)));
    }
    var refusal = $("refusal");
    refusal.hidden = !f.f;
    refusal.textContent = "";
    if (f.f) {
      var rule = document.createElement("strong");
      rule.textContent = T.refused.replace("{rule}", f.f[0]);
      var note = document.createElement("span");
      note.className = "note";
      note.textContent = f.f[2] ? T.noteCards : T.note;
      refusal.append(rule, f.f[1], document.createElement("br"), note);
    }
    document.body.classList.toggle("refused", !!f.f);
    $("words").textContent = f.t;
    slider.value = n;
    $("first").disabled = $("prev").disabled = n === 0;
    $("last").disabled = $("next").disabled = n === LAST;
    var hash = "#" + n;
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (e) { location.hash = hash; }
    }
  }

  function fromHash() {
    var m = /^#(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(shown - 1); });
  $("next").addEventListener("click", function () { show(shown + 1); });
  $("last").addEventListener("click", function () { show(LAST); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target === slider) return;
    var to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: LAST }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  show(fromHash());
}());
