/* live.js - the spectator page: draws the snapshot the server sends (arena/live/feed.c) and
 * long-polls for the next one. The server does the work once per change; this script only
 * draws, and treats every string it gets as text (textContent, never innerHTML). */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function num(v, d) {
    if (v === null || v === undefined) return '-';
    var s = Number(v).toFixed(d);
    return v > 0 && d > 0 ? '+' + s : s;
  }
  var state = JSON.parse($('okr-state').textContent);
  var watching = null;
  var lastWatchLoad = 0;

  function standings(s) {
    var tb = $('t-standings').tBodies[0];
    tb.textContent = '';
    s.standings.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(el('td', '', r.rank));
      tr.appendChild(el('td', 'l', r.name));
      /* never played: its score comes of forfeits, not of play (as in the report) */
      tr.appendChild(el('td', r.never_played ? 'mark' : '',
        r.never_played ? 'never played' : r.score_text || num(r.score, 1)));
      tr.appendChild(el('td', r.ci ? '' : 'na', r.ci_text ||
        (r.ci && r.ci[0] !== null ? '[' + num(r.ci[0], 1) + ', ' + num(r.ci[1], 1) + ']' : '-')));
      tr.appendChild(el('td', '', r.games));
      tr.appendChild(el('td', '', r.wins));
      tr.appendChild(el('td', '', r.mean_place === undefined || r.mean_place === null ? '-' : Number(r.mean_place).toFixed(2)));
      /* the marks: never played, DQ, forfeits, substituted moves (docs/report.md) */
      tr.appendChild(el('td', r.marks ? 'l mark' : 'l', r.marks || '-'));
      tr.setAttribute('data-name', r.name);
      tr.setAttribute('data-score', r.score);
      tb.appendChild(tr);
    });
    $('st-kind').textContent = s.final
      ? '(final: the results)'
      : '(so far: points per game over the ' + s.games + ' finished games; intervals at the end)';
  }

  /* one box per table, kept while the table is played and updated in place, so a click or a
   * selection on it survives the next update */
  var boxes = {};
  function tableBox(id) {
    var d = el('div', 'table');
    d.setAttribute('data-game', id);
    var h = el('h3', '', id + ' ');
    var info = el('span', 'dim');
    h.appendChild(info);
    d.appendChild(h);
    var seats = el('div', 'seats');
    d.appendChild(seats);
    var ol = el('ol');
    d.appendChild(ol);
    var a = el('a', '', 'watch the table');
    a.href = '#watch';
    a.addEventListener('click', function (e) { e.preventDefault(); watch(id, true); });
    d.appendChild(a);
    return { d: d, info: info, seats: seats, ol: ol };
  }
  function tables(s) {
    var box = $('t-tables');
    var none = $('no-tables');
    var seen = {};
    s.tables.forEach(function (t) {
      seen[t.id] = true;
      var b = boxes[t.id];
      if (!b) { b = boxes[t.id] = tableBox(t.id); box.appendChild(b.d); }
      if (b.d.getAttribute('data-actions') === String(t.actions)) return;
      b.d.setAttribute('data-actions', t.actions);
      b.info.textContent = 'hand ' + t.hand + ', ' + t.actions + ' moves';
      b.seats.textContent = '';
      t.names.forEach(function (n, i) {
        b.seats.appendChild(el('span', '', 'seat ' + i + ' ' + n + (t.totals ? ' (' + t.totals[i] + ')' : '')));
      });
      b.ol.textContent = '';
      b.ol.start = Math.max(1, t.actions - t.moves.length + 1);
      t.moves.forEach(function (m) {
        b.ol.appendChild(el('li', 'move', (t.names[m.seat] || 'seat ' + m.seat) + ': ' + m.action));
      });
    });
    Object.keys(boxes).forEach(function (id) {
      if (!seen[id]) { box.removeChild(boxes[id].d); delete boxes[id]; }
    });
    none.hidden = s.tables.length > 0;
    none.textContent = s.state === 'finished' ? 'all played' : 'none right now';
    if (watching) {
      if (seen[watching]) watch(watching, false);
      /* the screen on the wall goes on to another table once the watched one has ended
       * (and has been seen to its end: the reload limit lets the last moves show first) */
      else if (s.tables.length && Date.now() - lastWatchLoad > 3000) watch(s.tables[0].id, true);
      else $('watch-what').textContent = watching + ' has ended: see it under Finished games.';
    }
  }

  /* the table drawn by the replay viewer, from the server's page of the moves released so
   * far; reloaded at most once a second, at the last step */
  function watch(id, now) {
    var t = Date.now();
    if (!now && t - lastWatchLoad < 1000) return;
    lastWatchLoad = t;
    watching = id;
    $('watch').hidden = false;
    $('watch-what').textContent = 'Watching ' + id + ' (every hand, as far as the server has released it).';
    $('watch-frame').src = '/table?game=' + encodeURIComponent(id) + '&v=' + t + '#n=999999';
  }
  $('watch-close').addEventListener('click', function () {
    watching = null;
    $('watch').hidden = true;
    $('watch-frame').src = 'about:blank';
  });

  function recent(s) {
    var tb = $('t-recent').tBodies[0];
    tb.textContent = '';
    s.recent.forEach(function (g) {
      var tr = el('tr');
      var td = el('td', 'l');
      var a = el('a', '', g.id);
      a.href = '/replay?game=' + encodeURIComponent(g.id);
      td.appendChild(a);
      tr.appendChild(td);
      tr.appendChild(el('td', 'l', g.names.map(function (n, i) {
        return n + ' ' + g.totals[i] + ' (' + g.placements[i] + ')';
      }).join(', ')));
      tb.appendChild(tr);
    });
  }

  function draw(s) {
    state = s;
    var b = $('badge');
    b.textContent = s.state;
    b.className = 'badge ' + s.state;
    $('meta').textContent = (s.kind === 'tournament' ? 'Tournament' : 'Match') + ', ' + s.games +
      ' games finished' + (s.delay > 0 ? ', moves shown ' + s.delay + ' s after they are played' : '') +
      (s.state === 'finished' ? '. Finished.' : '. Updates by itself.');
    $('report').hidden = s.state !== 'finished';
    standings(s);
    tables(s);
    recent(s);
    document.body.setAttribute('data-version', s.version);
    document.body.setAttribute('data-state', s.state);
  }

  var failures = 0;
  function poll() {
    var x = new XMLHttpRequest();
    x.open('GET', '/state?since=' + state.version);
    x.timeout = 40000;
    x.onload = function () {
      if (x.status === 200) {
        failures = 0;
        var s = JSON.parse(x.responseText);
        if (s.version !== state.version) draw(s);
        setTimeout(poll, 0);
      } else retry();
    };
    x.onerror = x.ontimeout = retry;
    x.send();
  }
  function retry() {
    failures++;
    if (failures > 2) {
      $('badge').textContent = state.state === 'finished' ? 'finished (server stopped)' : 'server not answering';
      $('badge').className = 'badge lost';
    }
    setTimeout(poll, Math.min(10000, 500 * failures));
  }
  draw(state);
  document.body.setAttribute('data-ready', '1');
  poll();
})();
