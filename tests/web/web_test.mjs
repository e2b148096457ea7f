// scamcheckd's web interface (CONTRACT §9) in a real browser: Debian's
// chromium, driven by playwright-core, against the real server process on
// loopback with its own SQLite file.
//
//   SCAMCHECKD=build/adapters/server/scamcheckd SCAMCHECK_CHROMIUM=/usr/lib/chromium/chromium \
//     node --test web_test.mjs
//
// The server trusts 127.0.0.1 as a proxy, so each browser context can act
// as its own client address (X-Forwarded-For) with its own anonymous daily
// allowance.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const binary = process.env.SCAMCHECKD;
const chromiumPath = process.env.SCAMCHECK_CHROMIUM;

const SCAM_SMS = 'URGENT: your bank account has been locked. Confirm your password within 24 hours ' +
                 'at http://secure-login.example-bank.xyz/verify or it will be closed.';
const BENIGN = 'Hi Anna, are we still on for lunch on Friday at 12? I booked a table at the usual place.';
const XSS = 'Hello <script>alert(1)</script> and <img src="/xss-probe.png" onerror="alert(2)"> ' +
            '<a href="javascript:alert(3)">x</a> bye';
const EMAIL = 'From: "PayPal Support" <security@paypa1-verify.xyz>\nTo: you@example.com\n' +
              'Subject: Your account has been suspended\n\nDear customer, your account has been ' +
              'locked. Confirm your password within 24 hours at http://paypal.com.secure-login.xyz/login\n';
const ANONYMOUS_PER_DAY = 3;

let server;
let baseUrl;
let browser;
let dataDir;
let nextAddress = 1;

