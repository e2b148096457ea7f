// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in package-lock.json) against scamcheckd's MCP endpoint: the
// server scenarios below must all pass. The suite sends no bearer token, so
// it talks to a small loopback proxy that adds one; scamcheckd's --base-url
// is the proxy's address, as behind any reverse proxy, so the suite's own
// Origin (the proxy's) is allowed and a foreign one is refused.
//
// Run: SCAMCHECKD=build/adapters/server/scamcheckd node --test conformance_http_test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

import { Scamcheckd } from './scamcheckd.mjs';

const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
];
const CONFORMANCE = fileURLToPath(
  new URL('./node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const SCENARIO_TIMEOUT_MS = 60000;

// Forwards every request to scamcheckd as it came, plus the bearer token.
class TokenProxy {
  constructor() {
    this.server = http.createServer((req, res) => {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, authorization: `Bearer ${this.target.token}` },
        },
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (e) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${e.message}`);
      });
      req.pipe(upstream);
    });
  }
  listen() {
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => resolve(this.server.address().port));
    });
  }
  close() {
    this.server.closeAllConnections?.();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

// Runs one scenario; resolves to {code, output}.
function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), SCENARIO_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? `killed by ${signal}` : code, output });
    });
  });
}

describe('MCP conformance suite, server scenarios, through a token-adding proxy', () => {
  const proxy = new TokenProxy();
  let server;
  let url;

  before(async () => {
    const port = await proxy.listen();
    server = new Scamcheckd('--base-url', `http://127.0.0.1:${port}`);
    await server.start();
    proxy.target = { port: server.port, token: server.user() };
    url = `http://127.0.0.1:${port}/mcp/scamcheck`;
  });
  after(async () => {
    await proxy.close();
    assert.equal(await server?.stop(), 0);
  });

  for (const scenario of SCENARIOS) {
    test(scenario, async () => {
      const { code, output } = await runScenario(url, scenario);
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      assert.equal(code, 0, plain);
      assert.match(plain, /Passed: (\d+)\/\1, 0 failed/, plain);
    });
  }
});
