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
  var SPEEDS = [0.5, 1, 2, 4, 8, 16, 32];
  var cur = 0, speed = 2, timer = null, hashTimer = null;
  var $ = function (id) { return document.getElementById(id); };
  /* cards, seats, melds, the pile and the scoring are drawn by table.js, as on the play page */
  var T = okrTable, el = T.el;

  function fmtMs(ms) {
    if (ms === undefined || ms === null) return '';
    return ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : ms.toFixed(ms < 10 ? 2 : 0) + ' ms';
  }

  function name(s) { return data.names[s]; }
  /* who did it, with the seat's number (two seats may have one name): "greedy_bot (seat 2) "; a
   * verdict's text names its seat itself */
  function who(f) { return f.a !== undefined && f.k !== 'verdict' ? name(f.a) + ' (seat ' + f.a + ') ' : ''; }

  function header() {
    var who = data.seat >= 0 ? ' \u2014 as seen by seat ' + data.seat + ' (' + name(data.seat) + ')' : ' \u2014 referee view, every hand';
    $('title').textContent = data.names.join(' v ') + who;
    var m = data.rules + ', ' + data.players + ' players, deal ' + data.deal + ' rotation ' + data.rotation;
    if (data.game) m += ', game ' + data.game + (data.seed ? ', seed ' + data.seed : '');
    if (data.clocks) m += ', clock ' + data.clocks.decision + ' ms a decision' + (data.clocks.bank ? ' + bank ' + data.clocks.bank + ' ms' : '');
    $('meta').textContent = m;
    var nav = $('views');
    if (data.back) { var b = el('a', '', '\u2190 ' + (data.back_label || 'report')); b.href = data.back; nav.appendChild(b); }
    (data.views || []).forEach(function (v) {
      if (v.on) { nav.appendChild(el('span', 'on', v.label)); return; }
      var a = el('a', '', v.label); a.href = v.href; a.setAttribute('data-href', v.href); nav.appendChild(a);
    });
  }

  var table = T.table({
    root: $('table'), name: name,
    sub: function (f, s) {
      var c = f.clk[s], sub = f.hn[s] + ' card' + (f.hn[s] === 1 ? '' : 's') + ' in hand';
      if (c && c.used) sub += ' \u00b7 time used ' + fmtMs(c.used);
      if (c && c.bank !== undefined) sub += ' \u00b7 bank ' + fmtMs(Math.max(0, c.bank));
      return sub;
    }
  });

  function drawDecision(f) {
    var d = $('decision');
    d.textContent = '';
    d.appendChild(el('h2', '', 'Step ' + cur + ' \u00b7 hand ' + f.h + ' \u00b7 ' + f.n + ' actions'));
    d.appendChild(el('p', 'what', who(f) + f.txt));
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
    b.appendChild(f.end ? T.handEndEl(f.end, f.h, data.players, name) : T.resultEl(f.res, data.players, name));
  }

  /* The events up to the step shown: the list grows with the step; the future (the hands'
   * results, the end, a seat's own later draws) is one switch away, off when the page opens */
  var future = false, shownTo = -1;
  function buildLog() {
    var log = $('log');
    frames.forEach(function (f, i) {
      var li = el('li', f.mark || '', who(f) + f.txt);
      li.value = i;
      li.hidden = true;
      li.addEventListener('click', function () { go(i); });
      log.appendChild(li);
    });
    $('future').checked = false;
    $('future').addEventListener('change', function () { future = this.checked; showLog(true); });
  }
  /* only the items that change state: a step forward shows one more */
  function showLog(all) {
    var items = $('log').children, to = future ? frames.length - 1 : cur;
    var a = all ? 0 : Math.min(shownTo, to) + 1, b = all ? items.length - 1 : Math.max(shownTo, to);
    for (var i = Math.max(0, a); i <= b && i < items.length; i++) items[i].hidden = i > to;
    shownTo = to;
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
    table.draw(f);
    drawDecision(f);
    drawBreakdown(f);
    $('range').value = cur;
    $('pos').textContent = 'step ' + cur + ' / ' + (frames.length - 1) + ' \u00b7 hand ' + f.h;
    showLog(false);
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
