// The browser extension end to end: Debian's chromium (driven by
// playwright-core) loads examples/browser-extension unpacked, with the host
// manifest written into the test's own user-data directory by the real
// scamcheck-native-host --install-manifest. A local page on 127.0.0.1
// shows a scam text; the test selects it, runs the extension's own context
// menu handler in its service worker with the info object a click gives,
// opens the popup page and checks the verdict and every highlighted
// evidence.
//
//   SCAMCHECK_NATIVE_HOST=... SCAMCHECK_CHROMIUM=... node --test extension_test.mjs
// SCAMCHECK_SCREENSHOT=file.png saves a screenshot of the popup.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const extensionDir = resolve(here, '../../examples/browser-extension');
const host = process.env.SCAMCHECK_NATIVE_HOST;
const chromiumPath = process.env.SCAMCHECK_CHROMIUM;
const locale = process.env.SCAMCHECK_BROWSER_LOCALE || 'en';

const SCAM_TEXT = {
  en: 'URGENT: your bank account has been locked. Confirm your password within 24 hours at ' +
      'http://secure-login.example-bank.xyz/verify or it will be closed.',
  de: 'DRINGEND: Ihr Bankkonto wurde gesperrt. Bestätigen Sie Ihr Passwort innerhalb von 24 Stunden ' +
      'unter http://secure-login.example-bank.xyz/verify, sonst wird es geschlossen.',
}[locale];
const RISK_TEXT = { en: 'Dangerous', de: 'Gefährlich' }[locale];

// Chromium derives an unpacked extension's id from the manifest's "key":
// the first 128 bits of SHA-256 of the key, hex digits 0-f written a-p.
function extensionId(manifest) {
  const hash = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex');
  return [...hash.slice(0, 32)].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

function startPage() {
  const page = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Inbox</title></head>
<body><h1>Inbox</h1><p id="scam">${SCAM_TEXT}</p>
<p><a id="link" href="http://paypal.com.secure-login.xyz/login">Your PayPal account</a></p></body></html>`;
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

test(`extension checks a selected scam text through the native host (${locale})`, { timeout: 150_000 }, async (t) => {
  assert.ok(host, 'SCAMCHECK_NATIVE_HOST is not set');
  assert.ok(chromiumPath, 'SCAMCHECK_CHROMIUM is not set');
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8'));
  const id = extensionId(manifest);

  // Cleanup in reverse order of setup: the browser, the page server, the profile.
  const cleanups = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const userDataDir = mkdtempSync(join(tmpdir(), 'scamcheck-browser-'));
  cleanups.push(() => rmSync(userDataDir, { recursive: true, force: true }));
  const install = spawnSync(host, ['--install-manifest', '--browser', 'chromium', '--extension-id', id,
                                   '--manifest-dir', join(userDataDir, 'NativeMessagingHosts')],
                            { encoding: 'utf8', timeout: 30_000 });
  assert.equal(install.status, 0, install.stderr);

  const server = await startPage();
  cleanups.push(() => new Promise((done) => {
    server.closeAllConnections();
    server.close(done);
  }));
  const pageUrl = `http://127.0.0.1:${server.address().port}/`;

  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: false,  // --headless=new below: the old headless mode runs no extensions
    locale: locale === 'de' ? 'de-DE' : 'en-US',
    timeout: 60_000,
    // Chromium on Linux takes its UI language (chrome.i18n) from the environment.
    env: { ...process.env, LANGUAGE: locale, LANG: locale === 'de' ? 'de_DE.UTF-8' : 'en_US.UTF-8' },
    ignoreDefaultArgs: ['--disable-extensions', '--disable-component-extensions-with-background-pages'],
    args: [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--lang=${locale}`,
      `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`,
    ],
  });
  cleanups.push(() => context.close());

  const worker = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${id}/`)) ??
                 await context.waitForEvent('serviceworker', {
                   predicate: (w) => w.url().startsWith(`chrome-extension://${id}/`), timeout: 30_000 });

  // The page with the scam text; select it as a user would.
  const page = await context.newPage();
  await page.goto(pageUrl);
  const selectionText = await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('scam'));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return selection.toString();
  });
  assert.equal(selectionText, SCAM_TEXT);

  // What a click on "Check with ScamCheck" runs, with the OnClickData the
  // browser gives for a selection.
  const entry = await worker.evaluate(async ({ selectionText, pageUrl }) => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return self.handleMenuClick({ menuItemId: 'scamcheck-check', editable: false, frameId: 0,
                                  pageUrl, selectionText }, tab);
  }, { selectionText, pageUrl });
  assert.equal(entry.state, 'done', JSON.stringify(entry));
  assert.equal(entry.kind, 'text');
  assert.equal(entry.report.verdict, 'danger');
  assert.equal(entry.report.risk_text, RISK_TEXT);
  assert.ok(entry.report.signals.length > 0);

  // The popup page shows the stored result.
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 440, height: 760 });
  await popup.goto(`chrome-extension://${id}/popup.html`);
  await popup.locator('#result').waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await popup.locator('#verdict').getAttribute('data-verdict'), 'danger');
  assert.equal(await popup.locator('#verdict').getAttribute('class'), 'verdict-danger');
  assert.equal(await popup.locator('#risk-text').textContent(), RISK_TEXT);
  assert.equal(await popup.locator('#summary').textContent(), entry.report.summary_plain);
  assert.equal(await popup.locator('#actions li').count(), entry.report.actions.length);
  const colour = await popup.locator('#verdict').evaluate((e) => getComputedStyle(e).borderTopColor);
  assert.equal(colour, 'rgb(198, 40, 40)');  // danger red

  // Every <mark> is a signal's evidence, at that signal's span, with its explanation.
  assert.equal(await popup.locator('#message').textContent(), SCAM_TEXT);
  const marks = await popup.locator('#message mark').evaluateAll((nodes) =>
    nodes.map((m) => ({ key: m.dataset.signal, text: m.textContent, title: m.title })));
  assert.ok(marks.length > 0, 'no evidence is highlighted');
  const bytes = Buffer.from(SCAM_TEXT, 'utf8');
  for (const mark of marks) {
    const signal = entry.report.signals.find((s) => s.key === mark.key && s.evidence === mark.text);
    assert.ok(signal, `mark ${JSON.stringify(mark)} is no signal's evidence`);
    assert.equal(bytes.subarray(signal.span.start, signal.span.end).toString('utf8'), mark.text);
    assert.equal(mark.title, signal.explanation);
  }
  // The message is text, never markup: no element but the marks inside it.
  assert.equal(await popup.locator('#message *').count(), marks.length);
  if (process.env.SCAMCHECK_SCREENSHOT) {
    await popup.screenshot({ path: process.env.SCAMCHECK_SCREENSHOT, fullPage: true });
  }

  // A link: the same menu item on a link checks its address (kind url).
  const linkUrl = await page.locator('#link').evaluate((a) => a.href);
  const linkEntry = await worker.evaluate(({ linkUrl, pageUrl }) =>
    self.handleMenuClick({ menuItemId: 'scamcheck-check', editable: false, frameId: 0, pageUrl, linkUrl }),
  { linkUrl, pageUrl });
  assert.equal(linkEntry.state, 'done', JSON.stringify(linkEntry));
  assert.equal(linkEntry.kind, 'url');
  assert.notEqual(linkEntry.report.verdict, 'safe');
  await popup.locator('#message').filter({ hasText: linkUrl }).waitFor({ timeout: 30_000 });
  assert.equal(await popup.locator('#verdict').getAttribute('data-verdict'), linkEntry.report.verdict);
});
