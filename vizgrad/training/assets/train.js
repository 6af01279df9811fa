(function () {
"use strict";
document.documentElement.classList.add("js");  // first: the panels are laid out before drawing
var D = JSON.parse(document.getElementById("vg-train").textContent);
var W = D.words, N = D.loss.length;
var k = 0, pick = D.pick, timer = null, speed = 1;
function $(id) { return document.getElementById(id); }
function fill(t, v) { return t.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? v[n] : m; }); }
function num(x) {
  if (x === null || x === undefined) { return "NaN"; }
  var s = Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(2) : String(+x.toPrecision(4));
  return s.replace("-", "\u2212");
}
function svgEl(tag, attrs) {
  var el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (var a in attrs) { el.setAttribute(a, attrs[a]); }
  return el;
}
function colour(v, max) {
  if (v === null || !isFinite(v) || max <= 0) { return "#eeeeee"; }
  var t = Math.max(-1, Math.min(1, v / max)), a = Math.abs(t);
  var r = t > 0 ? 255 : Math.round(255 - 200 * a), b = t < 0 ? 255 : Math.round(255 - 200 * a);
  var g = Math.round(255 - 170 * a);
  return "rgb(" + r + "," + g + "," + b + ")";
}
// the loss curve
function curve(box, series, marked, label, onpick) {
  // drawn at the box's own width, so that its 12 px numbers stay 12 px on a phone
  var w = Math.max(300, Math.round(box.clientWidth || 600)), h = 200, pad = 64;
  var all = [].concat.apply([], series).filter(function (v) { return v !== null && isFinite(v); });
  var lo = Math.min.apply(null, all.concat([0])), hi = Math.max.apply(null, all.concat([0]));
  if (hi === lo) { hi = lo + 1; }
  var svg = svgEl("svg", {viewBox: "0 0 " + w + " " + h, role: "img", "aria-label": label});
  function x(i) { return pad + (w - pad - 10) * (N > 1 ? i / (N - 1) : 0); }
  function y(v) { return 10 + (h - 40) * (hi - v) / (hi - lo); }
  svg.appendChild(svgEl("line", {x1: pad, x2: w - 10, y1: y(0), y2: y(0), stroke: "#999"}));
  [hi, lo].forEach(function (v) {
    var t = svgEl("text", {x: pad - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 12});
    t.textContent = num(v); svg.appendChild(t);
  });
  series.forEach(function (s, j) {
    var pts = s.map(function (v, i) { return v === null ? "" : x(i) + "," + y(v); }).join(" ");
    svg.appendChild(svgEl("polyline", {points: pts, fill: "none", stroke: j ? "#c0392b" : "#1f5fa8",
      "stroke-width": 2, "stroke-dasharray": j ? "6 4" : "none"}));
  });
  var mark = svgEl("circle", {r: 6, fill: "#e67e22", stroke: "#000", "class": "mark"});
  var at = svgEl("line", {y1: 10, y2: h - 30, stroke: "#e67e22", "class": "at"});
  svg.appendChild(at); svg.appendChild(mark);
  var t0 = svgEl("text", {x: pad, y: h - 8, "font-size": 12}); t0.textContent = "0"; svg.appendChild(t0);
  var t1 = svgEl("text", {x: w - 10, y: h - 8, "font-size": 12, "text-anchor": "end"});
  t1.textContent = String(N - 1); svg.appendChild(t1);
  box.textContent = ""; box.appendChild(svg);
  if (onpick) {
    var down = false;
    function at_(ev) {
      var r = svg.getBoundingClientRect(), fx = (ev.clientX - r.left) / r.width * w;
      onpick(Math.max(0, Math.min(N - 1, Math.round((fx - pad) / (w - pad - 10) * (N - 1)))));
    }
    svg.addEventListener("pointerdown", function (ev) { down = true; at_(ev); });
    svg.addEventListener("pointermove", function (ev) { if (down) { at_(ev); } });
    window.addEventListener("pointerup", function () { down = false; });
  }
  return function (i) {
    var v = series[0][i];
    mark.setAttribute("cx", x(i)); mark.setAttribute("cy", v === null ? 10 : y(v));
    at.setAttribute("x1", x(i)); at.setAttribute("x2", x(i));
  };
}
var showLoss = curve($("loss"), D.compare ? [D.loss, D.compare.loss] : [D.loss], true, W.curve, go);
var dataMax = 0;
D.data.forEach(function (row) { row.forEach(function (v) { if (v !== null) { dataMax = Math.max(dataMax, Math.abs(v)); } }); });
// the net: per layer a block of cells, a row per neuron (w0 … wn, b)
var cells = [];
function grid(where) {
  var box = $(where); box.textContent = "";
  var i = 0;
  D.net.layers.forEach(function (layer) {
    var fig = document.createElement("div"); fig.className = "layer";
    var cap = document.createElement("div"); cap.className = "lname"; cap.textContent = layer.name;
    fig.appendChild(cap);
    layer.neurons.forEach(function (neuron) {
      var row = document.createElement("div"); row.className = "nrow";
      neuron.parameters.forEach(function (name) {
        var c = document.createElement("button"); c.className = "cell"; c.dataset.i = i;
        c.title = name; c.setAttribute("aria-label", name);
        (function (j) { c.addEventListener("click", function () { pick = j; draw(); }); })(i);
        row.appendChild(c); cells.push([where, c]); i += 1;
      });
      fig.appendChild(row);
    });
    box.appendChild(fig);
  });
}
grid("data"); grid("grad");
var paramCurve = null, pickedShown = -1;
function drawPick() {
  var name = D.names[pick];
  $("pname").textContent = fill(W.param_curve, {name: name});
  var ds = D.data.map(function (r) { return r[pick]; }), gs = D.grad.map(function (r) { return r[pick]; });
  var showData = curve($("pcurve"), [ds], false, name + ".data", go);
  var showGrad = curve($("gcurve"), [gs], false, name + ".grad", go);
  paramCurve = function (i) { showData(i); showGrad(i); };
  if (D.compare) {
    var cg = D.compare.grad.map(function (r) { return r[pick]; });
    $("cname").textContent = fill(W.compare_grad, {name: name});
    curve($("ccurve"), [gs, cg], false, name, go)(k);
  }
  pickedShown = pick;
}
// the prediction over the input plane
function plane() {
  var c = $("plane"); if (!c || !D.plane) { return; }
  var g = D.plane, n = g.n, ctx = c.getContext("2d"), s = c.width / n, row = g.values[k];
  for (var i = 0; i < n; i += 1) {
    for (var j = 0; j < n; j += 1) {
      ctx.fillStyle = colour(row[i * n + j], 1.5); ctx.fillRect(j * s, c.height - (i + 1) * s, s + 1, s + 1);
    }
  }
  var xs = D.samples.x, ys = D.samples.y;
  for (var q = 0; q < xs.length; q += 1) {
    var px = (xs[q][0] - g.x0) / (g.x1 - g.x0) * c.width, py = c.height - (xs[q][1] - g.y0) / (g.y1 - g.y0) * c.height;
    ctx.beginPath(); ctx.arc(px, py, 5, 0, 2 * Math.PI);
    ctx.fillStyle = ys[q] > 0 ? "#6b0000" : "#ffffff"; ctx.fill();
    ctx.lineWidth = 2.5; ctx.strokeStyle = ys[q] > 0 ? "#ffffff" : "#0b2a66"; ctx.stroke();
  }
}
function draw() {
  var gmax = 0, g = D.grad[k], d = D.data[k];
  g.forEach(function (v) { if (v !== null) { gmax = Math.max(gmax, Math.abs(v)); } });
  cells.forEach(function (pair) {
    var c = pair[1], i = +c.dataset.i;
    c.style.background = pair[0] === "data" ? colour(d[i], dataMax) : colour(g[i], gmax);
    c.title = D.names[i] + ": data " + num(d[i]) + ", grad " + num(g[i]);
    c.classList.toggle("picked", i === pick);
  });
  $("dcap").textContent = fill(W.data, {max: num(dataMax)});
  $("gcap").textContent = fill(W.grad, {max: num(gmax)});
  $("status").textContent = fill(W.step, {k: k, n: N - 1}) + " \u00b7 " + fill(W.loss_at, {loss: num(D.loss[k])}) +
    " \u00b7 " + fill(W.lr, {lr: num(D.lrs[k])});
  $("slider").value = k;
  showLoss(k);
  if (pickedShown !== pick) { drawPick(); }
  paramCurve(k);
  var name = D.names[pick], lr = D.lrs[k], dk = d[pick], gk = g[pick];
  var after = k + 1 < N ? D.data[k + 1][pick] : null;
  var sum = dk - lr * gk;
  $("ucap").textContent = k + 1 < N ? fill(W.update, {k: k}) : W.update_last;
  $("update").textContent = name + ".data += \u2212lr \u00d7 " + name + ".grad = " + num(dk) + " + (" +
    num(-lr) + " \u00d7 " + num(gk) + ") = " + num(after === null ? sum : after);
  plane();
  if (D.compare) { curve($("ccurve"), [D.grad.map(function (r) { return r[pick]; }), D.compare.grad.map(function (r) { return r[pick]; })], false, name, go)(k); }
}
function go(i) { k = Math.max(0, Math.min(N - 1, i)); draw(); }
function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = W.play; return; }
  if (k >= N - 1) { k = 0; }
  $("play").textContent = W.pause;
  timer = setInterval(function () { if (k >= N - 1) { play(); } else { go(k + 1); } }, 400 / speed);
}
$("play").addEventListener("click", play);
$("prev").addEventListener("click", function () { go(k - 1); });
$("next").addEventListener("click", function () { go(k + 1); });
$("slider").max = N - 1;
$("slider").addEventListener("input", function () { go(+$("slider").value); });
$("speed").addEventListener("change", function () {
  speed = +$("speed").value; if (timer) { play(); play(); }
});
document.addEventListener("keydown", function (ev) {
  if (ev.target && (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT")) { return; }
  if (ev.key === "ArrowRight") { go(k + 1); } else if (ev.key === "ArrowLeft") { go(k - 1); }
  else if (ev.key === "Home") { go(0); } else if (ev.key === "End") { go(N - 1); }
  else if (ev.key === " ") { ev.preventDefault(); play(); } else { return; }
});
// the detailed steps: each opens its own step player in a frame
Array.prototype.forEach.call(document.querySelectorAll("button.open"), function (b) {
  b.addEventListener("click", function () {
    var step = b.dataset.step, frame = $("detail-frame");
    if (timer) { play(); }
    frame.srcdoc = $("vg-detail-" + step).textContent.replace(/<\\\/script/g, "</script").replace(/<\\!--/g, "<!--");
    $("detail").hidden = false; $("detail-title").textContent = b.textContent;
    go(+step);
    $("detail").scrollIntoView();
  });
});
if ($("close")) { $("close").addEventListener("click", function () { $("detail").hidden = true; $("detail-frame").srcdoc = ""; }); }
draw();
})();
