// A real scamcheckd for the MCP-over-HTTP tests: started on 127.0.0.1 (any
// free port) with a temporary SQLite file, users and tokens made with its
// operator CLI. The binary comes from the SCAMCHECKD environment variable.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const SCAMCHECKD = process.env.SCAMCHECKD;
if (!SCAMCHECKD) throw new Error('set SCAMCHECKD to the scamcheckd binary');

let userCount = 0;

export class Scamcheckd {
  constructor(...flags) {
    this.dir = mkdtempSync(join(tmpdir(), 'scamcheckd-mcp-'));
    this.database = 'sqlite:' + join(this.dir, 'test.db');
    this.flags = flags;
    this.log = [];
  }

  // Resolves once the server listens; this.port and this.origin are set.
  async start() {
    this.child = spawn(
      SCAMCHECKD,
      ['serve', '--listen', '127.0.0.1:0', '--database', this.database, '--workers', '2', ...this.flags],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    const lines = createInterface({ input: this.child.stderr });
    this.port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('scamcheckd did not start: ' + this.log.join('\n'))), 20000);
      lines.on('line', (line) => {
        this.log.push(line);
        if (line.includes('"event":"listening"')) {
          clearTimeout(timer);
          resolve(JSON.parse(line).port);
        }
      });
      this.child.on('exit', () => reject(new Error('scamcheckd exited: ' + this.log.join('\n'))));
    });
    this.origin = `http://127.0.0.1:${this.port}`;
    return this;
  }

  url(name = 'scamcheck') {
    return `${this.origin}/mcp/${name}`;
  }

  cli(args, input = '') {
    const run = spawnSync(SCAMCHECKD, [...args, '--database', this.database], { input, timeout: 60000 });
    if (run.status !== 0) throw new Error(`scamcheckd ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.toString().trim();
  }

  // Creates a user and returns a token of `abilities`.
  user({ plan = 'pro', abilities = '*', email } = {}) {
    email ??= `mcp-user-${++userCount}-${process.pid}@example.com`;
    this.cli(['user', 'create', '--email', email, '--name', 'MCP test', '--plan', plan], 'correct horse battery\n');
    return this.token(email, abilities);
  }

  token(email, abilities, name = `token-${++userCount}`) {
    return this.cli(['token', 'create', '--email', email, '--name', name, '--abilities', abilities]);
  }

  // Stops it with SIGTERM; resolves to the exit status.
  async stop() {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30000);
    const code = await this.exited;
    clearTimeout(timer);
    rmSync(this.dir, { recursive: true, force: true });
    return code;
  }
}
