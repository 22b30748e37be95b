#!/usr/bin/env node
'use strict';
// random_bot.js - the smallest okarena bot: a uniformly random legal action.
//
// Run it:   node bots/random/random_bot.js [SEED]
// The okbot SDK (sdk/js) reads the arena's messages on stdin, answers on stdout and sends
// anything you console.log() to stderr, the bot's log. All you write is decide().

const okbot = require('../../sdk/js'); // the SDK, found relative to this file

// Same seed, same choices: a game can be replayed exactly.
const rng = okbot.makeRng(Number(process.argv[2] || 1));

// view: what this seat may see (hand, melds, pile, ...); legal: every action allowed now,
// in the engine's order. Return the index of the one to play.
function decide(view, legal, ctx) {
  return rng.below(legal.length);
}

okbot.run(decide, { name: 'random-js', version: '1.0' });
