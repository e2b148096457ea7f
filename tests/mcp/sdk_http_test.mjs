// scamcheckd's MCP endpoint driven by the official MCP TypeScript SDK over
// Streamable HTTP (StreamableHTTPClientTransport with the bearer token):
// the suite of sdk_suite.mjs once per session revision, each as a new user,
// then what the HTTP endpoint adds: MCP scans are the user's reports in the
// scan API, share its daily bucket and URL cache, and the tools check the
// token's abilities.
//
// Run: SCAMCHECKD=build/adapters/server/scamcheckd node --test sdk_http_test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { Scamcheckd } from './scamcheckd.mjs';
import { sdkSuite } from './sdk_suite.mjs';

const server = new Scamcheckd();
before(() => server.start());
after(async () => {
  assert.equal(await server.stop(), 0, 'SIGTERM exits 0');
});

function transportFor(token) {
  return new StreamableHTTPClientTransport(new URL(server.url()), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
}

async function connect(token) {
  const client = new Client({ name: 'scamcheck-http-test', version: '1.0.0' });
  await client.connect(transportFor(token));
  return client;
}

async function api(method, path, token, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body) headers['Content-Type'] = 'application/json';
  const response = await fetch(server.origin + path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const SMS = 'Your parcel is on hold. Pay 1.99 EUR at https://dhl-track.example.top/pay';

sdkSuite('Streamable HTTP', () => transportFor(server.user()));

describe('MCP over HTTP and the scan API', () => {
  test('scans made through MCP are the caller’s reports in GET /api/v1/reports', async () => {
    const token = server.user();
    const client = await connect(token);
    const made = [];
    for (const text of [SMS, 'Hi, lunch at noon?']) {
      const result = await client.callTool({ name: 'scan_text', arguments: { text } });
      assert.notEqual(result.isError, true);
      made.push(result.structuredContent);
    }
    const links = await client.callTool({
      name: 'scan_links',
      arguments: { text: 'See https://a.example.com/x and https://b.example.org/y' },
    });
    made.push(...links.structuredContent.reports);
    await client.close();

    const list = await api('GET', '/api/v1/reports?limit=100', token);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((r) => r.id), made.map((r) => r.id).reverse());
    for (const report of made) {
      const one = await api('GET', `/api/v1/reports/${report.id}`, token);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, report, 'stored exactly as the tool returned it');
    }
    // Another user sees none of them.
    const other = server.user();
    assert.equal((await api('GET', `/api/v1/reports/${made[0].id}`, other)).status, 404);
    const otherClient = await connect(other);
    const prompt = otherClient.getPrompt({
      name: 'explain_report_to_my_parent',
      arguments: { report_id: made[0].id },
    });
    await assert.rejects(prompt, (e) => e.code === -32602);
    await otherClient.close();
  });

  test('MCP scans and the scan API share one daily bucket', async () => {
    const token = server.user({ plan: 'free' });  // 10 scans a day
    for (let i = 0; i < 6; i++) {
      const scan = await api('POST', '/api/v1/scan', token, { content: `${SMS} #${i}` });
      assert.equal(scan.status, 200);
    }
    const client = await connect(token);
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'scan_text', arguments: { text: `${SMS} mcp ${i}` } });
      assert.notEqual(result.isError, true, result.content[0].text);
    }
    const refused = await client.callTool({ name: 'scan_text', arguments: { text: SMS } });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /daily limit/i);
    const scanApi = await api('POST', '/api/v1/scan', token, { content: SMS });
    assert.equal(scanApi.status, 429);
    // Reading is never counted.
    const recent = await client.callTool({ name: 'list_my_recent_reports', arguments: { limit: 20 } });
    assert.equal(recent.structuredContent.reports.length, 10);
    await client.close();
  });

  test('a repeated URL scan comes from the cache, for MCP and the scan API alike', async () => {
    const token = server.user({ plan: 'free' });
    const url = 'http://paypa1-login.example.top/verify';
    const first = await api('POST', '/api/v1/scan', token, { kind: 'url', content: url });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '9');
    const client = await connect(token);
    const again = await client.callTool({ name: 'scan_url', arguments: { url: `  ${url} ` } });
    assert.equal(again.structuredContent.urls[0].cached, true);
    const fresh = await client.callTool({ name: 'scan_url', arguments: { url: 'http://other.example.top/x' } });
    assert.equal(fresh.structuredContent.urls[0].cached, false);
    await client.close();
    const text = await api('POST', '/api/v1/scan', token, { content: 'hello' });
    assert.equal(text.headers.get('x-ratelimit-remaining'), '7', 'the cached scan was not counted');
  });

  test('the tools check the token’s abilities', async () => {
    const email = `abilities-${process.pid}@example.com`;
    server.user({ email, abilities: 'reports:read' });
    const readOnly = await connect(server.token(email, 'reports:read'));
    const scan = await readOnly.callTool({ name: 'scan_text', arguments: { text: SMS } });
    assert.equal(scan.isError, true);
    const list = await readOnly.callTool({ name: 'list_my_recent_reports', arguments: {} });
    assert.notEqual(list.isError, true);
    await readOnly.close();

    const scanOnly = await connect(server.token(email, 'scan:create'));
    assert.notEqual((await scanOnly.callTool({ name: 'scan_text', arguments: { text: SMS } })).isError, true);
    assert.equal((await scanOnly.callTool({ name: 'list_my_recent_reports', arguments: {} })).isError, true);
    await scanOnly.close();
  });

  test('a revoked token is refused at once', async () => {
    const email = `revoked-${process.pid}@example.com`;
    server.user({ email });
    const token = server.token(email, '*', 'to-revoke');
    const client = await connect(token);
    await client.ping();
    server.cli(['token', 'revoke', '--email', email, '--name', 'to-revoke']);
    await assert.rejects(client.ping(), /401/);
    await client.close();
  });
});
