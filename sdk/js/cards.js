'use strict';
// okbot/cards - card kinds, card names and action text (docs/notation.md).
//
// A card kind is suit * 13 + rank - 1: suits clubs 0, diamonds 1, hearts 2, spades 3; ranks
// 1 (ace) to 13 (king). 52 is the Joker; 255 means "not known to you".

const JOKER = 52;
const NOCARD = 255;
const RANKS = 'A23456789TJQK';
const SUITS = 'CDHS';

const cards = {
  CLUBS: 0, DIAMONDS: 1, HEARTS: 2, SPADES: 3, JOKER, NOCARD, KINDS: 53, RANKS, SUITS,
  kind(suit, rank) { // kind(3, 12) === 50, the queen of spades
    if (!(suit >= 0 && suit <= 3 && rank >= 1 && rank <= 13)) {
      throw new RangeError(`no card with suit ${suit} and rank ${rank}`);
    }
    return suit * 13 + rank - 1;
  },
  suit(k) { return k === JOKER ? null : Math.floor(natural(k) / 13); }, // 0..3
  rank(k) { return k === JOKER ? null : natural(k) % 13 + 1; }, // 1 (ace) .. 13 (king)
  name(k) { // 'AS', 'TH', 'JK'; '??' for NOCARD
    if (k === JOKER) return 'JK';
    if (k === NOCARD) return '??';
    natural(k);
    return RANKS[k % 13] + SUITS[Math.floor(k / 13)];
  },
  names(kinds) { return Array.from(kinds, cards.name).join(' '); },
  parse(text) { // case-insensitive; '10H' and 'TH' are the same card
    let t = String(text).trim().toUpperCase();
    if (t === 'JK') return JOKER;
    if (t.startsWith('10')) t = 'T' + t.slice(2);
    if (t.length !== 2 || !RANKS.includes(t[0]) || !SUITS.includes(t[1])) {
      throw new RangeError(`not a card: '${text}'`);
    }
    return SUITS.indexOf(t[1]) * 13 + RANKS.indexOf(t[0]);
  },
  parseList(text) { return String(text).split(/\s+/).filter(Boolean).map(cards.parse); },
  counts(kinds) { // counts(view.hand)[k]: copies of kind k held
    const c = new Array(53).fill(0);
    for (const k of kinds) c[k]++;
    return c;
  },
  // Upper case, single spaces, T for ten, comment removed: the engine's spelling.
  normalizeAction(text) {
    const t = String(text).split('#')[0].toUpperCase().replace(/\|/g, ' | ');
    return t.split(/\s+/).filter(Boolean).join(' ').replace(/\b10([CDHS])\b/g, 'T$1');
  },
  // Index in `legal` of the action written as `text`, or -1.
  findAction(legal, text) {
    const want = cards.normalizeAction(text);
    return legal.findIndex((a) => cards.normalizeAction(a.text || '') === want);
  },
};

function natural(k) {
  if (!(Number.isInteger(k) && k >= 0 && k < JOKER)) throw new RangeError(`not a card kind: ${k}`);
  return k;
}

module.exports = cards;
