/**
 * The script of the HTML report, run in the browser: it reads the embedded JSON data, fills the
 * tables through `textContent` (never markup), makes the leaderboard sortable by clicking a
 * header, and draws every chart with Observable Plot (the inlined global `Plot`). Plain ES2017,
 * kept as text here because the package compiles for Node, not the DOM.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  // Numbers as the command line prints them: printf.ts (ties to even), bundled as TrecscoreFormat.
  function fmt(v) { return v === null || v === undefined ? 'undef' : TrecscoreFormat.formatFixed(Number(v), 4); }
  function signed(v) { var t = fmt(v); return v >= 0 && t.charAt(0) !== '-' ? '+' + t : t; }
  function pText(p) { return p === null || p === undefined ? 'n/a' : TrecscoreFormat.formatP(p); }
  // Control characters and bidi overrides in names and ids shown as \xNN / \u{NNNN} (as the text renderers do).
  var CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  function show(t) {
    return String(t).replace(CONTROL, function (c) {
      var code = c.charCodeAt(0);
      return code <= 0xff ? '\\x' + (code < 16 ? '0' : '') + code.toString(16) : '\\u{' + code.toString(16) + '}';
    });
  }
  function byId(id) { return document.getElementById(id); }

  byId('title').textContent = show(data.title);
  byId('source').textContent = show(data.source);

  // Leaderboard: one row per run; click a header to sort (numbers descending first, text ascending).
  var table = byId('leaderboard');
  var columns = [{ key: 'run', label: 'run', text: true }, { key: 'tag', label: 'tag', text: true }].concat(
    data.measures.map(function (m, i) { return { key: 'm' + i, label: m, measure: i }; }));
  var best = data.measures.map(function (_, i) {
    var vs = data.leaderboard.map(function (r) { return r.values[i]; }).filter(function (v) { return v !== null; });
    return vs.length ? Math.max.apply(null, vs) : null;
  });
  var thead = el('thead'), hr = el('tr');
  columns.forEach(function (c, ci) {
    var th = el('th');
    th.setAttribute('scope', 'col');
    th.setAttribute('aria-sort', 'none');
    th.dataset.col = String(ci);
    var b = el('button', c.label, 'sort');
    b.type = 'button';
    b.addEventListener('click', function () { sortBy(ci); });
    th.appendChild(b);
    hr.appendChild(th);
  });
  thead.appendChild(hr);
  table.appendChild(thead);
  var tbody = el('tbody');
  data.leaderboard.forEach(function (row) {
    var run = data.runs[row.run];
    var tr = el('tr');
    var name = el('td', null, 'text name');
    name.appendChild(el('span', run.letter, 'letter'));
    name.appendChild(document.createTextNode(' ' + show(run.name)));
    name.dataset.sort = run.name;
    tr.appendChild(name);
    var tag = el('td', show(run.tag), 'text');
    tag.dataset.sort = run.tag;
    tr.appendChild(tag);
    row.values.forEach(function (v, i) {
      var td = el('td', fmt(v), 'num');
      td.dataset.sort = v === null ? '' : String(v);
      if (v !== null && v === best[i] && data.leaderboard.length > 1) td.classList.add('best');
      var beats = row.beats[i] || [];
      if (beats.length) {
        var sup = el('sup', beats.join(''), 'sig');
        sup.title = 'significantly better than ' + beats.join(', ');
        td.appendChild(sup);
      }
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
  table.appendChild(tbody);
  var sortState = { col: -1, dir: 0 };
  function sortBy(ci) {
    var text = !!columns[ci].text;
    var dir = sortState.col === ci ? -sortState.dir : (text ? 1 : -1);
    sortState = { col: ci, dir: dir };
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = a.cells[ci].dataset.sort, y = b.cells[ci].dataset.sort;
      if (text) return dir * (x < y ? -1 : x > y ? 1 : 0);
      if (x === '' && y === '') return 0;
      if (x === '') return 1;
      if (y === '') return -1;
      return dir * (Number(x) - Number(y));
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
    Array.prototype.forEach.call(hr.cells, function (th, i) {
      th.setAttribute('aria-sort', i === ci ? (dir > 0 ? 'ascending' : 'descending') : 'none');
    });
  }
  byId('legend').textContent = data.significance ? show(data.significance.legend) : 'No significance tests (a single run, or not computed).';
  var best0 = el('p', 'Bold: best value of the column.', 'hint');
  byId('legend').after(best0);

  // Conventions and counts.
  var dl = byId('conventions');
  data.conventions.forEach(function (c) { dl.appendChild(el('dt', show(c[0]))); dl.appendChild(el('dd', show(c[1]))); });
  var counts = byId('counts');
  if (data.counts.length) {
    var ch = el('tr');
    ch.appendChild(el('th', 'run'));
    data.counts[0].items.forEach(function (it) { ch.appendChild(el('th', it[0])); });
    var cth = el('thead'); cth.appendChild(ch); counts.appendChild(cth);
    var ctb = el('tbody');
    data.counts.forEach(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', show(c.run), 'text name'));
      c.items.forEach(function (it, i) { tr.appendChild(el('td', it[1], i > 0 && it[1] ? 'num nonzero' : 'num')); });
      ctb.appendChild(tr);
    });
    counts.appendChild(ctb);
  }
  var notes = byId('notes');
  data.notes.forEach(function (n) { notes.appendChild(el('li', show(n))); });
  if (!data.notes.length) byId('notes-section').hidden = true;

  // Charts, redrawn for the measure chosen.
  var select = byId('measure');
  data.measures.forEach(function (m) { var o = el('option', m); o.value = m; select.appendChild(o); });
  select.value = data.primary;
  select.addEventListener('change', function () { draw(select.value); });
  var runNames = data.runs.map(function (r) { return r.name; });
  // Charts name a run by its letter and a shortened name (the folder all runs share left out, then
  // at most 30 characters), so axis labels and legends stay readable; the key under the chart and
  // the leaderboard give full names.
  var common = data.runs.length < 2 ? '' : data.runs.map(function (r) { return show(r.name); }).reduce(function (p, n) {
    var i = 0;
    while (i < p.length && i < n.length && p[i] === n[i]) i++;
    return p.slice(0, i);
  });
  common = common.slice(0, common.lastIndexOf('/') + 1);
  function shorten(t) { var u = t.slice(common.length) || t; return u.length <= 30 ? u : u.slice(0, 14) + '…' + u.slice(-15); }
  var labelOf = new Map(data.runs.map(function (r) { return [r.name, r.letter + ' ' + shorten(show(r.name))]; }));
  var runLabels = data.runs.map(function (r) { return labelOf.get(r.name); });
  var shortened = data.runs.some(function (r) { return labelOf.get(r.name) !== r.letter + ' ' + show(r.name); });
  function label(d) { return labelOf.get(d.run); }
  function withKey(node) {
    if (!shortened) return node;
    var box = document.createElement('div');
    box.appendChild(node);
    box.appendChild(el('p', 'Runs: ' + data.runs.map(function (r) { return r.letter + ' = ' + show(r.name); }).join('; '), 'chart-key'));
    return box;
  }

  function put(id, node) { var box = byId(id); box.replaceChildren(node); }
  function width(id) { return Math.max(320, Math.min(1100, byId(id).clientWidth || 800)); }

  function sigFor(run, versus, m) {
    if (!data.significance) return null;
    for (var i = 0; i < data.significance.rows.length; i++) {
      var s = data.significance.rows[i];
      if (s.measure !== m) continue;
      if (s.run === run && s.versus === versus) return { p: s.pAdjusted, significant: s.significant, better: s.better === 'run' ? run : s.better === 'versus' ? versus : null };
      if (s.run === versus && s.versus === run) return { p: s.pAdjusted, significant: s.significant, better: s.better === 'run' ? versus : s.better === 'versus' ? run : null };
    }
    return null;
  }

  function draw(m) {
    var rows = data.perQuery.filter(function (q) { return q.values[m] !== null && q.values[m] !== undefined; })
      .map(function (q) { return { run: q.run, query: q.query, value: q.values[m] }; });
    var margin = Math.min(260, 12 + 7 * Math.max.apply(null, runLabels.map(function (n) { return n.length; })));
    put('chart-distribution', withKey(Plot.plot({
      width: width('chart-distribution'), marginLeft: margin, height: 60 + 46 * runNames.length,
      x: { label: m + ' per query', grid: true }, y: { label: null, domain: runLabels },
      color: { domain: runLabels },
      marks: [
        Plot.boxX(rows, { x: 'value', y: label, stroke: '#555', fill: '#e8e8e8' }),
        Plot.dot(rows, { className: 'query-dots', x: 'value', y: label, fill: label, r: 2.5, fillOpacity: 0.55, title: function (d) { return show(d.run) + ' · ' + show(d.query) + ': ' + fmt(d.value); } })
      ]
    })));

    if (data.domains && data.domains.length) {
      var drows = data.domains.filter(function (d) { return d.values[m] !== null && d.values[m] !== undefined; })
        .map(function (d) { return { run: d.run, group: d.group, value: d.values[m], n: d.n }; });
      put('chart-domains', withKey(Plot.plot({
        width: width('chart-domains'), height: 300, marginBottom: 40,
        fx: { label: null }, x: { axis: null, domain: runLabels }, y: { label: m, grid: true },
        color: { domain: runLabels, legend: true },
        marks: [
          Plot.barY(drows, { className: 'domain-bars', fx: 'group', x: label, y: 'value', fill: label, title: function (d) { return show(d.run) + ' · ' + show(d.group) + ': ' + fmt(d.value) + (d.n === null ? '' : ' (n=' + d.n + ')'); } }),
          Plot.ruleY([0])
        ]
      })));
    }

    if (data.turnDepth && data.turnDepth.length) {
      var trows = data.turnDepth.filter(function (d) { return d.values[m] !== null && d.values[m] !== undefined; })
        .map(function (d) { return { run: d.run, group: d.group, value: d.values[m], n: d.n }; });
      var depths = Array.from(new Set(trows.map(function (d) { return d.group; }))).sort();
      put('chart-turns', withKey(Plot.plot({
        width: width('chart-turns'), height: 300,
        x: { type: 'point', domain: depths, label: 'turn depth', padding: 0.3 }, y: { label: m, grid: true },
        color: { domain: runLabels, legend: true },
        marks: [
          Plot.line(trows, { className: 'turn-lines', x: 'group', y: 'value', stroke: label }),
          Plot.dot(trows, { x: 'group', y: 'value', fill: label, r: 3.5, title: function (d) { return show(d.run) + ' · ' + show(d.group) + ': ' + fmt(d.value) + (d.n === null ? '' : ' (n=' + d.n + ')'); } })
        ]
      })));
    }

    var diffBox = byId('chart-diff');
    diffBox.replaceChildren();
    if (data.baseline !== null) {
      var base = new Map();
      data.perQuery.forEach(function (q) { if (q.run === data.baseline && q.values[m] !== null && q.values[m] !== undefined) base.set((q.group || '') + '\u0000' + q.query, q.values[m]); });
      runNames.filter(function (r) { return r !== data.baseline; }).forEach(function (r) {
        var diffs = [];
        data.perQuery.forEach(function (q) {
          var k = (q.group || '') + '\u0000' + q.query;
          if (q.run === r && q.values[m] !== null && q.values[m] !== undefined && base.has(k))
            diffs.push({ query: show((q.group ? q.group + ' ' : '') + q.query), diff: q.values[m] - base.get(k) });
        });
        diffs.sort(function (a, b) { return b.diff - a.diff || (a.query < b.query ? -1 : 1); });
        var wins = diffs.filter(function (d) { return d.diff > 0; }).length, losses = diffs.filter(function (d) { return d.diff < 0; }).length;
        var mean = diffs.reduce(function (a, d) { return a + d.diff; }, 0) / (diffs.length || 1);
        var fig = el('figure', null, 'diff');
        var s = sigFor(r, data.baseline, m);
        var cap = show(r) + ' − ' + show(data.baseline) + ' on ' + m + ': mean ' + signed(mean) + ', ' + wins + ' better / ' + (diffs.length - wins - losses) + ' equal / ' + losses + ' worse' +
          (s ? '; adjusted p = ' + pText(s.p) + (s.significant ? ' (significant: ' + s.better + ' better)' : ' (not significant)') : '');
        var fc = el('figcaption', cap);
        if (s && s.significant) fc.appendChild(el('span', ' ★', 'sig'));
        fig.appendChild(fc);
        fig.appendChild(Plot.plot({
          width: width('chart-diff'), height: 220,
          x: { axis: null, domain: diffs.map(function (d) { return d.query; }), label: 'queries, sorted by difference' },
          // All differences 0 (a run equal to the baseline): a symmetric domain, not a degenerate one.
          y: Object.assign({ label: 'difference in ' + m, grid: true }, diffs.every(function (d) { return d.diff === 0; }) ? { domain: [-1, 1] } : {}),
          color: { domain: ['better', 'equal', 'worse'], range: ['#2a7f3f', '#999999', '#b3261e'], legend: true },
          marks: [
            Plot.barY(diffs, { className: 'diff-bars', x: 'query', y: 'diff', fill: function (d) { return d.diff > 0 ? 'better' : d.diff < 0 ? 'worse' : 'equal'; }, title: function (d) { return d.query + ': ' + signed(d.diff); } }),
            Plot.ruleY([0])
          ]
        }));
        diffBox.appendChild(fig);
      });
    }

    var st = byId('significance');
    st.replaceChildren();
    if (data.significance) {
      var sh = el('tr');
      ['run', 'versus', 'mean difference', 'wins / ties / losses', 'adjusted p', 'significant'].forEach(function (h) { sh.appendChild(el('th', h)); });
      var sth = el('thead'); sth.appendChild(sh); st.appendChild(sth);
      var stb = el('tbody');
      data.significance.rows.filter(function (s) { return s.measure === m; }).forEach(function (s) {
        var tr = el('tr');
        tr.appendChild(el('td', show(s.run), 'text name'));
        tr.appendChild(el('td', show(s.versus), 'text name'));
        tr.appendChild(el('td', signed(s.meanDifference), 'num'));
        tr.appendChild(el('td', s.wins + ' / ' + s.ties + ' / ' + s.losses, 'num'));
        tr.appendChild(el('td', pText(s.pAdjusted), 'num'));
        tr.appendChild(el('td', s.significant ? 'yes (' + show(s.better === 'run' ? s.run : s.versus) + ')' : 'no', 'text name'));
        stb.appendChild(tr);
      });
      st.appendChild(stb);
    }
    if (data.sensitivity) drawSensitivity(m);
  }
  // Convention sensitivity: one dot per run and alternative (delta from the chosen score), and
  // the alternatives under which the runs trade places.
  function drawSensitivity(m) {
    var s = data.sensitivity;
    var mi = s.measures.indexOf(m);
    var rt = byId('sensitivity-ranking');
    rt.replaceChildren();
    if (mi < 0) { put('chart-sensitivity', el('p', 'No sensitivity data for ' + m + '.', 'hint')); return; }
    var rows = [], alts = [], changes = [];
    s.conventions.forEach(function (k) {
      k.alternatives.forEach(function (a) {
        var name = k.label + ': ' + a.value;
        alts.push(name);
        a.cells.forEach(function (row, r) {
          var c = row[mi];
          if (c.delta === null) return;
          rows.push({ run: s.runs[r], alt: name, delta: c.delta, score: c.score, chosen: c.chosen, changed: c.changedQueries });
        });
        var g = a.rankings[mi];
        if (g.swaps.length) changes.push({ convention: k.label, value: a.value, tau: g.tau, swaps: g.swaps });
      });
    });
    var margin = Math.min(320, 12 + 7 * Math.max.apply(null, alts.map(function (n) { return n.length; }).concat([8])));
    var flat = rows.every(function (d) { return d.delta === 0; });
    put('chart-sensitivity', withKey(Plot.plot({
      width: width('chart-sensitivity'), marginLeft: margin, height: 50 + 22 * alts.length,
      x: Object.assign({ label: 'alternative minus chosen score (' + m + ')', grid: true }, flat ? { domain: [-1, 1] } : {}),
      y: { label: null, domain: alts },
      color: { domain: runLabels, legend: true },
      marks: [
        Plot.ruleX([0]),
        Plot.dot(rows, { className: 'sensitivity-dots', x: 'delta', y: 'alt', fill: label, r: 3.5, title: function (d) { return show(d.run) + ' · ' + d.alt + ': ' + fmt(d.chosen) + ' → ' + fmt(d.score) + ' (' + signed(d.delta) + ', ' + d.changed + ' quer' + (d.changed === 1 ? 'y' : 'ies') + ' changed)'; } })
      ]
    })));
    var hr = el('tr');
    ['convention', 'alternative', 'Kendall tau', 'pairs that swap'].forEach(function (h) { hr.appendChild(el('th', h)); });
    var th = el('thead'); th.appendChild(hr); rt.appendChild(th);
    var tb = el('tbody');
    if (!changes.length) {
      var tr0 = el('tr'), td0 = el('td', 'The ranking of the runs on ' + m + ' is the same under every alternative.', 'text');
      td0.colSpan = 4; tr0.appendChild(td0); tb.appendChild(tr0);
    }
    changes.forEach(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', c.convention, 'text'));
      tr.appendChild(el('td', c.value, 'text'));
      tr.appendChild(el('td', c.tau === null ? 'n/a' : fmt(c.tau), 'num'));
      tr.appendChild(el('td', c.swaps.map(function (p) { return show(p[0]) + ' > ' + show(p[1]) + ' becomes ' + show(p[1]) + ' > ' + show(p[0]); }).join('; '), 'text name'));
      tb.appendChild(tr);
    });
    rt.appendChild(tb);
  }
  if (data.sensitivity) {
    var sc = byId('sensitivity-conventions');
    data.sensitivity.conventions.forEach(function (k) { sc.appendChild(el('li', k.label + ': chosen ' + show(k.chosen))); });
    data.sensitivity.skipped.forEach(function (k) { sc.appendChild(el('li', 'not varied: ' + k.label + ' (' + show(k.reason) + ')')); });
    data.sensitivity.notes.forEach(function (n) { sc.appendChild(el('li', 'note: ' + show(n))); });
  } else byId('sensitivity-section').hidden = true;
  if (!data.domains || !data.domains.length) byId('domains-section').hidden = true;
  if (!data.turnDepth || !data.turnDepth.length) byId('turns-section').hidden = true;
  if (data.baseline === null) byId('diff-section').hidden = true;
  if (!data.significance) byId('significance-section').hidden = true;
  draw(data.primary);
  document.body.dataset.ready = 'true';
})();
`
