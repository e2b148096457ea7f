// The MCP TypeScript SDK suite shared by sdk_stdio_test.mjs (scamcheck-mcp)
// and sdk_http_test.mjs (scamcheckd's Streamable HTTP endpoint): every
// tool, the prompt and the resource. Each structuredContent is validated
// against the tool's outputSchema with the SDK's own validator (callTool
// validates it too and throws on a mismatch).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const PHISHING_SMS =
  'Your parcel is on hold. Pay the 1.99 EUR customs fee at https://dhl-track.example.top/pay within 24 hours.';
const TOOL_NAMES = [
  'scan_text', 'scan_url', 'scan_email', 'scan_image', 'scan_qr', 'scan_links',
  'list_my_recent_reports',
];
// A QR code of a phishing link (fixtures/qr_phishing_url.png, made with
// qrencode), and a 1x1 PNG.
const QR_PAYLOAD = 'https://paypa1-login.example.top/verify?acct=1';
const QR_PNG_BASE64 = readFileSync(new URL('./fixtures/qr_phishing_url.png', import.meta.url)).toString('base64');
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
// An email whose body is 8-bit Latin-1, sent as base64 bytes.
const LATIN1_EMAIL = Buffer.from(
  'From: "PayPal Service" <service@paypa1-secure.example.top>\r\n' +
    'To: you@example.com\r\nSubject: Konto gesperrt\r\n' +
    'Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n' +
    'Ihr Konto wurde gesperrt. Bestätigen Sie sofort Ihr Passwort: http://paypa1-secure.example.top/login\r\n',
  'latin1',
).toString('base64');

const validator = new AjvJsonSchemaValidator();
// The Report schema as the server publishes it, from a revision that has
// outputSchema; used to check the JSON text 2025-03-26 gets instead.
let reportSchema;

function checkAgainst(schema, value) {
  const result = validator.getValidator(schema)(value);
  assert.ok(result.valid, `does not match its outputSchema: ${result.errorMessage}`);
}

// Makes `transport` ask for `revision` in its initialize request.
function withRevision(transport, revision) {
  if (!revision) return transport;
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(
      message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: revision } }
        : message,
      options,
    );
  return transport;
}

