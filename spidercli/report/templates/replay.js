// spidercli replay page: draws the position after entry N from the embedded data.
// Data: {geometry, width, height, extent, squeezed, runsToWin, start, frames, refusals, text,
//   stock, words}; extent: the tallest column of the game, squeezed: the least it squeezes to.
//   start: the position before any entry: c columns [face-down count, face-up cards],
//     k deals left, r suits of the runs removed ("SH"), o 1 when the game is over, m moves,
//     s score. A card is one letter: A-M spades (Ace to King), N-Z hearts, a-m diamonds,
//     n-z clubs.
//   frames: entry N is frames[N - 1] = [a, d, m, s, l, f]: a its action text; m, s, l the
//     change of moves, score and YAML line since the entry before; f (refused entries only)
//     its refusal, an index into refusals ([rule ID, message, cards]); trailing zeros and an
//     empty d are left out. d, the changes, is ";"-separated: "C-R+H" then letters for
//     column C (0-based): R cards taken off its top (face-down ones too), H face-down cards
//     put on, then the face-up cards; "*" the same change on every column, one letter each
//     (a deal); "kN" deals left; "rSH" the runs removed; "o1"/"o0" over or not.
//   text: the page's words; stock: the stock counter for each number of deals left;
//   words: the phrases of the position in words (spidercli's describe), in the page's language.
// Every string is drawn with textContent, never parsed as HTML.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var G = DATA.geometry;
  var FRAMES = DATA.frames;
  var T = DATA.text;
  var W = DATA.words;
  var LAST = FRAMES.length;
  var EVERY = 64; // a position is kept every EVERY entries; the others are rebuilt from it
  var LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  var RANKS = "A23456789TJQK";
  var SUITS = "SHDC";
  var NS = "http://www.w3.org/2000/svg";
  var SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var RANK = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var board = document.getElementById("board");
  var slider = document.getElementById("slider");
  var shown = -1;

  function $(id) { return document.getElementById(id); }

  // ------------------------------------------------------------------ positions from the data

  function copy(p) {
    return { c: p.c.map(function (col) { return [col[0], col[1]]; }),
             k: p.k, r: p.r, o: p.o, m: p.m, s: p.s, l: p.l || 0, f: p.f || null };
  }

  function change(p, c, text) {
    var m = /^(?:-(\d+))?(?:\+(\d+))?([A-Za-z]*)$/.exec(text);
    var col = p.c[c];
    var keep = col[0] + col[1].length - (m[1] ? parseInt(m[1], 10) : 0);
    if (keep < col[0]) { col[0] = keep; col[1] = ""; } else { col[1] = col[1].slice(0, keep - col[0]); }
    col[0] += m[2] ? parseInt(m[2], 10) : 0;
    col[1] += m[3];
  }

  function step(p, frame) {
    var d = frame[1] || "";
    if (d) {
      d.split(";").forEach(function (token) {
        var head = token.charAt(0);
        if (head === "*") {
          var letters = token.slice(1).replace(/^[-0-9]*/, "");
          var cut = token.slice(1, token.length - letters.length);
          for (var c = 0; c < p.c.length; c++) change(p, c, cut + letters.charAt(c));
        } else if (head === "k") {
          p.k = parseInt(token.slice(1), 10);
        } else if (head === "r") {
          p.r = token.slice(1);
        } else if (head === "o") {
          p.o = token.slice(1) === "1" ? 1 : 0;
        } else {
          var col = /^\d+/.exec(token)[0];
          change(p, parseInt(col, 10), token.slice(col.length));
        }
      });
    }
    p.m += frame[2] || 0;
    p.s += frame[3] || 0;
    p.l += frame[4] || 0;
    p.f = frame.length > 5 ? DATA.refusals[frame[5]] : null;
  }

  var KEPT = [copy(DATA.start)];
  (function () {
    var p = copy(DATA.start);
    for (var n = 1; n <= LAST; n++) {
      step(p, FRAMES[n - 1]);
      if (n % EVERY === 0) KEPT.push(copy(p));
    }
  }());

  function position(n) {
    var p = copy(KEPT[Math.floor(n / EVERY)]);
    for (var i = n - n % EVERY + 1; i <= n; i++) step(p, FRAMES[i - 1]);
    return p;
  }

  function cardText(letter) {
    var i = LETTERS.indexOf(letter);
    return RANKS.charAt(i % 13) + SUITS.charAt(Math.floor(i / 13));
  }

  // ------------------------------------------------------------------ the position in words

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  // Face-up cards in words; a one-suit run of three or more as one phrase (render._spoken).
  function spoken(up) {
    var parts = [];
    var i = 0;
    while (i < up.length) {
      var j = i;
      while (j + 1 < up.length) {
        var a = LETTERS.indexOf(up.charAt(j));
        var b = LETTERS.indexOf(up.charAt(j + 1));
        if (b !== a - 1 || Math.floor(a / 13) !== Math.floor(b / 13)) break;
        j++;
      }
      if (j - i >= 2) {
        parts.push(W.run[up.charAt(i) + up.charAt(j)]);
        i = j + 1;
      } else {
        parts.push(W.card[up.charAt(i)]);
        i++;
      }
    }
    return parts.join(", ");
  }

  // The same paragraph as spidercli's describe (render.describe_position).
  function words(p) {
    var kinds = p.r.split("").map(function (s) { return W.suits[s]; }).join(", ");
    var runs = fill(W.runs[p.r.length], { kinds: kinds });
    var parts = [fill(W.stock[p.k], { runs: runs })];
    var columns = p.c.map(function (col, c) {
      if (!col[1]) return fill(col[0] ? W.down[col[0]] : W.empty, { column: c + 1 });
      return fill(W.up[col[0]], { column: c + 1, cards: spoken(col[1]) });
    }).join("; ");
    parts.push(columns.charAt(0).toUpperCase() + columns.slice(1) + ".");
    if (p.m || p.o) parts.push(fill(W.moves, { moves: p.m, score: p.s }));
    return parts.join(" ");
  }

  // ------------------------------------------------------------------ the drawing

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

  function extent(down, up) {
    if (down + up === 0) return G.cardH;
    if (up === 0) return (down - 1) * G.downStep + G.cardH;
    return down * G.downStep + (up - 1) * G.upStep + G.cardH;
  }

  // Each card's distance from its column's top, squeezed to fit cap (svg.py's column_offsets).
  function offsets(down, up, cap) {
    var out = [];
    var i, j;
    if (cap === null || extent(down, up) <= cap || up === 0) {
      for (i = 0; i < down; i++) out.push(i * G.downStep);
      for (j = 0; j < up; j++) out.push(down * G.downStep + j * G.upStep);
      return out;
    }
    var room = cap - G.cardH;
    var rest = (up - 1) * G.upStep;
    var span;
    if (down * G.minDownStep + rest <= room) {
      span = room - rest;
      for (i = 0; i < down; i++) out.push(Math.floor(i * span / down));
      for (j = 0; j < up; j++) out.push(span + j * G.upStep);
      return out;
    }
    span = down * G.minDownStep;
    var left = Math.max(room - span, (up - 1) * G.minUpStep);
    for (i = 0; i < down; i++) out.push(i * G.minDownStep);
    for (j = 0; j < up; j++) out.push(span + Math.floor(j * left / Math.max(up - 1, 1)));
    return out;
  }

  // The board takes the room it has: as wide as its box, and the columns squeezed so that the
  // tallest fits the window's height (never below what shows every rank: then the drawing is
  // made smaller to fit). cap is null when nothing is squeezed.
  var cap = null;
  function fit() {
    var box = board.parentNode.getBoundingClientRect();
    var beside = getComputedStyle(board.parentNode).position === "sticky";
    var high = window.innerHeight - (beside ? 24 : Math.max(box.top + window.scrollY, 0) + 12);
    var scale = box.width / DATA.width;
    var room = Math.floor(high / scale) - G.columnsY - G.gap;
    var squeeze = room < DATA.extent ? Math.max(room, DATA.squeezed) : null;
    var height = G.columnsY + (squeeze === null ? DATA.extent : squeeze) + G.gap;
    board.setAttribute("viewBox", "0 0 " + DATA.width + " " + height);
    board.setAttribute("height", height);
    if (squeeze === null) board.removeAttribute("data-cap"); else board.setAttribute("data-cap", squeeze);
    var changed = squeeze !== cap;
    cap = squeeze;
    return changed;
  }

  // The same drawing as spidercli/svg.py's board_body.
  function draw(p) {
    var marked = p.f ? p.f[2].split(" ") : [];
    var parts = [el("rect", { "class": "felt", width: DATA.width, height: "100%" })];
    for (var i = 0; i < DATA.runsToWin; i++) {
      parts.push(i < p.r.length ? face("K" + p.r.charAt(i), columnX(i), G.top, "data-run", false)
                                : slot(columnX(i), G.top));
    }
    var stockX = columnX(p.c.length - 1);
    if (p.k === 0) parts.push(slot(stockX, G.top));
    for (var d = 0; d < p.k; d++) {
      parts.push(back(stockX - (p.k - 1 - d) * G.dealStep, G.top, "data-stock", d + 1));
    }
    if (p.k) {
      parts.push(el("text", { "class": "deals", x: stockX + G.cardW / 2, y: G.top + G.cardH / 2 + 7 }, String(p.k)));
    }
    p.c.forEach(function (column, c) {
      var x = columnX(c);
      var y = G.columnsY;
      parts.push(el("text", { "class": "num", x: x + G.cardW / 2, y: G.columnsY - 8 }, String(c + 1)));
      var g = el("g", { "data-col": c + 1 });
      var ys = offsets(column[0], column[1].length, cap);
      for (var n = 0; n < column[0]; n++) g.appendChild(back(x, y + ys[n], "data-card", "down"));
      for (var j = 0; j < column[1].length; j++) {
        var card = cardText(column[1].charAt(j));
        g.appendChild(face(card, x, y + ys[column[0] + j], "data-card", marked.indexOf(card) >= 0));
      }
      if (!g.firstChild) parts.push(slot(x, G.columnsY));
      parts.push(g);
    });
    board.replaceChildren.apply(board, parts);
  }

  // ------------------------------------------------------------------ the page

  function show(n) {
    n = Math.max(0, Math.min(LAST, n));
    if (n === shown) return;
    shown = n;
    var p = position(n);
    draw(p);
    var counters = $("counters");
    counters.dataset.entry = n;
    counters.dataset.moves = p.m;
    counters.dataset.score = p.s;
    $("entry").textContent = n;
    $("moves").textContent = p.m;
    $("score").textContent = p.s;
    $("runs").textContent = p.r.length + " / " + DATA.runsToWin + " " + p.r.split("").map(function (s) { return SYMBOL[s]; }).join("");
    $("stock").textContent = DATA.stock[p.k];
    var action = $("action");
    action.textContent = "";
    if (n === 0) {
      action.textContent = T.start;
    } else {
      action.appendChild(document.createTextNode((p.f ? T.entry : T.after).replace("{n}", n)));
      var code = document.createElement("code");
      code.textContent = FRAMES[n - 1][0];
      action.appendChild(code);
      action.appendChild(document.createTextNode(T.line.replace("{n}", p.l)));
    }
    var refusal = $("refusal");
    refusal.hidden = !p.f;
    refusal.textContent = "";
    if (p.f) {
      var rule = document.createElement("strong");
      rule.textContent = T.refused.replace("{rule}", p.f[0]);
      var note = document.createElement("span");
      note.className = "note";
      note.textContent = p.f[2] ? T.noteCards : T.note;
      refusal.append(rule, p.f[1], document.createElement("br"), note);
    }
    document.body.classList.toggle("refused", !!p.f);
    $("words").textContent = words(p);
    slider.value = n;
    $("first").disabled = $("prev").disabled = n === 0;
    $("last").disabled = $("next").disabled = n === LAST;
    var hash = "#" + n;
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (e) { location.hash = hash; }
    }
  }

  // Play: an entry a second from the one shown (from the start when at the end) to the end.
  var play = $("play");
  var timer = null;
  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    play.textContent = play.dataset.play;
  }
  function toggle() {
    if (timer !== null) { stop(); return; }
    if (shown === LAST) show(0);
    play.textContent = play.dataset.pause;
    timer = setInterval(function () {
      show(shown + 1);
      if (shown === LAST) stop();
    }, 1000);
  }

  // Without #N in the address the page opens where the verdict is: the first refused entry
  // (the last one when the replay stopped there), or the start of a log with none.
  var OPENING = 0;
  for (var i = 0; i < LAST; i++) {
    if (FRAMES[i].length > 5) { OPENING = i + 1; break; }
  }

  function fromHash() {
    var m = /^#(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : OPENING;
  }

  // A person's step stops the play.
  $("first").addEventListener("click", function () { stop(); show(0); });
  $("prev").addEventListener("click", function () { stop(); show(shown - 1); });
  $("next").addEventListener("click", function () { stop(); show(shown + 1); });
  $("last").addEventListener("click", function () { stop(); show(LAST); });
  play.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  window.addEventListener("resize", function () {
    if (fit()) { var n = shown; shown = -1; show(n); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target === slider) return;
    if (event.key === " " && event.target.tagName !== "BUTTON") {
      event.preventDefault();
      toggle();
      return;
    }
    var to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: LAST }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    stop();
    show(to);
  });
  fit();
  show(fromHash());
}());
