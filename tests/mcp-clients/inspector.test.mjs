// The MCP Inspector CLI (@modelcontextprotocol/inspector --cli) against
// cua-mcp: tools/list (with its --strict portability checks) and real
// calls on the GTK3 fixture in a headless desktop.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { SERVER, DATA_DIR, HERE, Fixture, FIXTURE, haveDesktop, tempDir, sleep } from './lib/harness.mjs';

const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const BIN = join(HERE, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const HOME = tempDir('inspector-home'); // the Inspector keeps state under ~/.mcp-inspector
const expected = JSON.parse(readFileSync(join(HERE, 'expected-tools.json'), 'utf8'));
let fixture;

// The Inspector passes only a few variables to the server: the desktop's
// go through -e (docs/mcp.md §2.4). Target and its flags first, then "--".
function cli(serverArgs, ...flags) {
  const env = [];
  for (const k of ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS', 'XDG_RUNTIME_DIR'])
    if (process.env[k]) env.push('-e', `${k}=${process.env[k]}`);
  env.push('-e', `XDG_CONFIG_HOME=${tempDir('config')}`, '-e', `XDG_STATE_HOME=${tempDir('state')}`);
  const r = spawnSync(process.execPath, [BIN, '--cli', SERVER, '--data-dir', DATA_DIR, ...serverArgs, '--', ...env, ...flags, '--format', 'json'],
    { encoding: 'utf8', timeout: 60000, env: { ...process.env, HOME } });
  let json;
  try { json = JSON.parse(r.stdout); } catch { /* left undefined */ }
  return { code: r.status, json, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  if (skip) return;
  fixture = await new Fixture().start();
  await sleep(1500); // registered on the accessibility bus
});
after(async () => { await fixture?.stop(); });

test('inspector: initialize', { skip }, () => {
  const r = cli([], '--method', 'initialize');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.result.protocolVersion, '2025-11-25');
  assert.equal(r.json.result.serverInfo.name, 'cua-mcp');
});

test('inspector: tools/list --strict passes and lists the eleven tools as docs/tools.md', { skip }, () => {
  const r = cli([], '--method', 'tools/list', '--strict');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(r.json.result.tools.map((t) => t.name), expected.map((t) => t.name));
  assert.deepEqual(r.json.result.tools.map((t) => t.inputSchema), expected.map((t) => t.inputSchema));
});

test('inspector: tools/call get_app_state on a real app returns text and a JPEG', { skip }, () => {
  const r = cli(['--trust-apps'], '--method', 'tools/call', '--tool-name', 'get_app_state', '--tool-arg', 'app=fixture-gtk3');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(r.json.result.content.map((c) => c.type), ['text', 'image']);
  assert.match(r.json.result.content[0].text, /\n<app_state>\nApp=fixture-gtk3 \(pid \d+\)\n/);
  assert.equal(r.json.result.content[1].mimeType, 'image/jpeg');
});

test('inspector: list_apps', { skip }, () => {
  const r = cli([], '--method', 'tools/call', '--tool-name', 'list_apps');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.json.result.content[0].text, /^fixture-gtk3 — fixture-gtk3 \[/m);
});

test('inspector: it cannot ask for approval, so a call is an isError result (exit 5)', { skip }, () => {
  const r = cli([], '--method', 'tools/call', '--tool-name', 'click', '--tool-args-json', '{"app":"fixture-gtk3","x":1,"y":2}');
  assert.equal(r.code, 5, r.stdout + r.stderr);
  assert.equal(r.json.result.isError, true);
  assert.equal(r.json.result.structuredContent.error.id, 'E-APPROVAL-UNAVAILABLE');
});

test('inspector: an unknown tool is exit 5; logging/setLevel works', { skip }, () => {
  assert.equal(cli([], '--method', 'tools/call', '--tool-name', 'nope').code, 5);
  assert.equal(cli([], '--method', 'logging/setLevel', '--log-level', 'warning').code, 0);
});