function textOf(result) {
  assert.ok(Array.isArray(result.content) && result.content.length >= 1);
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

// The SDK suite, once per session revision the SDK speaks (2025-11-25 as
// it asks by itself; 2025-06-18 and 2025-03-26 by rewriting its initialize
// request). `makeTransport()` returns a new, unconnected SDK transport to
// one server whose reports start empty (a fresh process or user).
export function sdkSuite(transportName, makeTransport) {
  for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26']) {
    const structured = revision !== '2025-03-26';

    describe(`SDK client over ${transportName}, session revision ${revision}`, () => {
      let client;
      const tools = new Map();
      const scannedIds = [];

      // The Report(s) of a successful tool result, checked against the tool's
      // outputSchema (or, for 2025-03-26, the JSON text block).
      function structuredOf(name, result) {
        assert.notEqual(result.isError, true, textOf(result));
        let value;
        if (structured) {
          value = result.structuredContent;
          assert.ok(value, 'structuredContent is missing');
          checkAgainst(tools.get(name).outputSchema, value);
          assert.equal(result.content.length, 1);
        } else {
          assert.equal(result.structuredContent, undefined);
          assert.equal(result.content.length, 2);
          value = JSON.parse(result.content[1].text);
          const list = ['scan_qr', 'scan_links', 'list_my_recent_reports'].includes(name);
          for (const report of list ? value.reports : [value]) checkAgainst(reportSchema, report);
        }
        return value;
      }

      async function scan(name, args) {
        const result = await client.callTool({ name, arguments: args });
        const report = structuredOf(name, result);
        assert.match(report.id, /^rpt_[0-9A-HJKMNP-TV-Z]{26}$/);
        assert.ok(textOf(result).includes(report.id), 'the text names the report id');
        scannedIds.push(report.id);
        return { result, report };
      }

      before(async () => {
        client = new Client({ name: 'scamcheck-sdk-test', version: '1.0.0' });
        await client.connect(withRevision(await makeTransport(), revision === '2025-11-25' ? null : revision));
      });
      after(async () => {
        await client?.close();
      });

      test('initialize names the server and its capabilities', () => {
        assert.equal(client.getServerVersion().name, 'scamcheck');
        const caps = client.getServerCapabilities();
        assert.ok(caps.tools && caps.prompts && caps.resources);
        assert.ok(client.getInstructions().includes('scan_text'));
      });

      test('tools/list has every tool with an inputSchema, and outputSchema where the revision has it', async () => {
        const { tools: listed } = await client.listTools();
        assert.deepEqual(listed.map((t) => t.name), TOOL_NAMES);
        for (const tool of listed) {
          tools.set(tool.name, tool);
          assert.equal(tool.inputSchema.type, 'object');
          assert.ok(tool.description.length > 20);
          if (structured) {
            assert.equal(tool.outputSchema.type, 'object');
            validator.getValidator(tool.outputSchema);  // compiles
            assert.ok(tool.title);
          } else {
            assert.equal(tool.outputSchema, undefined);
          }
        }
        if (structured) reportSchema ??= tools.get('scan_text').outputSchema;
        assert.ok(reportSchema, 'the 2025-11-25 block runs first and records the Report schema');
      });

      test('ping', async () => {
        await client.ping();
      });

      test('scan_text finds a parcel scam and quotes its evidence', async () => {
        const { report, result } = await scan('scan_text', { text: PHISHING_SMS });
        assert.equal(report.kind, 'text');
        assert.notEqual(report.verdict, 'safe');
        assert.ok(report.signals.length > 0);
        for (const signal of report.signals) {
          assert.equal(signal.location, 'content');
          assert.equal(
            Buffer.from(PHISHING_SMS).subarray(signal.span.start, signal.span.end).toString(),
            signal.evidence,
          );
        }
        assert.equal(report.model_used, 'heuristic-fallback');
        assert.ok(textOf(result).includes('Warning signs'));
      });

      test('scan_text answers in the asked locale', async () => {
        const { report, result } = await scan('scan_text', { text: PHISHING_SMS, locale: 'de-AT' });
        assert.equal(report.locale, 'de');
        assert.ok(textOf(result).includes('Warnzeichen'));
      });

      test('scan_url', async () => {
        const { report } = await scan('scan_url', { url: 'http://paypa1-login.example.top/verify' });
        assert.equal(report.kind, 'url');
        assert.equal(report.urls.length, 1);
      });

      test('scan_email, UTF-8 and base64', async () => {
        const raw = Buffer.from(LATIN1_EMAIL, 'base64').toString('latin1');
        const { report } = await scan('scan_email', { raw_email: raw });
        assert.equal(report.kind, 'email');
        const { report: fromBytes } = await scan('scan_email', {
          raw_email: LATIN1_EMAIL,
          content_encoding: 'base64',
        });
        assert.equal(fromBytes.kind, 'email');
        assert.notEqual(fromBytes.verdict, 'safe');
      });

      test('scan_links analyzes every link as a URL', async () => {
        const result = await client.callTool({
          name: 'scan_links',
          arguments: {
            text: 'Track it at https://dhl-track.example.top/pay or see https://www.example.com/help.',
          },
        });
        const { reports } = structuredOf('scan_links', result);
        assert.equal(reports.length, 2);
        for (const report of reports) {
          assert.equal(report.kind, 'url');
          scannedIds.push(report.id);
        }
        const none = await client.callTool({ name: 'scan_links', arguments: { text: 'no links' } });
        assert.deepEqual(structuredOf('scan_links', none).reports, []);
      });

      test('scan_qr and scan_image read a QR code (or say clearly they cannot)', async () => {
        const notAvailable = /not available/;
        const qr = await client.callTool({
          name: 'scan_qr',
          arguments: { image_base64: QR_PNG_BASE64, mime_type: 'image/png' },
        });
        if (qr.isError) {
          assert.match(textOf(qr), notAvailable);
        } else {
          const { reports } = structuredOf('scan_qr', qr);
          assert.equal(reports.length, 1);
          assert.equal(reports[0].kind, 'image');
          assert.equal(reports[0].extracted_text, QR_PAYLOAD);
          assert.notEqual(reports[0].verdict, 'safe');
          scannedIds.push(reports[0].id);
        }
        const image = await client.callTool({
          name: 'scan_image',
          arguments: { image_base64: QR_PNG_BASE64, mime_type: 'image/png' },
        });
        if (image.isError) {
          assert.match(textOf(image), notAvailable);
        } else {
          const report = structuredOf('scan_image', image);
          assert.equal(report.kind, 'image');
          assert.ok(report.extracted_text.includes(QR_PAYLOAD));
          scannedIds.push(report.id);
        }
        const damaged = await client.callTool({
          name: 'scan_image',
          arguments: { image_base64: PNG_BASE64.slice(0, 24), mime_type: 'image/png' },
        });
        assert.equal(damaged.isError, true);
      });

      test('bad input is an isError result the model can read', async () => {
        const missing = await client.callTool({ name: 'scan_text', arguments: {} });
        assert.equal(missing.isError, true);
        assert.match(textOf(missing), /"text" is missing/);
        const badType = await client.callTool({
          name: 'scan_image',
          arguments: { image_base64: PNG_BASE64, mime_type: 'image/svg+xml' },
        });
        assert.equal(badType.isError, true);
        assert.match(textOf(badType), /mime_type/);
      });

      test('an unknown tool is a protocol error', async () => {
        await assert.rejects(client.callTool({ name: 'format_disk', arguments: {} }), (e) => {
          assert.ok(e instanceof McpError);
          assert.equal(e.code, -32602);
          return true;
        });
      });

      test('list_my_recent_reports returns the stored reports, newest first', async () => {
        const result = await client.callTool({
          name: 'list_my_recent_reports',
          arguments: { limit: 3 },
        });
        const { reports } = structuredOf('list_my_recent_reports', result);
        assert.deepEqual(reports.map((r) => r.id), scannedIds.slice(-3).reverse());
        const all = structuredOf(
          'list_my_recent_reports',
          await client.callTool({ name: 'list_my_recent_reports', arguments: {} }),
        );
        assert.equal(all.reports.length, Math.min(10, scannedIds.length));
      });

      test('prompt explain_report_to_my_parent', async () => {
        const { prompts } = await client.listPrompts();
        assert.deepEqual(prompts.map((p) => p.name), ['explain_report_to_my_parent']);
        const args = prompts[0].arguments;
        assert.deepEqual(args.map((a) => [a.name, a.required]), [['report_id', true], ['locale', false]]);

        const id = scannedIds[0];
        const english = await client.getPrompt({
          name: 'explain_report_to_my_parent',
          arguments: { report_id: id },
        });
        assert.equal(english.messages.length, 1);
        assert.equal(english.messages[0].role, 'user');
        const text = english.messages[0].content.text;
        assert.ok(text.includes(id) && text.includes('English') && text.includes('plain'));

        const german = await client.getPrompt({
          name: 'explain_report_to_my_parent',
          arguments: { report_id: id, locale: 'de' },
        });
        assert.ok(german.messages[0].content.text.includes('Deutsch'));

        await assert.rejects(
          client.getPrompt({ name: 'explain_report_to_my_parent', arguments: { report_id: 'rpt_x' } }),
          (e) => e instanceof McpError && e.code === -32602,
        );
      });

      test('resource signals_glossary', async () => {
        const { resources } = await client.listResources();
        assert.equal(resources.length, 1);
        assert.equal(resources[0].uri, 'scamcheck://signals/glossary');
        assert.equal(resources[0].name, 'signals_glossary');
        assert.equal(resources[0].mimeType, 'application/json');

        const { contents } = await client.readResource({ uri: 'scamcheck://signals/glossary' });
        assert.equal(contents.length, 1);
        assert.equal(contents[0].mimeType, 'application/json');
        const glossary = JSON.parse(contents[0].text);
        assert.equal(glossary.version, 1);
        const keys = new Set();
        for (const signal of glossary.signals) {
          assert.match(signal.key, /^[a-z][a-z0-9_]*$/);
          assert.ok(['low', 'medium', 'high'].includes(signal.default_severity));
          for (const locale of ['en', 'de']) {
            assert.ok(signal.texts[locale].title && signal.texts[locale].explanation);
          }
          keys.add(signal.key);
        }
        // Every key the scans above reported is in the glossary.
        const { reports } = structuredOf(
          'list_my_recent_reports',
          await client.callTool({ name: 'list_my_recent_reports', arguments: { limit: 100 } }),
        );
        for (const report of reports) {
          for (const signal of report.signals) assert.ok(keys.has(signal.key), signal.key);
        }

        await assert.rejects(
          client.readResource({ uri: 'scamcheck://nothing' }),
          (e) => e instanceof McpError && e.code === -32002,
        );
      });
    });
  }
}
