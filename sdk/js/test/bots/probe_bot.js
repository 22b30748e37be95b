'use strict';
// A test bot for the okbot loop tests: node probe_bot.js MODE
//   stray    writes everywhere it can (before run, in hooks, in decide, from a child)
//   text     answers with the text of the last legal action, in lower case
//   action   answers with legal[1] itself on even ids, with an Action not in legal on odd ids
//   hooks    an object bot that logs every hook call to stderr as "HOOK name detail"
//   raise    decide throws
//   badindex decide returns legal.length
//   note     sets ctx.note on even ids: 'x' and 200 two-byte characters (too long); none on odd
//   handbuilt  builds its actions by hand, never naming a seat: { type: PASS } (one message
//            object for the whole run) when a pass is legal, else a random legal action
//            without its seat and text; `handbuilt SEAT` writes that seat into every action
const { execFileSync } = require('child_process');
const okbot = require('../..');

const mode = process.argv[2];
const { ActionType } = okbot.enums;

if (mode === 'stray') {
  console.log('stray: before run');
  process.stdout.write('stray: process.stdout.write before run\n');
  okbot.run((view, legal, ctx) => {
    console.log('stray: in decide');
    console.info('stray: console.info');
    process.stdout.write('stray: process.stdout.write\n');
    execFileSync('echo', ['stray: child process'], { stdio: ['ignore', 2, 2] });
    return 0;
  }, { name: 'stray', onHello: () => console.log('stray: in onHello') });
} else if (mode === 'text') {
  okbot.run((view, legal) => legal[legal.length - 1].text.toLowerCase(), { name: 'text' });
} else if (mode === 'action') {
  okbot.run((view, legal, ctx) => (Number(ctx.decision.id) % 2 === 0 ? legal[1]
    : { type: ActionType.PASS, text: 'pass' }), { name: 'action' });
} else if (mode === 'hooks') {
  okbot.run({
    onHello(h, ctx) { console.log('HOOK hello', h.match_id, ctx.rules.qs_discard); },
    onGameStart(g, ctx) { console.log('HOOK gameStart seat', ctx.seat); },
    onEvents(events) { console.log('HOOK events', events.map((e) => e.text).join(' ')); },
    onHandEnd(h) { console.log('HOOK handEnd', h.hand_no); },
    onGameEnd(g) { console.log('HOOK gameEnd', g.game_id); },
    onRefused(r) { console.log('HOOK refused', r.rule); },
    decide(view, legal, ctx) {
      console.log('HOOK decide', String(ctx.decision.id), legal.length,
        okbot.cards.names(view.hand), ctx.remainingMs() > 0 ? 'remaining>0' : 'late');
      return 0;
    },
  }, { name: 'hooks' });
} else if (mode === 'raise') {
  okbot.run(() => { throw new Error('probe: decide failed on purpose'); }, { name: 'raise' });
} else if (mode === 'note') {
  okbot.run((view, legal, ctx) => {
    if (Number(ctx.decision.id) % 2 === 0) ctx.note = 'x' + '\u00e9'.repeat(200);
    return 0;
  }, { name: 'note' });
} else if (mode === 'handbuilt') {
  const rng = okbot.makeRng(1);
  const seat = process.argv[3] === undefined ? null : Number(process.argv[3]);
  const PASS = okbot.types.Action.create({ type: ActionType.PASS }); // sent from every seat
  okbot.run((view, legal) => {
    if (seat === null && legal.some((a) => a.type === ActionType.PASS)) return PASS;
    const a = okbot.types.Action.toObject(legal[rng.below(legal.length)]);
    delete a.seat;
    delete a.text;
    if (seat !== null) a.seat = seat;
    return a;
  }, { name: 'handbuilt', version: '1.0' });
} else if (mode === 'badindex') {
  okbot.run((view, legal) => legal.length, { name: 'badindex' });
} else {
  console.error(`probe_bot.js: unknown mode '${mode}'`);
  process.exit(2);
}
