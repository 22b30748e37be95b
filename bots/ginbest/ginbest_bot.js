#!/usr/bin/env node
'use strict';
// ginbest_bot.js - a gin bot in a page of JavaScript, thanks to okbot/rules (the engine's
// helpers, docs/sdk-js.md "Rules helpers"): it keeps the hand whose best arrangement leaves
// the least deadwood.
//
//   node bots/ginbest/ginbest_bot.js
//   arena match --rules gin --bot 'node bots/ginbest/ginbest_bot.js' --bot build/bots/random_bot
//
// Draw: take the top discard when keeping it (and throwing the best card away) leaves less
// deadwood than the hand has now; otherwise draw from the stock. Upcard round: the same test.
// Play: discard the card ginBestDiscard names, and knock with it whenever the rules allow.
// Not a gin game: the first legal action.

const okbot = require('../../sdk/js');
const rules = require('../../sdk/js/rules');

const T = okbot.enums.ActionType;

function decide(view, legal, ctx) {
  if (ctx.hello.rules.preset !== 'gin') return 0;
  const hand = Array.from(view.hand);
  const take = legal.findIndex((a) => a.type === T.TAKE);
  if (take >= 0) {
    const top = view.pile[view.pile.length - 1];
    const now = rules.ginBest(hand, ctx).deadwood;
    const withTop = rules.ginBestDiscard(hand.concat([top]), ctx);
    if (withTop.card !== top && withTop.deadwood < now) return take;
    const other = legal.findIndex((a) => a.type !== T.TAKE); // draw, or pass the upcard
    return other >= 0 ? other : take;
  }
  const best = rules.ginBestDiscard(hand, ctx);
  const knock = legal.findIndex((a) => a.type === T.KNOCK && a.card === best.card);
  if (knock >= 0) return knock; // the engine lists a knock only when the rules allow it
  const discard = legal.findIndex((a) => a.type === T.DISCARD && a.card === best.card);
  return discard >= 0 ? discard : 0; // the card just taken may not be discarded (G4)
}

okbot.run(decide, { name: 'ginbest-js', version: '1.0' });
