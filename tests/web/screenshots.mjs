// Screenshots of scamcheckd's check page with a danger report, in English
// and German, for the README (scripts/web_screenshots.sh runs this).
//
//   SCAMCHECKD=... SCAMCHECK_CHROMIUM=... node screenshots.mjs OUT_DIR
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

const outDir = resolve(process.argv[2] ?? '.');
const MESSAGES = {
  en: 'URGENT: your bank account has been locked. Confirm your password within 24 hours at ' +
      'http://secure-login.example-bank.xyz/verify or it will be closed.',
  de: 'DRINGEND: Ihr Bankkonto wurde gesperrt. Bestätigen Sie Ihr Passwort innerhalb von 24 Stunden ' +
      'unter http://secure-login.example-bank.xyz/verify, sonst wird es geschlossen.',
};

const dir = mkdtempSync(join(tmpdir(), 'scamcheck-shots-'));
const server = spawn(process.env.SCAMCHECKD, ['serve', '--listen', '127.0.0.1:0',
                                              '--database', `sqlite:${join(dir, 'shots.db')}`],
                     { stdio: ['ignore', 'ignore', 'pipe'] });
const baseUrl = await new Promise((done, fail) => {
  let buffered = '';
  server.stderr.on('data', (chunk) => {
    buffered += chunk;
    const line = buffered.split('\n').find((l) => l.includes('"event":"listening"'));
    if (line) done(`http://127.0.0.1:${JSON.parse(line).port}`);
  });
  server.on('exit', (code) => fail(new Error(`scamcheckd exited with ${code}`)));
});

const browser = await chromium.launch({ executablePath: process.env.SCAMCHECK_CHROMIUM,
                                        args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
try {
  for (const [lang, message] of Object.entries(MESSAGES)) {
    const context = await browser.newContext({ baseURL: baseUrl, locale: lang === 'de' ? 'de-DE' : 'en-US',
                                               viewport: { width: 820, height: 860 } });
    const page = await context.newPage();
    await page.goto('/');
    await page.fill('#content', message);
    await Promise.all([page.waitForLoadState('load'), page.click('#check-submit')]);
    await page.waitForSelector('#report');
    // The report from its verdict to the marked message, with the tooltip
    // of a mark showing.
    await page.locator('#report').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.getElementById('report').offsetTop - 16));
    await page.focus('#message mark[data-severity=high]');
    const file = join(outDir, `web-check-${lang}.png`);
    await page.screenshot({ path: file });
    console.log(file);
    await context.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
