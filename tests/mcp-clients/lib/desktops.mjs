// Many desktops on one machine: each a private headless desktop of its own
// (`cua desktop start`, X11 or sway), with the GTK3 fixture in it and its
// own `cua-mcp --listen` reached over MCP Streamable HTTP. Used by the
// isolation test (desktops.test.mjs) and the farm bench (bench-desktops.mjs).
//
// SPDX-License-Identifier: MIT
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CACHE_VARS, CUA_CLI, DATA_DIR, FIXTURE, Fixture, startHttpServer, endHttpSession, stateUntil } from './harness.mjs';

const run = promisify(execFile);

// The environment a desktop's programs get: PATH and HOME, the tree
// cache's, the variables `cua desktop start --json` gives (null: unset)
// and the log level.
function desktopEnv(vars) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CUA_LOG_LEVEL: 'warning' };
  for (const k of CACHE_VARS) if (process.env[k]) env[k] = process.env[k];
  for (const [k, v] of Object.entries(vars)) if (v !== null) env[k] = v;
  return env;
}

// Starts a desktop with the fixture and a server in it:
// { name, kind, env, dir, fixture, server, stop() }. serverArgs go to
// cua-mcp (e.g. ['--trust-apps']).
// `startMs`: how long the fixture may take to start.
export async function startDesktop({ name, wayland = false, screen, serverArgs = [], fixtureArgs = [], startMs = 20000 } = {}) {
  const args = ['desktop', 'start', '--json'];
  if (wayland) args.push('--wayland', 'sway');
  if (screen) args.push('--screen', screen);
  const { stdout } = await run(CUA_CLI, args, { timeout: 60000 });
  const vars = JSON.parse(stdout);
  const d = { name, kind: wayland ? 'sway' : 'x11', env: desktopEnv(vars), dir: vars.CUA_DESKTOP_DIR };
  d.stop = async () => {
    await Promise.all([d.fixture?.stop(), d.server?.stop()]);
    await run(CUA_CLI, ['desktop', 'stop', '--dir', d.dir], { timeout: 60000 }).catch(() => {});
  };
  try {
    // the text caret does not blink: two screenshots of an unchanged
    // window are the same picture
    const gtk = join(vars.XDG_CONFIG_HOME, 'gtk-3.0');
    mkdirSync(gtk, { recursive: true });
    writeFileSync(join(gtk, 'settings.ini'), '[Settings]\ngtk-cursor-blink = false\n');
    d.fixture = await new Fixture(FIXTURE, { env: d.env, args: fixtureArgs }).start(startMs);
    d.server = await startHttpServer({ args: ['--data-dir', DATA_DIR, ...serverArgs], env: d.env });
  } catch (e) {
    await d.stop();
    throw e;
  }
  return d;
}

// Starts `n` desktops at once (x11, or sway for every `wayland(i)`).
export async function startDesktops(n, opts = {}, wayland = () => false) {
  const started = await Promise.allSettled(Array.from({ length: n }, (_, i) =>
    startDesktop({ name: `d${i}`, wayland: wayland(i), ...opts })));
  const ok = started.filter((s) => s.status === 'fulfilled').map((s) => s.value);
  const bad = started.find((s) => s.status === 'rejected');
  if (bad) {
    await Promise.all(ok.map((d) => d.stop()));
    throw bad.reason;
  }
  return ok;
}

// An SDK client of desktop `d`'s server; `onElicit` answers app approvals.
// Resolves with the client once the fixture is in its accessibility tree
// (when the server may read it: `ready`).
export async function connectDesktop(d, { onElicit, ready = true } = {}) {
  const client = new Client({ name: `farm-${d.name}`, version: '0.0.1' }, { capabilities: onElicit ? { elicitation: {} } : {} });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
  const transport = d.server.transport();
  await client.connect(transport);
  const close = client.close.bind(client);
  client.close = async () => {
    const sid = transport.sessionId;
    await close();
    if (sid) await endHttpSession(d.server, sid);
  };
  if (ready) {
    const r = await stateUntil(client, { app: 'fixture-gtk3' }, (x) => !x.isError, 30000);
    if (r.isError) throw new Error(`${d.name}: the fixture did not appear: ${r.content?.[0]?.text}`);
  }
  return client;
}
