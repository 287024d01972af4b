// Shared helpers for the cua-mcp client tests: where the server is, how to
// start it with the official SDK client, and the GTK3 fixture app.
//
// Environment (set by tests/mcp-clients/meson.build):
//   CUA_MCP           the cua-mcp binary
//   CUA               the cua CLI
//   CUA_MCP_DATA_DIR  its data directory (forbidden-apps.txt, app-instructions/)
//   FIXTURE_GTK3      tests/desktop/fixture-gtk3 (desktop tests)
//   CUA_TOOLS_MD      the source tree's docs/tools.md
//   CUA_MCP_TRANSPORT `http`: connect() starts `cua-mcp --listen` and
//                     speaks MCP Streamable HTTP to it (the *-http tests)
//
// SPDX-License-Identifier: MIT
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, copyFileSync, chmodSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER = process.env.CUA_MCP ?? 'cua-mcp';
export const CUA_CLI = process.env.CUA ?? 'cua';
export const DATA_DIR = process.env.CUA_MCP_DATA_DIR ?? join(HERE, '../../tools/cua-mcp/data');
export const FIXTURE = process.env.FIXTURE_GTK3;
export const TOOLS_MD = process.env.CUA_TOOLS_MD;
export const VERSION_BANNER = /^Computer Use state \(CUA App Version: \d+\.\d+\.\d+\)$/;
export const RECEIPT_LINE = 'Action completed. Call `get_app_state` to fetch the updated UI state.';

// The desktop variables a test desktop (`cua desktop run`) sets. MCP
// clients start servers with HOME/LOGNAME/PATH/SHELL/TERM/USER only.
const DESKTOP_VARS = ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS',
  'XDG_RUNTIME_DIR', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'GSK_RENDERER', 'CUA_DESKTOP_DIR'];

// The tree cache's variables (docs/concurrency.md §6), passed on to the
// servers a test starts so that a run in verify mode reaches them (and
// `CUA_TREE_CACHE=0 ./bench` measures without the cache).
export const CACHE_VARS = ['CUA_TREE_CACHE', 'CUA_CACHE_VERIFY'];

export function haveDesktop() {
  return Boolean(process.env.DISPLAY && process.env.DBUS_SESSION_BUS_ADDRESS);
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `cua-mcp-${prefix}-`));
}

// A fresh config and state home per server, so approvals never leak from
// one test to another (or from the user).
export function serverEnv(extra = {}) {
  const env = { CUA_LOG_LEVEL: 'warning' };
  for (const k of [...DESKTOP_VARS, ...CACHE_VARS]) if (process.env[k]) env[k] = process.env[k];
  env.XDG_CONFIG_HOME = tempDir('config');
  env.XDG_STATE_HOME = tempDir('state');
  return { ...env, ...extra };
}

// The environment of an app a test starts: the desktop's, with a
// configuration, data, cache and state of its own under `home` (so no
// run sees another's settings or drafts) and its accessibility bridge on.
export function appEnv(home, extra = {}) {
  for (const d of ['config', 'data', 'cache', 'state']) mkdirSync(join(home, d), { recursive: true });
  return {
    ...process.env,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_STATE_HOME: join(home, 'state'),
    GSETTINGS_BACKEND: 'memory',
    NO_AT_BRIDGE: undefined,
    ...extra,
  };
}

const open = [];
export const protocolErrors = [];

