// practice.mjs URL - the Undo button of a practice game in headless chromium: note the hand
// and the moves offered, play the first move, wait for the next decision, click Undo: the
// same hand and moves are offered again. Prints ok/FAIL lines and exits 1 on any FAIL.
import { launch, checks } from './chromium.mjs';

const [url] = process.argv.slice(2);
const { check, failed } = checks();
const { page, close } = await launch();
const table = async () => [await page.locator('#hand').textContent(),
  await page.locator('#actions').textContent()].join(' | ');
const waitMoves = () => page.waitForSelector('#actions button', { timeout: 20000 });
try {
  await page.goto(url);
  await waitMoves();
  check('the Undo button is shown in a practice game', await page.locator('#undo').isVisible());
  const before = await table();
  const version = async () => page.evaluate(() => st.version);
  const v0 = await version();
  await page.locator('#actions button').first().click();
  await page.waitForFunction((v) => st.version > v + 1 && st.decision, v0, { timeout: 20000 });
  await page.waitForTimeout(300);
  check('a move was played: the next decision offers another table', (await table()) !== before);
  await page.locator('#undo').click();
  await page.waitForFunction(() => st.decision && st.told !== undefined &&
    document.querySelector('#actions button'), null, { timeout: 20000 });
  await page.waitForTimeout(500);
  const after = await table();
  check('after Undo the same hand and moves are offered', after === before);
  if (after !== before) console.log('  before: ' + before + '\n  after:  ' + after);
} catch (e) {
  check('no error: ' + e, false);
}
await close();
process.exit(failed() ? 1 : 0);
