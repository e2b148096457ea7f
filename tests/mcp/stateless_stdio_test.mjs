// scamcheck-mcp spoken to in raw JSON-RPC over stdio, written from the MCP
// specification: the stateless revision 2026-07-28 (no initialize; every
// request carries its revision and client capabilities in params._meta;
// results carry resultType; server/discover), which the TypeScript SDK does
// not speak yet, plus the transport's edge cases (malformed lines, batches,
// requests before any initialize, end of input).
//
// Run: SCAMCHECK_MCP=build/adapters/mcp-stdio/scamcheck-mcp node --test stateless_stdio_test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const SERVER = process.env.SCAMCHECK_MCP;
if (!SERVER) throw new Error('set SCAMCHECK_MCP to the scamcheck-mcp binary');

const REVISION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'scamcheck-raw-test', version: '1.0.0' },
};
const validator = new AjvJsonSchemaValidator();

// One scamcheck-mcp process; send() writes a line, next() reads the next
// answer line.
class RawServer {
  constructor() {
    this.child = spawn(SERVER, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = [];
    this.waiting = [];
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }
  send(text) {
    this.child.stdin.write(text + '\n');
  }
  next() {
    if (this.lines.length) return Promise.resolve(JSON.parse(this.lines.shift()));
    return new Promise((resolve) => this.waiting.push((line) => resolve(JSON.parse(line))));
  }
  async request(method, params, id = Math.floor(Math.random() * 1e9)) {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const answer = await this.next();
    assert.equal(answer.id, id);
    assert.equal(answer.jsonrpc, '2.0');
    return answer;
  }
  // A stateless request; returns its result after the checks every
  // 2026-07-28 result must pass.
  async call(method, params = {}) {
    const answer = await this.request(method, { ...params, _meta: META });
    assert.ok(answer.result, JSON.stringify(answer.error));
    assert.equal(answer.result.resultType, 'complete');
    assert.equal(answer.result._meta['io.modelcontextprotocol/serverInfo'].name, 'scamcheck');
    return answer.result;
  }
  async close() {
    this.child.stdin.end();
    return this.exited;
  }
}

function checkCacheable(result) {
  assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs >= 0);
  assert.ok(['public', 'private'].includes(result.cacheScope));
}