// Starts cua-mcp through the SDK's StdioClientTransport and connects; with
// CUA_MCP_TRANSPORT=http, starts `cua-mcp --listen` and connects with the
// SDK's StreamableHTTPClientTransport instead.
export async function connect({ args = [], caps = {}, onElicit, env, dataDir = DATA_DIR, name = 'libcua-test' } = {}) {
  const serverArgs = ['--data-dir', dataDir, ...args];
  let transport, server, stderr = () => '';
  if (process.env.CUA_MCP_TRANSPORT === 'http') {
    server = await startHttpServer({ args: serverArgs, env: env ?? serverEnv() });
    transport = server.transport();
    stderr = () => server.stderr;
  } else {
    transport = new StdioClientTransport({
      command: SERVER, args: serverArgs, env: env ?? serverEnv(), stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (d) => { err += d; });
    stderr = () => err;
  }
  const client = new Client({ name, version: '0.0.1' }, { capabilities: caps });
  let closing = false;
  client.onerror = (e) => {
    // closing aborts the HTTP client's requests still under way (its event
    // streams, a notification or a response it sent without waiting),
    // which it reports
    if (closing && /AbortError|This operation was aborted/.test(e.message)) return;
    protocolErrors.push(`${name}: ${e.message}`);
  };
  // a client that is done ends its HTTP session (DELETE), after closing
  // (the SDK's terminateSession() first would have the session's streams
  // end while the transport is open, and the SDK reconnect them)
  const close = client.close.bind(client);
  client.close = async () => {
    closing = true;
    const sid = transport.sessionId;
    await close();
    if (sid) await endHttpSession(server, sid);
  };
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
  await client.connect(transport);
  open.push(client);
  return { client, transport, stderr };
}

const servers = [];

// DELETE of a session of an HTTP server of startHttpServer().
export async function endHttpSession(server, sid) {
  await fetch(server.url, { method: 'DELETE', headers: { Authorization: `Bearer ${server.token}`, 'Mcp-Session-Id': sid } })
    .catch(() => {});
}

// Starts `cua-mcp --listen 127.0.0.1:0` with a fresh token file and
// resolves once it listens: { url, token, proc, stderr, transport(opts),
// stop() }. stop() sends SIGTERM and waits for the exit (status in
// `exitCode`).
export async function startHttpServer({ args = ['--data-dir', DATA_DIR], env = serverEnv(), listen = '127.0.0.1:0', tokenFile } = {}) {
  tokenFile ??= join(tempDir('token'), 'token');
  const proc = spawn(SERVER, ['--listen', listen, '--token-file', tokenFile, ...args],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const server = { proc, stderr: '', tokenFile };
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cua-mcp --listen did not start: ${server.stderr}`)), 20000);
    proc.stderr.on('data', (d) => {
      server.stderr += d;
      const m = /listening on (http:\/\/\S+)/.exec(server.stderr);
      if (m && !server.url) { server.url = m[1]; clearTimeout(timer); resolve(); }
    });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`cua-mcp --listen exited (${code}): ${server.stderr}`)); });
  });
  server.token = readFileSync(tokenFile, 'utf8').trim();
  server.transport = (opts = {}) => new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    ...opts,
  });
  server.stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
    const done = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), 15000);
    await done;
    clearTimeout(t);
    return proc.exitCode;
  };
  servers.push(server);
  return server;
}

export async function closeAll() {
  while (open.length) await open.pop().close().catch(() => {});
  while (servers.length) await servers.pop().stop();
}

export function text(result) {
  return result.content?.[0]?.text ?? '';
}

// The body between <app_state> and </app_state>.
export function stateBody(result) {
  const t = text(result);
  const a = t.indexOf('\n<app_state>\n');
  const b = t.lastIndexOf('\n</app_state>');
  return a >= 0 && b > a ? t.slice(a + '\n<app_state>\n'.length, b) : null;
}

// The element number of the first tree line (full or diff form) whose
// text after the number passes `ok` (a RegExp or a function), or null.
export function findId(body, ok) {
  const pass = ok instanceof RegExp ? (t) => ok.test(t) : ok;
  for (const line of body.split('\n')) {
    const m = /^[~+]?\t*(\d+) (.*)$/.exec(line);
    if (m && pass(m[2])) return m[1];
  }
  return null;
}

// findId(), failing with the tree when no line matches.
export function idOf(body, re) {
  const id = findId(body, re);
  if (id === null) throw new Error(`no line ${re} in\n${body}`);
  return id;
}

// The element number of the first line `<n> <role> <title…>` of a tree
// (full or diff form).
export function elementIndex(body, role, title) {
  return findId(body, (t) => t.startsWith(`${role} ${title}`));
}

// Calls `fn` with each line `stream` prints.
export function onLines(stream, fn) {
  let buf = '';
  stream.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      fn(line);
    }
  });
}

// The GTK3 fixture: one line on stdout per effect, commands on stdin.
export class Fixture {
  // env: the environment to start it in (default: this process's);
  // args: its arguments (--small, --extras)
  constructor(path = FIXTURE, { name, env, args = [] } = {}) {
    this.path = path;
    this.env = env;
    this.args = args;
    if (name) { // a copy under another executable name (forbidden-list tests)
      const dir = tempDir('app');
      this.path = join(dir, name);
      copyFileSync(path, this.path);
      chmodSync(this.path, 0o755);
    }
    this.lines = [];
    this.waiters = [];
  }

  // Resolves once the app says "ready"; one that does not within
  // `timeout` ms is killed.
  async start(timeout = 20000) {
    this.proc = spawn(this.path, this.args, { stdio: ['pipe', 'pipe', 'inherit'], env: this.env ?? process.env });
    onLines(this.proc.stdout, (line) => {
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => !w(line));
    });
    try {
      await this.waitLine('ready', timeout);
    } catch (e) {
      this.proc.kill('SIGKILL');
      throw e;
    }
    return this;
  }

  get pid() { return this.proc.pid; }

  // Resolves with the first line from index `from` on (already seen or
  // future) that matches: a string is a prefix, a RegExp a pattern.
  waitLine(match, timeout = 5000, from = 0) {
    const ok = (l) => (match instanceof RegExp ? match.test(l) : l.startsWith(match));
    const seen = this.lines.slice(from).find(ok);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fixture: no line ${match} within ${timeout} ms; saw ${JSON.stringify(this.lines.slice(-10))}`)), timeout);
      this.waiters.push((line) => {
        if (!ok(line)) return false;
        clearTimeout(timer);
        resolve(line);
        return true;
      });
    });
  }

  get mark() { return this.lines.length; }

  count(match) { return this.lines.filter((l) => (match instanceof RegExp ? match.test(l) : l.startsWith(match))).length; }

  send(command) { this.proc.stdin.write(`${command}\n`); }

  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    this.proc.stdin.end();
    const done = new Promise((r) => this.proc.once('exit', r));
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    await done;
    clearTimeout(t);
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Calls list_apps until app `id` is listed as running (asking
// get_app_state by name earlier could launch another app of that name).
export async function untilRunning(client, id, timeout = 30000) {
  const end = Date.now() + timeout;
  const listed = new RegExp(`— ${id.replace(/[.+]/g, '\\$&')} \\[[^\\]]*running`);
  for (;;) {
    const r = await client.callTool({ name: 'list_apps', arguments: {} });
    if (listed.test(text(r))) return;
    if (Date.now() > end) throw new Error(`${id} is not running after ${timeout} ms: ${text(r)}`);
    await sleep(300);
  }
}

// Calls get_app_state until `pred(result)` holds (apps register with the
// accessibility bus a moment after they show a window).
export async function stateUntil(client, args, pred = (r) => !r.isError, timeout = 15000) {
  const end = Date.now() + timeout;
  let r;
  for (;;) {
    r = await client.callTool({ name: 'get_app_state', arguments: args });
    if (pred(r) || Date.now() > end) return r;
    await sleep(300);
  }
}
