// scamcheckd's MCP endpoint spoken to in raw JSON-RPC over HTTP, written
// from the MCP specification's Streamable HTTP transport: the stateless
// revision 2026-07-28 (no initialize; params._meta names the revision and
// client capabilities; MCP-Protocol-Version, Mcp-Method and Mcp-Name
// mirror the body, a missing or different one is 400 with -32020), which
// the TypeScript SDK does not speak yet, and the transport's own rules for
// every revision: bearer token, Origin, 202 for notifications, 405 for GET,
// MCP-Protocol-Version checks, 2025-03-26 batches, body limits.
//
// Run: SCAMCHECKD=build/adapters/server/scamcheckd node --test stateless_http_test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

import { Scamcheckd } from './scamcheckd.mjs';

const REVISION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'scamcheck-raw-http-test', version: '1.0.0' },
};
const validator = new AjvJsonSchemaValidator();
const ALLOWED_ORIGIN = 'https://agent.example.com';
const server = new Scamcheckd('--mcp-name', 'scamcheck', '--base-url', 'https://scamcheck.example.com/base',
  '--allowed-origins', `${ALLOWED_ORIGIN}, http://localhost:3000`);
let token;

before(async () => {
  await server.start();
  token = server.user();
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

// One POST; `body` is sent as JSON unless it is a string. Resolves to
// {status, headers, text, json}.
async function post(body, headers = {}, { auth = true, path } = {}) {
  const response = await fetch(path ? server.origin + path : server.url(), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(auth ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, text, json };
}

// The headers a 2026-07-28 client sends for `method` (and its target).
function modernHeaders(method, name) {
  const headers = { 'MCP-Protocol-Version': REVISION, 'Mcp-Method': method };
  if (name !== undefined) headers['Mcp-Name'] = name;
  return headers;
}

// A stateless request with its headers; returns the result after the
// checks every 2026-07-28 result must pass.
async function call(method, params = {}, name = params.name ?? params.uri) {
  const id = Math.floor(Math.random() * 1e9);
  const answer = await post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
    modernHeaders(method, name));
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('content-type'), 'application/json');
  assert.equal(answer.json.id, id);
  assert.ok(answer.json.result, answer.text);
  assert.equal(answer.json.result.resultType, 'complete');
  assert.equal(answer.json.result._meta['io.modelcontextprotocol/serverInfo'].name, 'scamcheck');
  return answer.json.result;
}

describe(`stateless revision ${REVISION} over HTTP, raw JSON-RPC`, () => {
  const tools = new Map();

  test('server/discover lists every revision', async () => {
    const result = await call('server/discover');
    assert.deepEqual([...result.supportedVersions].sort(),
      ['2025-03-26', '2025-06-18', '2025-11-25', REVISION]);
    assert.ok(Number.isInteger(result.ttlMs));
  });

  test('tools/list, then every tool called with Mcp-Name; structuredContent matches outputSchema', async () => {
    const list = await call('tools/list');
    for (const tool of list.tools) tools.set(tool.name, tool);
    assert.equal(tools.size, 7);
    const check = (name, value) => {
      const result = validator.getValidator(tools.get(name).outputSchema)(value);
      assert.ok(result.valid, `${name}: ${result.errorMessage}`);
    };
    const text = await call('tools/call', {
      name: 'scan_text',
      arguments: { text: 'URGENT: your account is locked, confirm your password at http://bank-secure.example.top' },
    });
    check('scan_text', text.structuredContent);
    assert.notEqual(text.structuredContent.verdict, 'safe');
    const url = await call('tools/call', { name: 'scan_url', arguments: { url: 'http://paypa1.example.top/x' } });
    check('scan_url', url.structuredContent);
    const email = await call('tools/call', {
      name: 'scan_email',
      arguments: { raw_email: 'From: a@example.com\r\nSubject: hi\r\n\r\nSee you at noon.\r\n' },
    });
    check('scan_email', email.structuredContent);
    const links = await call('tools/call', { name: 'scan_links', arguments: { text: 'https://a.example.com/x' } });
    check('scan_links', links.structuredContent);
    const recent = await call('tools/call', { name: 'list_my_recent_reports', arguments: { limit: 4 } });
    check('list_my_recent_reports', recent.structuredContent);
    assert.deepEqual(recent.structuredContent.reports.map((r) => r.id), [
      links.structuredContent.reports[0].id, email.structuredContent.id, url.structuredContent.id,
      text.structuredContent.id,
    ]);
    const prompt = await call('prompts/get', {
      name: 'explain_report_to_my_parent',
      arguments: { report_id: text.structuredContent.id, locale: 'de' },
    });
    assert.ok(prompt.messages[0].content.text.includes(text.structuredContent.id));
  });

  test('prompts/list, resources/list and resources/read', async () => {
    assert.equal((await call('prompts/list')).prompts[0].name, 'explain_report_to_my_parent');
    const { resources } = await call('resources/list');
    const read = await call('resources/read', { uri: resources[0].uri });
    assert.equal(JSON.parse(read.contents[0].text).version, 1);
  });

  test('a missing or different Mcp-Method is HeaderMismatch (400, -32020)', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
    for (const headers of [
      { 'MCP-Protocol-Version': REVISION },
      modernHeaders('prompts/list'),
    ]) {
      const answer = await post(body, headers);
      assert.equal(answer.status, 400);
      assert.equal(answer.json.error.code, -32020);
    }
  });

  test('a missing or different Mcp-Name is HeaderMismatch', async () => {
    const body = {
      jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'scan_text', arguments: { text: 'hello' }, _meta: META },
    };
    for (const name of [undefined, 'scan_url']) {
      const answer = await post(body, modernHeaders('tools/call', name));
      assert.equal(answer.status, 400);
      assert.equal(answer.json.error.code, -32020);
    }
    const read = await post(
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'scamcheck://signals/glossary', _meta: META } },
      modernHeaders('resources/read', 'scamcheck://other'),
    );
    assert.equal(read.json.error.code, -32020);
  });

  test('MCP-Protocol-Version must equal the body’s revision', async () => {
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: META } };
    const missing = await post(body, { 'Mcp-Method': 'tools/list' });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.code, -32020);
    const other = await post(body, { ...modernHeaders('tools/list'), 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(other.json.error.code, -32020);
    // The header says 2026-07-28 but the body does not.
    const bare = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, modernHeaders('tools/list'));
    assert.equal(bare.status, 400);
    assert.equal(bare.json.error.code, -32020);
  });

  test('an unsupported revision is UnsupportedProtocolVersionError (400, -32022)', async () => {
    const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const answer = await post(
      { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta } },
      { ...modernHeaders('tools/list'), 'MCP-Protocol-Version': '2099-01-01' },
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error.code, -32022);
    assert.equal(answer.json.error.data.requested, '2099-01-01');
    assert.ok(answer.json.error.data.supported.includes(REVISION));
  });

  test('Mcp-Session-Id is ignored; notifications are 202 without a body', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: META } },
      { ...modernHeaders('tools/list'), 'Mcp-Session-Id': 'no-such-session' });
    assert.equal(answer.status, 200);
    const note = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      modernHeaders('notifications/cancelled'));
    assert.equal(note.status, 202);
    assert.equal(note.text, '');
  });
});