describe(`stateless revision ${REVISION}, raw JSON-RPC`, () => {
  let server;
  const tools = new Map();
  before(() => {
    server = new RawServer();
  });
  after(async () => {
    assert.equal(await server.close(), 0, 'exits 0 at the end of input');
  });

  test('server/discover lists the supported revisions and capabilities', async () => {
    const result = await server.call('server/discover');
    assert.ok(result.supportedVersions.includes(REVISION));
    for (const v of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      assert.ok(result.supportedVersions.includes(v));
    }
    assert.ok(result.capabilities.tools && result.capabilities.prompts && result.capabilities.resources);
    checkCacheable(result);
  });

  test('tools/list without any initialize', async () => {
    const result = await server.call('tools/list');
    checkCacheable(result);
    for (const tool of result.tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(typeof tool.outputSchema, 'object');
      tools.set(tool.name, tool);
    }
    assert.equal(tools.size, 7);
  });

  test('tools/call scan_text: structuredContent matches the outputSchema', async () => {
    const result = await server.call('tools/call', {
      name: 'scan_text',
      arguments: { text: 'URGENT: your bank account is locked, confirm your password at http://bank-secure.example.top' },
    });
    assert.notEqual(result.isError, true);
    const check = validator.getValidator(tools.get('scan_text').outputSchema)(result.structuredContent);
    assert.ok(check.valid, check.errorMessage);
    assert.equal(result.content[0].type, 'text');
    assert.ok(result.content[0].text.includes(result.structuredContent.id));

    const links = await server.call('tools/call', {
      name: 'scan_links',
      arguments: { text: 'https://a.example.com/x https://b.example.org/y' },
    });
    const listCheck = validator.getValidator(tools.get('scan_links').outputSchema)(links.structuredContent);
    assert.ok(listCheck.valid, listCheck.errorMessage);
    assert.equal(links.structuredContent.reports.length, 2);

    const recent = await server.call('tools/call', { name: 'list_my_recent_reports', arguments: { limit: 5 } });
    assert.equal(recent.structuredContent.reports.length, 3);
  });

  test('tool errors are isError results', async () => {
    const result = await server.call('tools/call', { name: 'scan_url', arguments: { url: '' } });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
  });

  test('prompts and resources', async () => {
    const prompts = await server.call('prompts/list');
    checkCacheable(prompts);
    assert.equal(prompts.prompts[0].name, 'explain_report_to_my_parent');
    const resources = await server.call('resources/list');
    checkCacheable(resources);
    const read = await server.call('resources/read', { uri: resources.resources[0].uri });
    checkCacheable(read);
    assert.equal(JSON.parse(read.contents[0].text).version, 1);
    const missing = await server.request('resources/read', { uri: 'scamcheck://none', _meta: META });
    assert.equal(missing.error.code, -32602);  // no longer -32002 in this revision

    const recent = await server.call('tools/call', { name: 'list_my_recent_reports', arguments: { limit: 1 } });
    const prompt = await server.call('prompts/get', {
      name: 'explain_report_to_my_parent',
      arguments: { report_id: recent.structuredContent.reports[0].id },
    });
    assert.equal(prompt.messages[0].role, 'user');
  });

  test('an unsupported revision is UnsupportedProtocolVersionError', async () => {
    const answer = await server.request('tools/list', {
      _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
    });
    assert.equal(answer.error.code, -32022);
    assert.equal(answer.error.data.requested, '1900-01-01');
    assert.ok(answer.error.data.supported.includes(REVISION));
  });

  test('clientCapabilities is required', async () => {
    const answer = await server.request('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION },
    });
    assert.equal(answer.error.code, -32602);
  });

  test('removed and unknown methods are method-not-found', async () => {
    for (const method of ['ping', 'logging/setLevel', 'no/such/method']) {
      const answer = await server.request(method, { _meta: META });
      assert.equal(answer.error.code, -32601, method);
    }
  });

  test('string ids are echoed', async () => {
    const answer = await server.request('server/discover', { _meta: META }, 'discover-1');
    assert.equal(answer.result.resultType, 'complete');
  });
});

describe('stdio transport edge cases', () => {
  test('a request before initialize without _meta is refused; the session revisions still work', async () => {
    const server = new RawServer();
    const early = await server.request('tools/list', {});
    assert.equal(early.error.code, -32600);

    const init = await server.request('initialize', {
      protocolVersion: '2025-03-26',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    assert.equal(init.result.protocolVersion, '2025-03-26');
    assert.equal(init.result.resultType, undefined);
    server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    // Batches are part of 2025-03-26.
    server.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'b1', method: 'ping' },
        { jsonrpc: '2.0', id: 'b2', method: 'tools/list' },
      ]),
    );
    const batch = await server.next();
    assert.deepEqual(batch.map((a) => a.id), ['b1', 'b2']);
    assert.equal(batch[1].result.tools[0].outputSchema, undefined);

    // A stateless request is served on the same process.
    const modern = await server.request('tools/list', { _meta: META });
    assert.equal(modern.result.resultType, 'complete');
    assert.ok(modern.result.tools[0].outputSchema);
    assert.equal(await server.close(), 0);
  });

  test('malformed lines get parse errors and the server keeps going', async () => {
    const server = new RawServer();
    server.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    const broken = await server.next();
    assert.equal(broken.error.code, -32700);
    assert.equal(broken.id, null);
    server.send('\u0000\u00ff not json at all');
    assert.equal((await server.next()).error.code, -32700);
    server.send('');  // blank lines are skipped
    server.send(JSON.stringify({ jsonrpc: '1.0', id: 5, method: 'ping' }));
    assert.equal((await server.next()).error.code, -32600);
    // Batches are refused outside 2025-03-26.
    server.send(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]));
    assert.equal((await server.next()).error.code, -32600);
    const alive = await server.call('server/discover');
    assert.ok(alive.supportedVersions.length >= 4);
    assert.equal(await server.close(), 0);
  });

  test('an initialize for an unknown revision is offered 2025-11-25', async () => {
    const server = new RawServer();
    const init = await server.request('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    assert.equal(init.result.protocolVersion, '2025-11-25');
    assert.equal(await server.close(), 0);
  });
});
