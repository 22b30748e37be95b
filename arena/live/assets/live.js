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

  /* The scale of the standings' score column, named in its header, explained a hover away and
   * in a line above the table: while the run goes, points per game (the mean final total of
   * the games so far); at the end, a tournament's rating against an average entrant or a
   * match's mean final total. The header changes with the scale, never the number alone
   * (the labels are listed in docs/report.md) */
  var SCALES = {
    sofar: ['points per game so far', 'the mean final total per game over the games finished so far (not a rating: ' +
      'every seat can be positive; the ratings come at the end)'],
    rating: ['score (pts/game vs average)', 'the final rating: points per game an entrant gains against an average ' +
      'entrant at the same table (can be negative)'],
    meanfinal: ['mean final total per game', 'the mean final total per game over the whole match']
  };
  function scaleOf(s) { return !s.final ? 'sofar' : s.kind === 'tournament' ? 'rating' : 'meanfinal'; }

  /* a move in words from its notation (docs/notation.md): "melds 2\u2665 as Q\u2663, K\u2663,
   * A\u2663"; what is not understood is shown as written */
  var SUIT = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };
  function cardWord(t) {
    var parts = String(t).toUpperCase().split('=');
    var one = function (c) {
      if (c === 'JK') return 'Joker';
      var r = c.slice(0, -1), su = SUIT[c.slice(-1)];
      return su && /^(10|[2-9TJQKA])$/.test(r) ? (r === 'T' ? '10' : r) + su : c;
    };
    return parts.length > 1 ? one(parts[0]) + ' as ' + one(parts[1]) : one(parts[0]);
  }
  function cardsWords(list) { return list.filter(Boolean).map(cardWord).join(', '); }
  function moveWords(a) {
    var w = String(a).trim().split(/\s+/), k = (w[0] || '').toLowerCase(), rest = w.slice(1);
    var sub = (rest[0] || '').toLowerCase();
    if (k === 'draw') return 'draws a card from the stock';
    if (k === 'pass') return 'passes';
    if (k === 'discard' && rest.length === 1) return 'discards ' + cardWord(rest[0]);
    if (k === 'meld') return 'melds ' + cardsWords(rest);
    if (k === 'add' && rest.length >= 2) return 'adds ' + cardWord(rest[1]) + ' to meld ' + rest[0];
    if (k === 'replace' && rest.length === 1) return 'puts a natural card in place of the Joker of meld ' + rest[0] + ' and takes the Joker';
    if (k === 'knock' && rest.length) {
      var melds = rest.slice(1).join(' ').split('|').map(function (m) { return cardsWords(m.trim().split(/\s+/)); })
        .filter(Boolean);
      return 'knocks, discarding ' + cardWord(rest[0]) + (melds.length ? ', with the melds ' + melds.join('; ') : '');
    }
    if (k === 'take' || k === 'claim') {
      var verb = k === 'take' ? 'takes' : 'claims';
      if (!rest.length) return 'takes the top discard';
      if (sub === 'new') return verb + ' the top discard' + (k === 'take' ? ' and the pile' : '') + ', melding ' + cardsWords(rest.slice(1));
      if (sub === 'add' && rest.length >= 2) return verb + ' the top discard' + (k === 'take' ? ' and the pile' : '') + ', adding it to meld ' + rest[1];
      if (sub === 'joker' && rest.length >= 2) return 'takes the pile, putting its top card in place of the Joker of meld ' + rest[1];
    }
    return a;
  }
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
    var sc = SCALES[scaleOf(s)];
    $('th-score').textContent = sc[0];
    $('th-score').title = sc[1];
    $('th-ci').title = s.final ? 'the score\'s 95% interval' : 'intervals come with the results, at the end';
    $('st-kind').textContent = s.final
      ? '(final: the results)'
      : '(so far: over the ' + s.games + ' finished games; intervals at the end)';
    document.body.setAttribute('data-scale', scaleOf(s));
    $('st-scale').textContent = 'The score column holds ' + sc[0] + ': ' + sc[1] + '.' +
      (s.final && s.kind === 'tournament' ? ' While the run went on, the column showed points per game so far (another scale).' : '');
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
        var sp = el('span', '', 'seat ' + i + ' ' + n + (t.totals ? ' (game total ' + t.totals[i] + ')' : ''));
        sp.title = 'the seat\'s game total after the last hand (points)';
        b.seats.appendChild(sp);
      });
      b.ol.textContent = '';
      b.ol.start = Math.max(1, t.actions - t.moves.length + 1);
      t.moves.forEach(function (m) {
        var li = el('li', 'move', (t.names[m.seat] || '?') + ' (seat ' + m.seat + ') ' + moveWords(m.action));
        li.title = m.action; /* the notation, a hover away */
        b.ol.appendChild(li);
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

  /* The server goes away when the run is over (or is stopped): after 3 failed asks the page
   * says so, and asks again ever more rarely (1, 2, 4 ... 60 s); once the run had finished,
   * it stops asking at all (the last state stays on the screen) and its links to the server
   * say they are dead */
  var failures = 0, gone = false;
  function poll() {
    var x = new XMLHttpRequest();
    x.open('GET', '/state?since=' + state.version);
    x.timeout = 40000;
    x.onload = function () {
      if (x.status === 200) {
        failures = 0;
        if (gone) { gone = false; document.body.removeAttribute('data-server'); }
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
    if (failures < 3) { setTimeout(poll, 500 * failures); return; }
    gone = true;
    document.body.setAttribute('data-server', 'gone');
    var b = $('badge');
    b.className = 'badge lost';
    if (state.state === 'finished') {
      b.textContent = 'finished; the server has stopped';
      $('meta').textContent += ' The server has stopped: this page no longer updates, and its links to games and the report no longer work.';
      document.querySelectorAll('a[href^="/"]').forEach(function (a) { a.classList.add('dead'); a.title = 'the server has stopped'; });
      return; /* no more asking: the run is over */
    }
    var wait = Math.min(60000, 1000 * Math.pow(2, failures - 3));
    b.textContent = 'server gone? next try in ' + Math.round(wait / 1000) + ' s';
    setTimeout(poll, wait);
  }
  draw(state);
  document.body.setAttribute('data-ready', '1');
  poll();
})();
