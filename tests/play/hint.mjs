// hint.mjs URL - the Hint button of a practice game with --hint-bot in headless chromium:
// click it, and the page shows the hint bot's move, which is one of the move buttons (outlined).
// Prints ok/FAIL lines and exits 1 on any FAIL.
import { launch, checks } from './chromium.mjs';

const [url] = process.argv.slice(2);
const { check, failed } = checks();
const { page, close } = await launch();
try {
  await page.goto(url);
  await page.waitForSelector('#actions button', { timeout: 20000 });
  check('the Hint button is shown', await page.locator('#hintbtn').isVisible());
  await page.locator('#hintbtn').click();
  await page.waitForSelector('#actions button.hinted', { timeout: 20000 });
  const shown = await page.locator('#hint').textContent();
  const hinted = await page.locator('#actions button.hinted').allTextContents();
  check('one move button is outlined', hinted.length === 1);
  check('the hint shown (' + shown + ') names that move', shown.startsWith('Hint: ' + hinted[0]));
} catch (e) {
  check('no error: ' + e, false);
}
await close();
process.exit(failed() ? 1 : 0);
