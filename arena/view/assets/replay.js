/* replay.js - draws the frames that `arena replay --html` embedded in this page. Each frame is
 * the whole table at one step, as this page's viewer may know it; the script only draws, so a
 * seat's page never holds more than that seat saw. Text from the data is always set with
 * textContent, never parsed as markup. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('okr-data').textContent);
  var frames = data.frames;
  /* a part equal to the step before was left out of the data, and a per-seat array holds
   * only the seats that changed ({"1": ...}): carry the rest forward */
  ['pile', 'ml', 'hs', 'hn', 'sc', 'clk'].forEach(function (key) {
    for (var i = 1; i < frames.length; i++) {
      var v = frames[i][key], prev = frames[i - 1][key];
      if (v === undefined) frames[i][key] = prev;
      else if (Array.isArray(prev) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        var full = prev.slice();
        Object.keys(v).forEach(function (s) { full[Number(s)] = v[s]; });
        frames[i][key] = full;
      }
    }
  });
  var SUITS = { c: ['\u2663', 'black'], d: ['\u2666', 'red'], h: ['\u2665', 'red'], s: ['\u2660', 'black'] };
  var SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];
  var JOKER = 'jk'; /* compared in lower case: this script names no card, as the tests check */
  var cur = 0, speed = 2, timer = null, hashTimer = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* one card of the notation ("qs", "th", "jk", "2c=5h", upper case in the data) */
  function cardEl(tok) {
    var parts = tok.split('=');
    var e = el('span', 'card');
    var face = parts[0];
    if (face.toLowerCase() === JOKER) {
      e.className = 'card joker';
      e.textContent = 'Joker';
      e.title = 'the Joker';
    } else {
      var rank = face.slice(0, -1), suit = SUITS[face.slice(-1).toLowerCase()] || ['?', 'black'];
      if (rank === 'T') rank = '10';
      e.className = 'card ' + suit[1];
      e.textContent = rank + suit[0];
    }
    if (parts.length > 1) {
      var as = parts[1], r = as.slice(0, -1), s = SUITS[as.slice(-1).toLowerCase()] || ['?'];
      if (r === 'T') r = '10';
      e.appendChild(el('span', 'as', 'as ' + r + s[0]));
      e.title = 'a wild card standing for ' + r + s[0];
    }
    e.setAttribute('data-card', tok);
    return e;
  }

  function cardsEl(str, cls) {
    var box = el('div', cls || 'cards');
    if (str) str.split(' ').forEach(function (t) { if (t) box.appendChild(cardEl(t)); });
    return box;
  }

  /* Make box's children the cards of toks (notation tokens, in order), reusing the card
   * elements already there: a step changes a card or two of a hand or of the pile, and a
   * card that stays keeps its element, so the browser lays out and shapes only the new ones
   * (rebuilding every card of every changed hand and of the pile was most of a step's cost).
   * "#" stands for a hidden card (a back). */
  function syncCards(box, toks) {
    var have = {}, c, k;
    for (c = box.firstChild; c; c = c.nextSibling) {
      k = c.getAttribute('data-card');
      (have[k] || (have[k] = [])).push(c);
    }
    var ref = box.firstChild;
    for (var i = 0; i < toks.length; i++) {
      var list = have[toks[i]];
      var e = list && list.length ? list.shift() : toks[i] === '#' ? backEl() : cardEl(toks[i]);
      if (e === ref) ref = ref.nextSibling;
      else box.insertBefore(e, ref);
    }
    /* what was not reused is after the cards placed, from ref on */
    while (ref) { c = ref.nextSibling; box.removeChild(ref); ref = c; }
  }

  function backEl() {
    var e = el('span', 'card back', '\u00b7');
    e.setAttribute('data-card', '#');
    return e;
  }

  function tokens(str) { return str ? str.split(' ').filter(Boolean) : []; }

  /* a hand sorted by suit, then rank (aces low), the Joker last */
  function sortHand(str) {
    if (!str) return '';
    var order = 'A23456789TJQK';
    return str.split(' ').filter(Boolean).sort(function (a, b) {
      var ka = a.toLowerCase() === JOKER ? 99 : 'CDHS'.indexOf(a.slice(-1)) * 13 + order.indexOf(a.slice(0, -1));
      var kb = b.toLowerCase() === JOKER ? 99 : 'CDHS'.indexOf(b.slice(-1)) * 13 + order.indexOf(b.slice(0, -1));
      return ka - kb;
    }).join(' ');
  }

  function fmtMs(ms) {
    if (ms === undefined || ms === null) return '';
    return ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : ms.toFixed(ms < 10 ? 2 : 0) + ' ms';
  }

  function name(s) { return data.names[s]; }

  function header() {
    var who = data.seat >= 0 ? ' \u2014 as seen by seat ' + data.seat + ' (' + name(data.seat) + ')' : ' \u2014 referee view, every hand';
    $('title').textContent = data.names.join(' v ') + who;
    var m = data.rules + ', ' + data.players + ' players, deal ' + data.deal + ' rotation ' + data.rotation;
    if (data.game) m += ', game ' + data.game + (data.seed ? ', seed ' + data.seed : '');
    if (data.clocks) m += ', clock ' + data.clocks.decision + ' ms a decision' + (data.clocks.bank ? ' + bank ' + data.clocks.bank + ' ms' : '');
    $('meta').textContent = m;
    var nav = $('views');
    if (data.back) { var b = el('a', '', '\u2190 report'); b.href = data.back; nav.appendChild(b); }
    (data.views || []).forEach(function (v) {
      if (v.on) { nav.appendChild(el('span', 'on', v.label)); return; }
      var a = el('a', '', v.label); a.href = v.href; a.setAttribute('data-href', v.href); nav.appendChild(a);
    });
  }

  /* a seat's box is built once; a step redraws only the parts that changed (one hand and a
   * clock, mostly) */
  var seatBoxes = [], seatKeys = [];

  function seatBox(s) {
    var d = el('div', 'box seat');
    d.setAttribute('data-seat', s);
    var head = el('div', 'head');
    head.appendChild(el('span', 'name'));
    var sc = el('span', 'score');
    sc.setAttribute('data-score', s);
    head.appendChild(sc);
    d.appendChild(head);
    d.appendChild(el('div', 'sub'));
    d.appendChild(el('div', 'cards hand'));
    d.appendChild(el('div', 'melds'));
    $('seats').appendChild(d);
    return d;
  }

  function part(s, name, key, draw) {
    var k = seatKeys[s] || (seatKeys[s] = {});
    if (k[name] === key) return;
    k[name] = key;
    draw();
  }

  function drawSeats(f) {
    for (var s = 0; s < data.players; s++) {
      var d = seatBoxes[s] || (seatBoxes[s] = seatBox(s));
      (function (s, d) {
        var turn = f.to === s;
        part(s, 'turn', turn, function () {
          d.className = 'box seat' + (turn ? ' turn' : '');
          d.querySelector('.name').textContent = 'Seat ' + s + ': ' + name(s) + (turn ? '  \u25C0 to act' : '');
        });
        part(s, 'score', f.sc[s], function () { d.querySelector('.score').textContent = f.sc[s]; });
        var c = f.clk[s], sub = f.hn[s] + ' card' + (f.hn[s] === 1 ? '' : 's') + ' in hand';
        if (c && c.used) sub += ' \u00b7 time used ' + fmtMs(c.used);
        if (c && c.bank !== undefined) sub += ' \u00b7 bank ' + fmtMs(Math.max(0, c.bank));
        part(s, 'sub', sub, function () { d.querySelector('.sub').textContent = sub; });
        part(s, 'hand', f.hs[s] === null ? '#' + f.hn[s] : f.hs[s], function () {
          var hand = d.querySelector('.hand'), toks;
          if (f.hs[s] !== null) {
            toks = tokens(sortHand(f.hs[s]));
            hand.removeAttribute('title');
          } else {
            toks = [];
            for (var i = 0; i < f.hn[s]; i++) toks.push('#');
            hand.title = 'hidden from this view';
          }
          syncCards(hand, toks);
        });
        var mk = f.ml.map(function (m, k) { return m[0] === s ? k + m[1] + m[2] : ''; }).join('|');
        part(s, 'melds', mk, function () {
          var melds = el('div', 'melds');
          f.ml.forEach(function (m, k) {
            if (m[0] !== s) return;
            var row = el('div', 'meld');
            row.appendChild(el('span', 'tag', '#' + (k + 1) + ' ' + m[1]));
            m[2].split(' ').forEach(function (t) { row.appendChild(cardEl(t)); });
            melds.appendChild(row);
          });
          d.replaceChild(melds, d.querySelector('.melds'));
        });
      })(s, d);
    }
  }

  var pileKey = null;

  function drawCentre(f) {
    $('stock').textContent = f.st;
    if (pileKey === f.pile) return;
    pileKey = f.pile;
    var pile = $('pile'), top = pile.querySelector('.top');
    if (top) { top.classList.remove('top'); top.removeAttribute('title'); }
    syncCards(pile, tokens(f.pile));
    if (pile.lastChild) { pile.lastChild.classList.add('top'); pile.lastChild.title = 'top of the pile'; }
    var n = f.pile ? f.pile.split(' ').length : 0;
    $('pilecount').textContent = n ? '(' + n + ', top last)' : '(empty)';
  }

  function drawDecision(f) {
    var d = $('decision');
    d.textContent = '';
    d.appendChild(el('h2', '', 'Step ' + cur + ' \u00b7 hand ' + f.h + ' \u00b7 ' + f.n + ' actions'));
    var who = f.a !== undefined ? name(f.a) + ' ' : '';
    d.appendChild(el('p', 'what', who + f.txt));
    if (f.note) d.appendChild(el('p', 'dim', 'notation: ' + f.note + (f.nl !== undefined ? ' \u00b7 one of ' + f.nl + ' legal action' + (f.nl === 1 ? '' : 's') : '')));
    if (f.why !== undefined) {
      var w = el('p', 'why');
      w.appendChild(el('span', 'dim', name(f.a) + "'s note: "));
      w.appendChild(el('q', '', f.why));
      d.appendChild(w);
    }
    if (f.ms !== undefined) {
      var t = 'took ' + fmtMs(f.ms);
      if (data.clocks) t += ' of ' + data.clocks.decision + ' ms free' + (f.ms > data.clocks.decision ? (data.clocks.bank ? ' (bank used)' : ' (over)') : '');
      d.appendChild(el('p', 'dim', t));
    }
    if (f.sub) d.appendChild(el('p', 'bad', 'played by the arena after a ' + f.sub + ' verdict'));
    if (f.to >= 0) d.appendChild(el('p', 'dim', 'next: ' + name(f.to) + ' (' + f.ph.replace('_', ' ') + ')'));
  }

  function drawBreakdown(f) {
    var b = $('breakdown');
    b.textContent = '';
    if (!f.end && !f.res) { b.hidden = true; return; }
    b.hidden = false;
    var box = el('div', 'box');
    var t = el('table');
    var head = el('tr');
    var rows;
    if (f.end) {
      box.appendChild(el('h2', '', 'Hand ' + f.h + ' scoring (' + f.end.ended + ')'));
      rows = f.end.gin ? [['deadwood', 'deadwood'], ['hand score', 'score'], ['game total', 'total']]
        : [['melded', 'melded'], ['left in hand', 'debit'], ['going out', 'out'], ['concealed bonus', 'concealed'],
          ['hand score', 'score'], ['game total', 'total']];
    } else {
      box.appendChild(el('h2', '', f.res.completed ? 'Final result' : 'Final result (forfeited: ' + f.res.forfeits.map(name).join(', ') + ')'));
      rows = f.res.completed ? [['hand scores', 'game'], ['concealed bonuses', 'concealed'], ['winner bonus', 'bonus'],
        ['settlement', 'settle'], ['final total', 'final'], ['place', 'place']] : [['final total', 'final'], ['place', 'place']];
    }
    head.appendChild(el('th', '', ''));
    for (var s = 0; s < data.players; s++) head.appendChild(el('th', '', name(s)));
    t.appendChild(head);
    rows.forEach(function (r) {
      var tr = el('tr');
      tr.appendChild(el('td', '', r[0]));
      for (var s = 0; s < data.players; s++) {
        var v = f.end ? f.end.rows[s][r[1]] : f.res[r[1]][s];
        var td = el('td', '', v);
        td.setAttribute('data-row', r[1]);
        td.setAttribute('data-seat', s);
        tr.appendChild(td);
      }
      t.appendChild(tr);
    });
    box.appendChild(t);
    if (f.end && f.end.sd) box.appendChild(showdownEl(f.end.sd, f.end.knocker));
    b.appendChild(box);
  }

  /* a gin knock as it is laid on the table (RULES G5): the knocker's melds, what it kept as
   * deadwood, and each card the other seat laid off onto one of those melds */
  function showdownEl(sd, knocker) {
    var d = el('div', 'showdown');
    d.appendChild(el('h3', '', name(knocker) + ' knocks with'));
    var melds = el('div', 'melds');
    sd.melds.forEach(function (m, i) {
      var row = el('div', 'meld');
      row.setAttribute('data-knock-meld', i);
      row.appendChild(el('span', 'dim', 'meld ' + (i + 1)));
      row.appendChild(cardsEl(m));
      var offs = sd.layoffs.filter(function (o) { return o.onto === i; });
      if (offs.length) {
        row.appendChild(el('span', 'dim', '+ laid off by ' + name(1 - knocker) + ':'));
        var lc = cardsEl(offs.map(function (o) { return o.card; }).join(' '), 'cards layoff');
        row.appendChild(lc);
      }
      melds.appendChild(row);
    });
    d.appendChild(melds);
    var dw = el('div', 'meld');
    dw.setAttribute('data-knock-deadwood', '');
    dw.appendChild(el('span', 'dim', sd.deadwood ? 'deadwood' : 'no deadwood (gin)'));
    dw.appendChild(cardsEl(sd.deadwood));
    d.appendChild(dw);
    if (!sd.layoffs.length) d.appendChild(el('p', 'dim', 'nothing laid off'));
    return d;
  }

  function buildLog() {
    var log = $('log');
    frames.forEach(function (f, i) {
      var who = f.a !== undefined ? name(f.a) + ' ' : '';
      var li = el('li', f.mark || '', who + f.txt);
      li.value = i;
      li.addEventListener('click', function () { go(i); });
      log.appendChild(li);
    });
  }

  function buildMarks() {
    var marks = $('marks'), last = Math.max(1, frames.length - 1);
    frames.forEach(function (f, i) {
      if (!f.mark) return;
      var m = el('span', 'mk ' + f.mark);
      m.style.left = 'calc(' + (100 * i / last) + '% - 1px)';
      m.title = f.txt;
      marks.appendChild(m);
    });
  }

  function go(i) {
    cur = Math.max(0, Math.min(frames.length - 1, i | 0));
    var f = frames[cur];
    drawSeats(f);
    drawCentre(f);
    drawDecision(f);
    drawBreakdown(f);
    $('range').value = cur;
    $('pos').textContent = 'step ' + cur + ' / ' + (frames.length - 1) + ' \u00b7 hand ' + f.h;
    var log = $('log'), old = log.querySelector('.cur');
    if (old) old.classList.remove('cur');
    var li = log.children[cur];
    li.classList.add('cur');
    if (li.offsetTop < log.scrollTop || li.offsetTop > log.scrollTop + log.clientHeight - 20)
      log.scrollTop = li.offsetTop - log.clientHeight / 2;
    /* the other views open at the same step */
    for (var v = 0; v < viewLinks.length; v++) viewLinks[v].href = viewLinks[v].getAttribute('data-href') + '#n=' + cur;
    /* the address follows once stepping pauses: writing it costs more than drawing a step */
    clearTimeout(hashTimer);
    hashTimer = setTimeout(function () {
      try { history.replaceState(null, '', '#n=' + cur); } catch (e) { /* some file:// hosts refuse */ }
    }, 150);
    document.body.setAttribute('data-step', cur);
  }

  function handStart(dir) {
    var h = frames[cur].h, i = cur;
    if (dir < 0) {
      while (i > 0 && frames[i - 1].h === h) i--;
      if (i === cur && i > 0) { h = frames[i - 1].h; i--; while (i > 0 && frames[i - 1].h === h) i--; }
    } else {
      while (i < frames.length - 1 && frames[i].h === h) i++;
    }
    go(i);
  }

  function setSpeed(k) {
    speed = Math.max(0, Math.min(SPEEDS.length - 1, k));
    $('speed').value = speed;
    if (timer) { stop(); play(); }
  }

  function play() {
    if (cur >= frames.length - 1) go(0);
    $('play').textContent = 'Pause';
    timer = setInterval(function () {
      if (cur >= frames.length - 1) { stop(); return; }
      go(cur + 1);
    }, 500 / SPEEDS[speed]);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    $('play').textContent = 'Play';
  }

  function fromHash() {
    var m = /n=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  header();
  var viewLinks = document.querySelectorAll('#views a[data-href]');
  SPEEDS.forEach(function (s, k) { var o = el('option', '', s + '\u00d7'); o.value = k; $('speed').appendChild(o); });
  $('speed').value = speed;
  $('speed').addEventListener('change', function () { setSpeed(parseInt(this.value, 10)); });
  $('range').max = frames.length - 1;
  $('range').addEventListener('input', function () { go(parseInt(this.value, 10)); });
  $('first').addEventListener('click', function () { go(0); });
  $('last').addEventListener('click', function () { go(frames.length - 1); });
  $('prev').addEventListener('click', function () { go(cur - 1); });
  $('next').addEventListener('click', function () { go(cur + 1); });
  $('prevhand').addEventListener('click', function () { handStart(-1); });
  $('nexthand').addEventListener('click', function () { handStart(1); });
  $('play').addEventListener('click', function () { if (timer) stop(); else play(); });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return; /* its own arrow keys */
    var k = e.key;
    if (k === 'ArrowLeft') { if (e.shiftKey) handStart(-1); else go(cur - 1); }
    else if (k === 'ArrowRight') { if (e.shiftKey) handStart(1); else go(cur + 1); }
    else if (k === 'PageUp') handStart(-1);
    else if (k === 'PageDown') handStart(1);
    else if (k === 'Home') go(0);
    else if (k === 'End') go(frames.length - 1);
    else if (k === ' ') { if (timer) stop(); else play(); }
    else if (k === '+' || k === '=') setSpeed(speed + 1);
    else if (k === '-') setSpeed(speed - 1);
    else if (k >= '1' && k <= '7') setSpeed(parseInt(k, 10) - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () { if (fromHash() !== cur) go(fromHash()); });
  buildLog();
  buildMarks();
  go(fromHash());
  /* for tests and scripts: the number of steps, and a way to move */
  window.okrReplay = { steps: frames.length, go: go, get step() { return cur; } };
  document.body.setAttribute('data-ready', '1');
})();