// Starts scamcheckd on a free port with a database file in `dir`; resolves
// to [process, base URL] once it listens.
function startServer(dir, extra = []) {
  const child = spawn(binary, [
    'serve', '--listen', '127.0.0.1:0', '--database', `sqlite:${join(dir, 'web.db')}`,
    '--workers', '2', '--trusted-proxy', '127.0.0.1/32',
    '--anonymous-checks-per-day', String(ANONYMOUS_PER_DAY),
    '--check-per-minute-anonymous', '1000', '--scan-per-minute', '1000', ...extra,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  return [child, new Promise((resolve, reject) => {
    let buffered = '';
    let started = false;
    const timer = setTimeout(() => reject(new Error('scamcheckd did not start in 20 s')), 20_000);
    // The log goes to stderr, one JSON object a line; only errors are shown.
    child.stderr.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        if (!started && line.includes('"event":"listening"')) {
          started = true;
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${JSON.parse(line).port}`);
        } else if (/"level":"(error|critical)"/.test(line)) {
          process.stderr.write(`${line}\n`);
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`scamcheckd exited with ${code}`)));
  })];
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((done) => child.on('exit', done));
}

// A fresh browser context: its own cookies and its own client address.
async function newContext(options = {}) {
  const address = `10.77.0.${nextAddress++}`;
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: options.locale ?? 'en-US',
    javaScriptEnabled: options.javaScript ?? true,
    extraHTTPHeaders: { 'X-Forwarded-For': address },
  });
  return context;
}

async function register(page, name, email, password) {
  await page.goto('/register');
  await page.fill('#name', name);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('form.narrow button[type=submit]')]);
  assert.equal(await page.locator('form[action="/logout"]').count(), 1, 'signed in after registering');
}

async function login(page, email, password) {
  await page.goto('/login');
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('form.narrow button[type=submit]')]);
}

async function checkText(page, content, kind = 'auto') {
  await page.goto('/');
  await page.fill('#content', content);
  await page.selectOption('#kind', kind);
  await Promise.all([page.waitForLoadState('load'), page.click('#check-submit')]);
  await page.waitForSelector('#report, #notice');
}

async function createToken(page, name, abilities) {
  await page.goto('/developer/tokens');
  await page.fill('#token-name', name);
  for (const box of await page.locator('input[name=ability]').all()) {
    const value = await box.getAttribute('value');
    if (abilities.includes(value)) await box.check(); else await box.uncheck();
  }
  await Promise.all([page.waitForURL(`${baseUrl}/developer/tokens`), page.click('#token-form button')]);
  return (await page.locator('#new-token-value').textContent()).trim();
}

async function apiScan(token, content) {
  return fetch(`${baseUrl}/api/v1/scan`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
}

// Checks the report's marks: each one's text is the evidence of a listed
// signal of its key, they follow one another in input order, and the
// message around them is the submitted text.
async function checkMarks(page, content) {
  const { text, marks } = await page.evaluate(() => {
    const pre = document.getElementById('message');
    const marks = [];
    let offset = 0;
    for (const node of pre.childNodes) {
      const t = node.textContent;
      if (node.nodeName === 'MARK') {
        marks.push({ key: node.dataset.signal, text: t, start: offset, title: node.title,
                     focusable: node.tabIndex === 0 });
      }
      offset += t.length;
    }
    return { text: pre.textContent, marks };
  });
  assert.equal(text, content);
  const signals = await page.$$eval('.signals li', (items) => items.map((li) => ({
    key: li.dataset.key, evidence: li.querySelector('q.evidence').textContent })));
  assert.ok(marks.length > 0, 'some evidence is marked');
  let last = -1;
  for (const mark of marks) {
    assert.ok(signals.some((s) => s.key === mark.key && s.evidence === mark.text),
              `mark ${JSON.stringify(mark)} is the evidence of a ${mark.key} signal`);
    assert.equal(content.slice(mark.start, mark.start + mark.text.length), mark.text);
    assert.ok(mark.start > last, 'marks in input order');
    assert.ok(mark.title.length > 0 && mark.focusable, 'explanation on hover and focus');
    last = mark.start;
  }
  // Every listed signal of the message whose evidence no earlier mark
  // covers is marked itself.
  for (const s of signals) {
    const covered = marks.some((m) => m.text.includes(s.evidence));
    assert.ok(covered || !content.includes(s.evidence), `${s.key} "${s.evidence}" is marked`);
  }
  return marks;
}

async function axeCheck(page, label) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [],
                   `axe-core on ${label}`);
}

before(async () => {
  assert.ok(binary, 'SCAMCHECKD is not set');
  assert.ok(chromiumPath, 'SCAMCHECK_CHROMIUM is not set');
  dataDir = mkdtempSync(join(tmpdir(), 'scamcheck-web-'));
  let started;
  [server, started] = startServer(dataDir);
  baseUrl = await started;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
    timeout: 60_000,
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await stopServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('pages send the security headers; static files are cached', async () => {
  const context = await newContext();
  const page = await context.newPage();
  for (const path of ['/', '/login', '/register']) {
    const response = await page.goto(path);
    assert.equal(response.status(), 200, path);
    const h = response.headers();
    assert.match(h['content-security-policy'], /frame-ancestors 'none'/);
    assert.match(h['content-security-policy'], /script-src 'self'/);
    assert.doesNotMatch(h['content-security-policy'], /unsafe-inline|unsafe-eval/);
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.ok(h['referrer-policy']);
    assert.equal(h['cache-control'], 'no-store');
  }
  const css = await page.request.get(await page.getAttribute('link[rel=stylesheet]', 'href'));
  assert.equal(css.status(), 200);
  assert.match(css.headers()['content-type'], /^text\/css/);
  assert.match(css.headers()['cache-control'], /max-age=31536000/);
  const js = await page.request.get(await page.getAttribute('script[src]', 'src'));
  assert.match(js.headers()['content-type'], /^text\/javascript/);
  assert.equal((await page.request.get('/nothing-here')).status(), 404);
  await context.close();
});

test('register, sign in, a token shown once works on the API until revoked, sign out', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await register(page, 'Alice', 'alice@example.com', 'correct horse 1');

  const session = (await context.cookies()).find((c) => c.name === 'sc_session');
  assert.ok(session, 'session cookie set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  assert.equal(session.secure, false, 'no Secure without an https --base-url');

  // Sign out, then in again.
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('form[action="/logout"] button')]);
  assert.equal(await page.locator('a[href="/login"]').count(), 1);
  assert.equal((await page.goto('/developer/tokens')).url(), `${baseUrl}/login`);
  await login(page, 'alice@example.com', 'correct horse 1');

  const token = await createToken(page, 'ci-token', ['scan:create', 'reports:read']);
  assert.match(token, /^sck_[0-9A-Za-z]{40}$/);
  await page.reload();
  assert.equal(await page.locator('#new-token-value').count(), 0, 'the value is shown only once');
  assert.equal(await page.locator('#tokens tr[data-status=active] .token-name').textContent(), 'ci-token');
  assert.ok(!(await page.content()).includes(token), 'the value is gone from the page');

  const ok = await apiScan(token, SCAM_SMS);
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).verdict, 'danger');
  await page.reload();
  assert.notEqual((await page.locator('#tokens tr td').nth(3).textContent()).trim(), 'never',
                  'last used is shown');

  await Promise.all([page.waitForURL(/\/developer\/tokens/),
                     page.click('#tokens tr[data-status=active] button.danger')]);
  assert.equal(await page.locator('#tokens tr[data-status=revoked]').count(), 1);
  assert.equal((await apiScan(token, SCAM_SMS)).status, 401, 'a revoked token is refused');

  // Signing out ends the session in the store: the old cookie is worthless.
  const before = (await context.cookies()).find((c) => c.name === 'sc_session');
  await page.goto('/');
  await Promise.all([page.waitForURL(`${baseUrl}/`), page.click('form[action="/logout"] button')]);
  const replay = await newContext();
  await replay.addCookies([{ ...before }]);
  const again = await replay.newPage();
  assert.equal((await again.goto('/reports')).url(), `${baseUrl}/login`);
  await replay.close();

  // A wrong password: the same message as an unknown account.
  await page.goto('/login');
  await page.fill('#email', 'alice@example.com');
  await page.fill('#password', 'wrong password');
  await page.click('form.narrow button[type=submit]');
  const wrong = await page.locator('#form-error').textContent();
  await page.fill('#email', 'nobody@example.com');
  await page.fill('#password', 'wrong password');
  await page.click('form.narrow button[type=submit]');
  assert.equal(await page.locator('#form-error').textContent(), wrong, 'no user enumeration');
  await context.close();
});

test('behind an https --base-url the session cookie is Secure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scamcheck-web-tls-'));
  const [child, started] = startServer(dir, ['--base-url', 'https://scamcheck.example']);
  try {
    const url = await started;
    const home = await fetch(`${url}/`);
    const visitor = home.headers.get('set-cookie');
    assert.match(visitor, /^sc_visitor=[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = visitor.split(';')[0];
    const csrf = (await home.text()).match(/name="csrf" value="([^"]+)"/)[1];
    const registered = await fetch(`${url}/register`, {
      method: 'POST', redirect: 'manual',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, name: 'Tls', email: 'tls@example.com', password: 'long enough' }),
    });
    assert.equal(registered.status, 303);
    assert.match(registered.headers.get('set-cookie'),
                 /^sc_session=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
  } finally {
    await stopServer(child);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sign-in attempts are limited per account and per address with a clear message', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await register(page, 'Mallory target', 'target@example.com', 'the right password');
  await page.click('form[action="/logout"] button');
  const attacker = await newContext();
  const p = await attacker.newPage();
  for (let i = 0; i < 5; ++i) {
    await p.goto('/login');
    await p.fill('#email', 'target@example.com');
    await p.fill('#password', `guess ${i}`);
    await p.click('form.narrow button[type=submit]');
  }
  // Now even the right password waits for the window to pass.
  await p.goto('/login');
  await p.fill('#email', 'target@example.com');
  await p.fill('#password', 'the right password');
  const [response] = await Promise.all([p.waitForResponse((r) => r.url().endsWith('/login')),
                                        p.click('form.narrow button[type=submit]')]);
  assert.equal(response.status(), 429);
  assert.match(await p.locator('#form-error').textContent(), /Too many failed sign-in attempts/);
  await attacker.close();

  // Per address: 20 failures on different accounts, then every account
  // waits, even one with no failure of its own and the right password.
  const other = await newContext();
  await register(await other.newPage(), 'Untouched', 'untouched@example.com', 'untouched password');
  await other.close();
  const sprayer = await newContext();
  const q = await sprayer.newPage();
  await q.goto('/login');
  const csrf = await q.getAttribute('input[name=csrf]', 'value');
  for (let i = 0; i < 20; ++i) {
    const r = await q.request.post('/login', { form: { csrf, email: `user${i}@example.com`, password: 'guess' } });
    assert.equal(r.status(), 200);
  }
  const blocked = await q.request.post('/login', { form: { csrf, email: 'untouched@example.com',
                                                            password: 'untouched password' } });
  assert.equal(blocked.status(), 429);
  await sprayer.close();
  await context.close();
});

test('a second user never sees the first one\'s reports or tokens', async () => {
  const first = await newContext();
  const a = await first.newPage();
  await register(a, 'Bob', 'bob@example.com', 'bobs password');
  await checkText(a, SCAM_SMS);
  const reportId = await a.getAttribute('#report', 'data-report-id');
  await createToken(a, 'bobs-secret-token', ['*']);
  await a.goto('/reports');
  assert.equal(await a.locator(`#reports tr[data-report-id="${reportId}"]`).count(), 1);
  await a.click(`#reports tr[data-report-id="${reportId}"] a`);
  assert.equal(await a.locator('#risk-text').textContent(), 'Dangerous');

  const second = await newContext();
  const b = await second.newPage();
  await register(b, 'Carol', 'carol@example.com', 'carols password');
  await b.goto('/reports');
  assert.equal(await b.locator('#reports').count(), 0);
  assert.equal(await b.locator('#no-reports').count(), 1);
  assert.equal((await b.goto(`/reports/${reportId}`)).status(), 404);
  await b.goto('/developer/tokens');
  assert.ok(!(await b.content()).includes('bobs-secret-token'));
  // Carol's delete form for Bob's report (with her own CSRF token) deletes nothing.
  await b.goto('/reports');
  const csrf = await b.getAttribute('input[name=csrf]', 'value');
  const del = await b.request.post(`/reports/${reportId}/delete`, { form: { csrf } });
  assert.equal(del.status(), 404);

  // Bob deletes his report.
  await a.goto('/reports');
  await Promise.all([a.waitForURL(/\/reports\?deleted=1/),
                     a.click(`#reports tr[data-report-id="${reportId}"] button.danger`)]);
  assert.equal(await a.locator(`#reports tr[data-report-id="${reportId}"]`).count(), 0);
  await first.close();
  await second.close();
});

test('a scam SMS is danger with every evidence marked in input order; a benign one is safe', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await checkText(page, SCAM_SMS);
  assert.equal(await page.getAttribute('#report', 'data-verdict'), 'danger');
  assert.equal(await page.locator('#risk-text').textContent(), 'Dangerous');
  assert.ok(Number(await page.locator('#risk-score').textContent()) >= 70);
  assert.ok((await page.locator('#actions li').count()) >= 1);
  await checkMarks(page, SCAM_SMS);
  assert.match(await page.locator('#remaining').textContent(), /2 of 3/);

  await checkText(page, BENIGN);
  assert.equal(await page.getAttribute('#report', 'data-verdict'), 'safe');
  assert.equal(await page.locator('#risk-text').textContent(), 'Looks safe');
  await context.close();
});

test('the check works without JavaScript, and with it without a reload', async () => {
  const plain = await newContext({ javaScript: false });
  const p = await plain.newPage();
  await checkText(p, SCAM_SMS);
  assert.equal(await p.getAttribute('#report', 'data-verdict'), 'danger');
  await checkMarks(p, SCAM_SMS);
  await plain.close();

  const context = await newContext();
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(() => { window.sameDocument = true; });
  await page.fill('#content', SCAM_SMS);
  await page.click('#check-submit');
  await page.waitForSelector('#report');
  assert.equal(await page.evaluate(() => window.sameDocument), true, 'no reload');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'report-title', 'focus on the result');
  await checkMarks(page, SCAM_SMS);
  await context.close();
});

test('email evidence is listed under its header or part', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await checkText(page, EMAIL, 'email');
  assert.equal(await page.getAttribute('#report', 'data-verdict'), 'danger');
  const parts = await page.$$eval('.part', (divs) => divs.map((d) => ({
    title: d.querySelector('h4').textContent,
    evidence: [...d.querySelectorAll('q.evidence')].map((q) => q.textContent) })));
  const from = parts.find((p) => p.title === 'Header From');
  assert.ok(from, JSON.stringify(parts));
  for (const e of from.evidence) assert.ok(EMAIL.split('\n')[0].includes(e), e);
  const body = parts.find((p) => p.title === 'Email text');
  assert.ok(body, JSON.stringify(parts));
  for (const e of body.evidence) assert.ok(EMAIL.split('\n\n')[1].includes(e), e);
  await context.close();
});

test('markup in a message is shown as text: no dialog, no request', async () => {
  const context = await newContext();
  const page = await context.newPage();
  const dialogs = [];
  const requests = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto('/');
  page.on('request', (r) => requests.push(r.url()));
  await page.fill('#content', XSS);
  await Promise.all([page.waitForLoadState('load'), page.click('#check-submit')]);
  await page.waitForSelector('#report');
  assert.equal(await page.locator('#message').textContent(), XSS);
  assert.equal(await page.locator('#message script, #message img, #message a').count(), 0);
  assert.equal(await page.inputValue('#content'), XSS, 'the form keeps the text as typed');
  await page.waitForTimeout(300);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(requests.filter((u) => u.includes('xss-probe') || u.startsWith('javascript:')), []);
  // Only the page and its own static files were requested.
  for (const u of requests) assert.ok(u.startsWith(baseUrl), u);
  await context.close();
});

test('a PNG screenshot upload is checked', async (t) => {
  const health = await (await fetch(`${baseUrl}/health`)).json();
  if (health.checks.ocr !== 'ok') {
    t.skip('OCR models are not installed');
    return;
  }
  const context = await newContext();
  const page = await context.newPage();
  await page.setViewportSize({ width: 900, height: 300 });
  await page.setContent(`<p style="font: 32px sans-serif; margin: 24px">${SCAM_SMS}</p>`);
  const png = await page.screenshot();
  await page.goto('/');
  await page.setInputFiles('#file', { name: 'screenshot.png', mimeType: 'image/png', buffer: png });
  await Promise.all([page.waitForLoadState('load'), page.click('#check-submit')]);
  await page.waitForSelector('#report, #notice', { timeout: 30_000 });
  assert.equal(await page.locator('#report').count(), 1, await page.locator('main').textContent());
  assert.notEqual(await page.getAttribute('#report', 'data-verdict'), 'safe');
  assert.ok((await page.locator('#message mark').count()) >= 1, 'evidence marked in the recognised text');
  await context.close();
});

test('a form without or with a wrong CSRF token is refused with 403', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await page.goto('/login');
  const csrf = await page.getAttribute('input[name=csrf]', 'value');
  assert.ok(csrf.length >= 32);
  const form = { email: 'alice@example.com', password: 'correct horse 1' };
  assert.equal((await page.request.post('/login', { form })).status(), 403);
  assert.equal((await page.request.post('/login', { form: { ...form, csrf: `${csrf}x` } })).status(), 403);
  assert.equal((await page.request.post('/login', { form: { ...form, csrf: csrf.slice(0, -1) + (csrf.endsWith('A') ? 'B' : 'A') } })).status(), 403);
  assert.equal((await page.request.post('/', { multipart: { content: SCAM_SMS } })).status(), 403);
  assert.equal((await page.request.post('/register', { form: { name: 'x', email: 'x@example.com',
                                                                password: 'long enough' } })).status(), 403);
  // Another visitor's token is not this visitor's.
  const other = await newContext();
  const o = await other.newPage();
  await o.goto('/login');
  assert.equal((await o.request.post('/login', { form: { ...form, csrf } })).status(), 403);
  await other.close();
  // Signed in: the session's token, nothing else.
  await login(page, 'alice@example.com', 'correct horse 1');
  assert.equal((await page.request.post('/logout', { form: { csrf } })).status(), 403);
  assert.equal((await page.request.post('/developer/tokens', { form: { name: 'x', ability: '*' } })).status(), 403);
  await context.close();
});

test('when the allowance runs out the page says so clearly', async () => {
  // Anonymous: ANONYMOUS_PER_DAY checks per address.
  const context = await newContext();
  const page = await context.newPage();
  for (let i = 0; i < ANONYMOUS_PER_DAY; ++i) {
    await checkText(page, `${BENIGN} ${i}`);
    assert.equal(await page.locator('#report').count(), 1);
  }
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    checkText(page, SCAM_SMS),
  ]);
  assert.equal(response.status(), 429);
  assert.equal(await page.locator('#report').count(), 0);
  assert.match(await page.locator('#notice').textContent(), /used all 3 free checks/);
  assert.equal(await page.locator('#check-form').count(), 1, 'the page itself, not an error page');

  // Signed in: the plan's allowance, the same bucket as the API.
  await register(page, 'Dave', 'dave@example.com', 'daves password');
  const token = await createToken(page, 'spender', ['scan:create']);
  for (let i = 0; i < 9; ++i) assert.equal((await apiScan(token, `${BENIGN} ${i}`)).status, 200);
  await checkText(page, SCAM_SMS);  // the 10th of 10
  assert.equal(await page.locator('#report').count(), 1);
  assert.match(await page.locator('#remaining').textContent(), /0 of 10/);
  await checkText(page, SCAM_SMS);
  assert.match(await page.locator('#notice').textContent(), /used all 10 checks/);
  assert.equal((await apiScan(token, BENIGN)).status, 429, 'the API shares the bucket');
  await context.close();
});