describe('Streamable HTTP transport rules', () => {
  const init = {
    jsonrpc: '2.0', id: 'init', method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };

  test('without a valid bearer token: 401 with WWW-Authenticate', async () => {
    for (const headers of [{}, { Authorization: 'Bearer sck_wrong' }]) {
      const answer = await post(init, headers, { auth: false });
      assert.equal(answer.status, 401);
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    }
  });

  test('Origin: the --base-url origin and --allowed-origins pass, any other is 403', async () => {
    for (const origin of ['https://scamcheck.example.com', 'https://SCAMCHECK.example.com:443',
      ALLOWED_ORIGIN, 'http://localhost:3000']) {
      assert.equal((await post(init, { Origin: origin })).status, 200, origin);
    }
    for (const origin of ['http://evil.example.com', 'null', 'https://scamcheck.example.com:8443',
      'http://scamcheck.example.com', server.origin]) {
      const answer = await post(init, { Origin: origin });
      assert.equal(answer.status, 403, origin);
      assert.equal(answer.json.type, '/problems/forbidden');
    }
    // Refused before the token is looked at.
    assert.equal((await post(init, { Origin: 'http://evil.example.com' }, { auth: false })).status, 403);
  });

  test('GET and DELETE are 405 with Allow: POST; another server name is 404', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(server.url(), {
        method,
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
      });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
    assert.equal((await post(init, {}, { path: '/mcp/other' })).status, 404);
  });

  test('a session revision is taken from MCP-Protocol-Version; absent means 2025-03-26', async () => {
    const initialized = await post(init);
    assert.equal(initialized.status, 200);
    assert.equal(initialized.json.result.protocolVersion, '2025-03-26');
    assert.equal(initialized.headers.get('mcp-session-id'), null);
    const note = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(note.status, 202);

    const old = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(old.json.result.tools[0].outputSchema, undefined);
    const newer = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'MCP-Protocol-Version': '2025-06-18' });
    assert.equal(newer.json.result.tools[0].outputSchema.type, 'object');
    for (const bad of ['2099-01-01', 'not-a-version']) {
      const answer = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'MCP-Protocol-Version': bad });
      assert.equal(answer.status, 400, bad);
      assert.ok(answer.json.error, answer.text);
    }
  });

  test('2025-03-26 batches; a batch of notifications is 202', async () => {
    const batch = await post([
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b2', method: 'tools/list' },
    ], { 'MCP-Protocol-Version': '2025-03-26' });
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.json.map((a) => a.id), ['b1', 'b2']);
    const notes = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }],
      { 'MCP-Protocol-Version': '2025-03-26' });
    assert.equal(notes.status, 202);
    const refused = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(refused.json.error.code, -32600);
  });

  test('malformed JSON is a 400 parse error; other media types are 415', async () => {
    const broken = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(broken.status, 400);
    assert.equal(broken.json.error.code, -32700);
    const text = await post('hello', { 'Content-Type': 'text/plain' });
    assert.equal(text.status, 415);
  });

  test('bodies up to 16 MiB are read (base64 images); larger ones are 413', async () => {
    const big = 'A'.repeat(12 * 1024 * 1024);
    const image = await post({
      jsonrpc: '2.0', id: 9, method: 'tools/call',
      params: { name: 'scan_image', arguments: { image_base64: big, mime_type: 'image/png' } },
    }, { 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(image.status, 200);
    assert.equal(image.json.result.isError, true);  // read, then refused as an image
    const tooBig = await post('[' + ' '.repeat(17 * 1024 * 1024) + ']');
    assert.equal(tooBig.status, 413);
  });
});
