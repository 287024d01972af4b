// `cua-mcp --headless`: with no desktop in its environment (as MCP hosts
// start servers: no DISPLAY, no bus), the server starts its own headless
// desktop, drives a real app in it, and stops it on exit — also when it is
// killed. Runs outside any test desktop.
//
// SPDX-License-Identifier: MIT
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SERVER, DATA_DIR, tempDir, text, stateBody, sleep, startHttpServer } from './lib/harness.mjs';

// Exactly what a host passes: no DISPLAY, no bus; a runtime dir without a
// session bus, so that no desktop of the user is found either.
function bareEnv() {
  return {
    XDG_RUNTIME_DIR: tempDir('runtime'),
    XDG_CONFIG_HOME: tempDir('config'),
    XDG_STATE_HOME: tempDir('state'),
    CUA_LOG_LEVEL: 'info',
  };
}

const desktopDir = (stderr) => /headless desktop on :\d+ \(([^)]+)\)/.exec(stderr)?.[1];

async function gone(path, ms = 30000) {
  const end = Date.now() + ms;
  while (existsSync(path) && Date.now() < end) await sleep(200);
  return !existsSync(path);
}

const clients = [];
after(async () => { for (const c of clients) await c.close().catch(() => {}); });

test('without a desktop and without --headless: E-PERMISSIONS-NOT-GRANTED says what to pass', async () => {
  const t = new StdioClientTransport({ command: SERVER, args: ['--data-dir', DATA_DIR], env: bareEnv(), stderr: 'pipe' });
  const c = new Client({ name: 'no-desktop', version: '0' });
  await c.connect(t);
  clients.push(c);
  const r = await c.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(r.isError, true);
  assert.equal(r.structuredContent.error.id, 'E-PERMISSIONS-NOT-GRANTED');
  assert.match(text(r), /^Computer Use server error -10009: Computer Use permissions are not granted\. /);
  // no X server of this user at all (CI), or several: the remedy names the
  // variables; exactly one X server but no session bus: the AT-SPI remedy
  if (/No display/.test(text(r))) {
    assert.match(text(r), /No display is available \(DISPLAY is unset or unreachable, and WAYLAND_DISPLAY is unset or unreachable\)\. /);
    assert.match(text(r), /pass DISPLAY or WAYLAND_DISPLAY \(and DBUS_SESSION_BUS_ADDRESS\) to this server/);
    assert.match(text(r), /--headless/);
  } else {
    assert.match(text(r), /accessibility bus \(AT-SPI\)/);
  }
});

test('--headless: starts a private desktop, launches and drives a real app, stops the desktop on exit', async () => {
  const t = new StdioClientTransport({ command: SERVER, args: ['--data-dir', DATA_DIR, '--headless', '--trust-apps'], env: bareEnv(), stderr: 'pipe' });
  let stderr = '';
  t.stderr.on('data', (d) => { stderr += d; });
  const c = new Client({ name: 'headless', version: '0' });
  await c.connect(t);
  clients.push(c); // closed by after() when an assertion fails first
  const dir = desktopDir(stderr);
  assert.ok(dir && existsSync(dir), stderr);

  const apps = await c.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(apps.isError ?? false, false, text(apps));
  // an installed app that is not running: the first get_app_state
  // launches it, waits for its window and returns its state (docs/tools.md
  // §5.2), without a retry
  const r = await c.callTool({ name: 'get_app_state', arguments: { app: 'gtk3-widget-factory' } });
  assert.equal(r.isError ?? false, false, text(r));
  assert.match(stateBody(r), /^App=gtk3-widget-factory \(pid \d+\)\nWindow: /);
  assert.equal(r.content[1]?.mimeType, 'image/jpeg');

  await c.close(); // stdin EOF: the server stops its desktop, then exits
  assert.ok(await gone(dir), `the desktop in ${dir} was not stopped`);
});

test('--headless: a killed server (SIGKILL) takes its desktop with it', async () => {
  const p = spawn(SERVER, ['--data-dir', DATA_DIR, '--headless'], { env: { ...bareEnv(), PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr.on('data', (d) => { stderr += d; });
  p.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await once(p.stdout, 'data');
  const dir = desktopDir(stderr);
  assert.ok(dir && existsSync(dir), stderr);
  p.kill('SIGKILL');
  await once(p, 'exit');
  assert.ok(await gone(dir), `the desktop in ${dir} survived its server`);
});

test('--listen --headless: sessions drive the private desktop with the user\'s approvals; SIGTERM stops it', async () => {
  const env = bareEnv();
  // the user's own "Always": a session without elicitation may use the app
  // only if it reads the user's approvals, not the private desktop's
  // (--headless moves XDG_STATE_HOME for the apps)
  mkdirSync(join(env.XDG_STATE_HOME, 'cua'), { recursive: true, mode: 0o700 });
  writeFileSync(join(env.XDG_STATE_HOME, 'cua', 'approvals.json'),
    JSON.stringify({ version: 1, apps: { 'gtk3-widget-factory': { scope: 'always', granted_at: '2026-01-01T00:00:00Z' } } }), { mode: 0o600 });
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--headless'], env });
  const dir = desktopDir(srv.stderr);
  assert.ok(dir && existsSync(dir), srv.stderr);
  const c = new Client({ name: 'headless-http', version: '0' });
  const t = srv.transport();
  await c.connect(t);
  clients.push(c);
  const r = await c.callTool({ name: 'get_app_state', arguments: { app: 'gtk3-widget-factory' } });
  assert.equal(r.isError ?? false, false, text(r));
  assert.match(stateBody(r), /^App=gtk3-widget-factory \(pid \d+\)\nWindow: /);
  // an app the user never approved is refused (no elicitation here)
  const other = await c.callTool({ name: 'get_app_state', arguments: { app: 'gtk4-widget-factory' } });
  assert.equal(other.isError, true);
  await t.terminateSession();
  await c.close();
  assert.equal(await srv.stop(), 0);
  assert.ok(await gone(dir), `the desktop in ${dir} was not stopped`);
});
