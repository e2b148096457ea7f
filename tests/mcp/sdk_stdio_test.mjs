// scamcheck-mcp driven by the official MCP TypeScript SDK over stdio: the
// suite of sdk_suite.mjs (every tool, the prompt and the resource, each
// structuredContent validated against its outputSchema), once per session
// revision, each against a fresh process.
//
// Run: SCAMCHECK_MCP=build/adapters/mcp-stdio/scamcheck-mcp node --test sdk_stdio_test.mjs
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { sdkSuite } from './sdk_suite.mjs';

const SERVER = process.env.SCAMCHECK_MCP;
if (!SERVER) throw new Error('set SCAMCHECK_MCP to the scamcheck-mcp binary');

sdkSuite('stdio', () => new StdioClientTransport({ command: SERVER, args: [], stderr: 'inherit' }));
