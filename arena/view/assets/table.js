/* table.js - the card table as every page of the arena draws it: the replay page (replay.js)
 * and the human seat's page of `arena play` (arena/play/assets/play.html) are built on these
 * functions, so a card, a seat, a meld or a hand's scoring looks the same on both (style:
 * table.css). Cards come in the notation, upper case (docs/notation.md: rank then suit, the
 * Joker, a wild card with "=" and what it stands for); "#" is a card whose face this page may
 * not see (a back).
 * Text is always set with textContent, never parsed as markup. Defines one global, okrTable;
 * names no card itself (the pages' tests scan every byte outside their data for one). */
var okrTable = (function () {
  'use strict';
  var SUITS = { c: ['\u2663', 'black'], d: ['\u2666', 'red'], h: ['\u2665', 'red'], s: ['\u2660', 'black'] };
  var JOKER = 'jk'; /* compared in lower case */

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* a natural card -> [rank as shown, suit]; a ten is shown as "10" */
  function face(tok) {
    var r = tok.slice(0, -1), s = SUITS[tok.slice(-1).toLowerCase()] || ['?', 'black'];
    return [r === 'T' ? '10' : r, s];
  }

  /* one card: rank and suit symbol in the suit's colour, the Joker, a wild card with what it
   * stands for. tag: 'span' (default), or 'button' for a card the user may click */
  function cardEl(tok, tag) {
    var parts = tok.split('=');
    var e = el(tag || 'span', 'card');
    if (parts[0].toLowerCase() === JOKER) {
      e.className = 'card joker';
      e.textContent = 'Joker';
      e.title = 'the Joker';
    } else {
      var f = face(parts[0]);
      e.className = 'card ' + f[1][1];
      e.textContent = f[0] + f[1][0];
    }
    if (parts.length > 1) {
      var as = face(parts[1]);
      e.appendChild(el('span', 'as', 'as ' + as[0] + as[1][0]));
      e.title = 'a wild card standing for ' + as[0] + as[1][0];
    }
    e.setAttribute('data-card', tok);
    return e;
  }

  function backEl(tag) {
    var e = el(tag || 'span', 'card back', '\u00b7');
    e.setAttribute('data-card', '#');
    return e;
  }

  function tokens(str) { return str ? str.split(' ').filter(Boolean) : []; }

  function cardsEl(str, cls) {
    var box = el('div', cls || 'cards');
    tokens(str).forEach(function (t) { box.appendChild(cardEl(t)); });
    return box;
  }

  /* Make box's children the cards of toks (in order), reusing the card elements already
   * there: a step changes a card or two of a hand or of the pile, and a card that stays keeps
   * its element, so the browser lays out and shapes only the new ones (rebuilding every card
   * of every changed hand and of the pile was most of a replay step's cost). */
  function syncCards(box, toks, tag) {
    var have = {}, c, k;
    for (c = box.firstChild; c; c = c.nextSibling) {
      k = c.getAttribute('data-card');
      (have[k] || (have[k] = [])).push(c);
    }
    var ref = box.firstChild;
    for (var i = 0; i < toks.length; i++) {
      var list = have[toks[i]];
      var e = list && list.length ? list.shift() : toks[i] === '#' ? backEl(tag) : cardEl(toks[i], tag);
      if (e === ref) ref = ref.nextSibling;
      else box.insertBefore(e, ref);
    }
    /* what was not reused is after the cards placed, from ref on */
    while (ref) { c = ref.nextSibling; box.removeChild(ref); ref = c; }
  }

  /* a hand sorted by suit, then rank (aces low), the Joker last */
  function sortHand(str) {
    if (!str) return '';
    var order = 'A23456789TJQK';
    var key = function (a) {
      return a.toLowerCase() === JOKER ? 99 : 'CDHS'.indexOf(a.slice(-1)) * 13 + order.indexOf(a.slice(0, -1));
    };
    return tokens(str).sort(function (a, b) { return key(a) - key(b); }).join(' ');
  }

  /* The table, drawn at the start of o.root: a box per seat (name, score, a line under it,
   * the hand, the seat's melds) in #seats, then #centre with the stock's count (#stock) and
   * the pile (#pile, its count in #pilecount). draw(f) takes a table in the replay's frame form: to (the seat to act, -1 none), sc
   * (scores), hn (hand sizes), hs (each hand, or null where hidden: backs), ml (melds:
   * [owner, "set"|"run", cards]), pile (cards, top last), st (stock size). A seat's box is
   * built once; a draw redraws only the parts that changed. Options: o.name(s); o.sub(f, s),
   * the line under a seat's name; o.meldTag(k, m), a meld's label; o.handTag(s), 'button'
   * for a hand whose cards are clicked. */
  function table(o) {
    var boxes = [], keys = [], pileKey = null;
    var seats = el('div'), centre = el('div'), stock = el('p', 'big'), pile = el('div', 'cards'), count = el('span', 'dim');
    seats.id = 'seats'; centre.id = 'centre'; stock.id = 'stock'; pile.id = 'pile'; count.id = 'pilecount';
    var sbox = el('div', 'box'), pbox = el('div', 'box'), ph = el('h2', '', 'Discard pile ');
    sbox.appendChild(el('h2', '', 'Stock'));
    sbox.appendChild(stock);
    ph.appendChild(count);
    pbox.appendChild(ph);
    pbox.appendChild(pile);
    centre.appendChild(sbox);
    centre.appendChild(pbox);
    o.root.insertBefore(centre, o.root.firstChild);
    o.root.insertBefore(seats, centre);
    var meldTag = o.meldTag || function (k, m) { return '#' + k + ' ' + m[1]; };
    var sub = o.sub || function (f, s) { return f.hn[s] + ' card' + (f.hn[s] === 1 ? '' : 's') + ' in hand'; };

    function seatBox(s) {
      var d = el('div', 'box seat');
      d.setAttribute('data-seat', s);
      var head = el('div', 'head');
      head.appendChild(el('span', 'name'));
      /* the seat's game total so far, named as such (docs/report.md, the pages' labels) */
      var tot = el('span', 'total');
      tot.appendChild(el('span', 'sclabel help', 'game total '));
      tot.title = SCALES.total;
      var sc = el('span', 'score');
      sc.setAttribute('data-score', s);
      tot.appendChild(sc);
      head.appendChild(tot);
      d.appendChild(head);
      d.appendChild(el('div', 'sub'));
      d.appendChild(el('div', 'cards hand'));
      d.appendChild(el('div', 'melds'));
      seats.appendChild(d);
      return d;
    }

    function part(s, name, key, draw) {
      var k = keys[s] || (keys[s] = {});
      if (k[name] === key) return;
      k[name] = key;
      draw();
    }

    function drawSeat(f, s, d) {
      var turn = f.to === s;
      part(s, 'turn', turn, function () {
        d.className = 'box seat' + (turn ? ' turn' : '');
        d.querySelector('.name').textContent = 'Seat ' + s + ': ' + o.name(s) + (turn ? '  \u25C0 to act' : '');
      });
      part(s, 'score', f.sc[s], function () { d.querySelector('.score').textContent = f.sc[s]; });
      var line = sub(f, s);
      part(s, 'sub', line, function () { d.querySelector('.sub').textContent = line; });
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
        syncCards(hand, toks, o.handTag ? o.handTag(s) : 'span');
      });
      var mk = f.ml.map(function (m, k) { return m[0] === s ? k + m[1] + m[2] : ''; }).join('|');
      part(s, 'melds', mk, function () {
        var melds = el('div', 'melds');
        f.ml.forEach(function (m, k) {
          if (m[0] !== s) return;
          var row = el('div', 'meld');
          row.setAttribute('data-meld', k);
          row.appendChild(el('span', 'tag', meldTag(k, m)));
          tokens(m[2]).forEach(function (t) { row.appendChild(cardEl(t)); });
          melds.appendChild(row);
        });
        d.replaceChild(melds, d.querySelector('.melds'));
      });
    }

    function drawCentre(f) {
      stock.textContent = f.st;
      if (pileKey === f.pile) return;
      pileKey = f.pile;
      var top = pile.querySelector('.top');
      if (top) { top.classList.remove('top'); top.removeAttribute('title'); }
      syncCards(pile, tokens(f.pile));
      if (pile.lastChild) { pile.lastChild.classList.add('top'); pile.lastChild.title = 'top of the pile'; }
      var n = tokens(f.pile).length;
      count.textContent = n ? '(' + n + ', top last)' : '(empty)';
    }

    return {
      draw: function (f) {
        for (var s = 0; s < f.hn.length; s++) drawSeat(f, s, boxes[s] || (boxes[s] = seatBox(s)));
        drawCentre(f);
      },
      /* the hand box of seat s (after a draw) */
      hand: function (s) { return boxes[s] ? boxes[s].querySelector('.hand') : null; },
      /* forget everything drawn (a new game with other seats) */
      reset: function () {
        boxes.forEach(function (d) { d.remove(); });
        boxes = []; keys = []; pileKey = null;
        pile.textContent = '';
      }
    };
  }

  /* what each score on the pages means, one hover away (the labels are listed in
   * docs/report.md; tests/view/phone.mjs checks every label shown against that list) */
  var SCALES = {
    total: 'the game total so far: the sum of this seat\'s hand scores in this game (points, RULES 7)',
    melded: 'credit for the cards in the seat\'s melds (RULES 7.1), without the Q\u2660',
    debit: 'debit for the cards left in the seat\'s hand (RULES 7.1), without the Q\u2660',
    qs: 'the Q\u2660 on its own: +50 for each in the seat\'s melds, \u2212100 for each left in its hand (RULES 7.1)',
    out: 'the going-out bonus (RULES 7.2)',
    concealed: 'going out concealed (RULES 7.3): kept apart from the hand score, added to the final total at the end',
    deadwood: 'the value of the cards in no meld (RULES G5)',
    score: 'this hand\'s points: the lines above it added up (RULES 7, G7)',
    gtotal: 'the game total after this hand: the sum of the hand scores so far',
    game: 'the sum of the seat\'s hand scores (the game score, RULES 7.4)',
    gconcealed: 'the concealed bonuses of the game, kept apart until the end (RULES 7.3)',
    bonus: 'the winner\'s bonus: paid to the seat with the highest total (shared on a tie, RULES 7.4)',
    final: 'the final total: hand scores + concealed bonuses + winner\'s bonus (RULES 7.5). The tournament ranks by it',
    place: 'the place by final total, 1 the best',
    settle: 'the laws settlement (RULES 7.6): each final total rounded to the nearest 100; each seat wins the difference from every lower seat and pays every higher one. Zero-sum, not added to the final total'
  };

  function scoreTable(rows, players, name, value) {
    var t = el('table'), head = el('tr');
    head.appendChild(el('th', '', ''));
    for (var s = 0; s < players; s++) head.appendChild(el('th', '', name(s)));
    t.appendChild(head);
    rows.forEach(function (r) {
      var tr = el('tr');
      var lab = el('td', r[2] ? 'help' : '', r[0]);
      if (r[2]) lab.title = r[2];
      tr.appendChild(lab);
      for (var s = 0; s < players; s++) {
        var td = el('td', '', value(r[1], s));
        td.setAttribute('data-row', r[1]);
        td.setAttribute('data-seat', s);
        tr.appendChild(td);
      }
      t.appendChild(tr);
    });
    return t;
  }

  /* a hand's scoring: end = {ended, winner, knocker, gin, rows: per seat {melded, debit, qsm,
   * qsh, out, concealed, deadwood, score, total}, sd: a gin knock's showdown or absent}; h its
   * number. The rummy family scores the Q of spades apart (RULES 7.1: +50 melded, -100 left in
   * hand; qsm and qsh, parts of melded and debit): its own line, the others without it, so
   * melded, left in hand, the queen of spades and going out add up to the hand score (the concealed bonus is
   * kept apart, RULES 7.3). Rows without qsm (the play page's, from a HandEnd, which has no
   * melds) keep the queen in melded and left in hand, with no line of its own */
  function handEndEl(end, h, players, name) {
    var box = el('div', 'box');
    box.appendChild(el('h2', '', 'Hand ' + h + ' scoring (' + end.ended + ')'));
    var qs = end.rows.length && end.rows[0].qsm !== undefined;
    var has = end.has || { out: true, concealed: true }; /* the lines this rule set has */
    var rows = end.gin ? [['deadwood', 'deadwood'], ['hand score', 'score'], ['game total', 'total']]
      : [['melded', 'melded'], ['left in hand', 'debit']].concat(qs ? [['Q\u2660 (+50 melded, \u2212100 in hand)', 'qs']] : [],
        has.out ? [['going out', 'out']] : [], has.concealed ? [['concealed bonus', 'concealed']] : [],
        [['hand score', 'score'], ['game total', 'total']]);
    rows.forEach(function (r) { r.push(SCALES[r[1] === 'total' ? 'gtotal' : r[1]]); });
    box.appendChild(scoreTable(rows, players, name, function (k, s) {
      var r = end.rows[s];
      if (k === 'melded') return r.melded - (r.qsm || 0);
      if (k === 'debit') return r.debit - (r.qsh || 0);
      if (k === 'qs') return (r.qsm || 0) + (r.qsh || 0);
      return r[k];
    }));
    if (end.sd) box.appendChild(showdownEl(end.sd, end.knocker, name));
    return box;
  }

  /* the game's result: res = {completed, forfeits (seats), final, place, and when completed
   * game, concealed, bonus, settle}: one number per seat each. res.has (the play page's, from
   * the rules) names the parts the rule set has: a part it says false is left out even when
   * its numbers came (gin's zero concealed bonuses, winner's bonus and settlement) */
  function resultEl(res, players, name) {
    var box = el('div', 'box');
    box.appendChild(el('h2', '', res.completed ? 'Final result' : 'Final result (forfeited: ' + (res.forfeits || []).map(name).join(', ') + ')'));
    /* a line for each part the result has (a rule set without a winner's bonus or a
     * settlement has no such key): hand scores + concealed + winner's bonus = final total;
     * the settlement comes after, as what it is, a payment computed from the final totals */
    var rows = (res.completed ? [['hand scores', 'game'], ['concealed bonuses', 'concealed', 'gconcealed'],
      ["winner's bonus", 'bonus']] : []).concat([['final total', 'final'], ['place', 'place']],
      res.completed ? [['settlement (laws payment)', 'settle']] : []).filter(function (r) {
      return res[r[1]] && !(res.has && res.has[r[1]] === false);
    });
    rows.forEach(function (r) { r[2] = SCALES[r[2] || r[1]]; });
    box.appendChild(scoreTable(rows, players, name, function (k, s) { return res[k][s]; }));
    if (res.completed) {
      var p = el('p', 'dim explain');
      var part = function (k) { return res[k] && !(res.has && res.has[k] === false); };
      p.textContent = 'The final total is the hand scores' + (part('concealed') ? ' plus the concealed bonuses' : '') +
        (part('bonus') ? ' plus the winner\'s bonus (given to the highest total, shared on a tie)' : '') +
        '; places and the tournament go by it.' + (part('settle') ? ' The settlement is the laws way of paying up: ' +
        'each final total is rounded to the nearest hundred, and each seat wins the difference from every seat below it ' +
        'and pays every seat above it. It adds up to zero and is not part of the final total.' : '');
      box.appendChild(p);
    }
    return box;
  }

  /* a gin knock as it is laid on the table (RULES G5): the knocker's melds, what it kept as
   * deadwood, and each card the other seat laid off onto one of those melds */
  function showdownEl(sd, knocker, name) {
    var d = el('div', 'showdown');
    d.appendChild(el('h3', '', name(knocker) + ' knocks with'));
    var melds = el('div', 'melds');
    sd.melds.forEach(function (m, i) {
      var row = el('div', 'meld');
      row.setAttribute('data-knock-meld', i);
      row.appendChild(el('span', 'dim', 'meld ' + (i + 1)));
      row.appendChild(cardsEl(m));
      var offs = sd.layoffs.filter(function (x) { return x.onto === i; });
      if (offs.length) {
        row.appendChild(el('span', 'dim', '+ laid off by ' + name(1 - knocker) + ':'));
        row.appendChild(cardsEl(offs.map(function (x) { return x.card; }).join(' '), 'cards layoff'));
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

  return {
    el: el, cardEl: cardEl, backEl: backEl, cardsEl: cardsEl, syncCards: syncCards, tokens: tokens,
    sortHand: sortHand, table: table, handEndEl: handEndEl, resultEl: resultEl, showdownEl: showdownEl,
    SCALES: SCALES
  };
})();