test('keyboard only: the check flow works with Tab and Enter', async () => {
  const context = await newContext();
  const page = await context.newPage();
  await page.goto('/');
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  for (let i = 0; i < 30 && (await focused()) !== 'content'; ++i) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'content');
  await page.keyboard.type(SCAM_SMS);
  for (let i = 0; i < 10 && (await focused()) !== 'check-submit'; ++i) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'check-submit');
  await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
  await page.waitForSelector('#report');
  assert.equal(await page.getAttribute('#report', 'data-verdict'), 'danger');
  // The marks are reachable with Tab and show their explanation on focus.
  for (let i = 0; i < 40 && (await focused()) !== 'MARK'; ++i) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'MARK');
  const tip = await page.evaluate(() => getComputedStyle(document.activeElement, '::after').content);
  assert.ok(tip.length > 10, 'the explanation shows on focus');
  await context.close();
});

test('axe-core finds no serious or critical violation on any page (en and de)', async () => {
  for (const locale of ['en-US', 'de-DE']) {
    const context = await newContext({ locale });
    const page = await context.newPage();
    for (const path of ['/', '/login', '/register']) {
      await page.goto(path);
      await axeCheck(page, `${path} (${locale})`);
    }
    await checkText(page, SCAM_SMS);
    assert.equal(await page.locator('html').getAttribute('lang'), locale.slice(0, 2));
    await axeCheck(page, `the report (${locale})`);
    await register(page, 'Eve', `eve-${locale}@example.com`, 'eves password');
    await createToken(page, 'axe', ['*']);
    await axeCheck(page, `/developer/tokens (${locale})`);
    await checkText(page, SCAM_SMS);
    await page.goto('/reports');
    await axeCheck(page, `/reports (${locale})`);
    await page.click('#reports a');
    await axeCheck(page, `/reports/{id} (${locale})`);
    await context.close();
  }
});

test('the language follows Accept-Language and the switch', async () => {
  const context = await newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/login');
  assert.equal(await page.locator('h1').textContent(), 'Anmelden');
  await Promise.all([page.waitForURL(`${baseUrl}/login`), page.click('#lang-switch')]);
  assert.equal(await page.locator('h1').textContent(), 'Sign in');
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  await checkText(page, SCAM_SMS);
  assert.equal(await page.locator('#risk-text').textContent(), 'Dangerous');
  await page.click('#lang-switch');
  await checkText(page, SCAM_SMS);
  assert.equal(await page.locator('#risk-text').textContent(), 'Gefährlich');
  await context.close();
});
