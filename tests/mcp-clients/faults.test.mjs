// Environment faults (robustness): a full disk, an unwritable or read-only
// state directory while persisting state, and stdin EOF, a vanished
// stdout reader (EPIPE/SIGPIPE) or SIGTERM while cua-mcp is in the middle
// of a call on the GTK3 fixture (and of an app launch in a --headless
// server's private desktop). Runs in a headless desktop.
//
// File-system faults come from tests/faultinject.c (LD_PRELOAD, path
// prefix in CUA_FAULT_PREFIX): CI runs as root, whom directory modes do
// not stop, and a small full file system needs privileges to mount.
//
// What each case checks: the documented exit status within a bound, no
// crash, no helper process left in the server's process group (launched
// apps, which start their own session, stay), no zombie children while
// it runs, no temporary file in the state directories, an approvals file
// that parses, and an error or warning that names the path and what to do.
// The measured times are printed as test diagnostics.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SERVER, DATA_DIR, CUA_CLI, HERE, Fixture, FIXTURE, haveDesktop, serverEnv, tempDir, sleep } from './lib/harness.mjs';

const FAULTINJECT = process.env.CUA_FAULTINJECT;
const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const skipDisk = skip || (!FAULTINJECT && 'needs CUA_FAULTINJECT (tests/libfaultinject.so)');
const APP = 'fixture-gtk3';
const RECORDING = join(HERE, '..', 'data', 'recorded-gedit.json');

// The server's shutdown budget (tools/cua-mcp/rpc.c SHUTDOWN_WAIT_MS):
// stdin EOF lets the running call finish for up to 3 s, then cancels it and
// waits 3 s more; a signal or a broken stdout cancels at once.
const SHUTDOWN_WAIT_MS = 3000;
const SLACK_MS = 1500;

let fixture;
const spawned = [];

before(async () => {
  if (skip) return;
  fixture = await new Fixture().start();
});

after(async () => {
  for (const s of spawned) {
    try { process.kill(-s.pid, 'SIGKILL'); } catch { /* gone */ }
  }
  if (fixture) {
    try { process.kill(fixture.pid, 'SIGCONT'); } catch { /* gone */ }
    await fixture.stop();
  }
});

// ---- helpers ---------------------------------------------------------------

// Pids whose process group is `pgid` (the server runs detached, so it leads
// its own group; its helpers stay in it, launched apps start a session).
function groupMembers(pgid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(`${name} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))} ${fields[0]}`);
    } catch { /* exited meanwhile */ }
  }
  return out;
}

// The live process's children as "pid state" strings.
function children(pid) {
  const out = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let list = '';
    try { list = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8'); } catch { continue; }
    for (const c of list.trim().split(/\s+/).filter(Boolean)) {
      try {
        const stat = readFileSync(`/proc/${c}/stat`, 'utf8');
        out.push(`${c} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]}`);
      } catch { /* reaped meanwhile */ }
    }
  }
  return out;
}

// Processes whose command line or environment mentions `dir` (a desktop's
// daemons and the apps it started), after a moment for the last to exit.
async function processesOf(dir) {
  let out = [];
  for (let i = 0; i < 10; i++) {
    out = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      try {
        const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
        const env = readFileSync(`/proc/${name}/environ`, 'utf8');
        if (cmd.includes(dir) || env.includes(dir)) out.push(`${name} ${cmd.replace(/\0/g, ' ').trim()}`);
      } catch { /* exited meanwhile */ }
    }
    if (!out.length) break;
    await sleep(200);
  }
  return out;
}

// Every file below `dir` whose name says it is a temporary file.
function tempFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).filter((n) => /\.tmp|~$/.test(String(n)));
}

// cua-mcp on a bare pipe, in its own process group.
class Server {
  constructor({ env = serverEnv(), args = ['--trust-apps'] } = {}) {
    this.env = env;
    this.p = spawn(SERVER, ['--data-dir', DATA_DIR, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    spawned.push(this.p);
    this.pid = this.p.pid;
    this.stderr = '';
    this.notes = [];
    this.pending = new Map();
    this.nextId = 1;
    this.onRequest = null;
    let buf = '';
    this.p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        this.handle(m);
      }
    });
    this.p.stdout.on('error', () => {});
    this.p.stderr.on('data', (d) => { this.stderr += d; });
    this.p.stdin.on('error', () => {}); // EPIPE once it exited
    this.exited = once(this.p, 'exit').then(([code, signal]) => ({ code, signal, at: performance.now() }));
  }

  handle(m) {
    if (m.method && m.id !== undefined) { // a request from the server
      const reply = this.onRequest?.(m) ?? { error: { code: -32601, message: 'Method not found' } };
      this.send({ jsonrpc: '2.0', id: m.id, ...reply });
    } else if (m.method) {
      this.notes.push(m);
    } else {
      this.pending.get(m.id)?.(m);
      this.pending.delete(m.id);
    }
  }

  send(m) { this.p.stdin.write(`${JSON.stringify(m)}\n`); }

  request(method, params) {
    const id = this.nextId++;
    const answered = new Promise((r) => this.pending.set(id, r));
    this.send({ jsonrpc: '2.0', id, method, params });
    return answered;
  }

  async init(capabilities = {}) {
    const r = await this.request('initialize', { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'faults', version: '0' } });
    assert.ok(r.result, JSON.stringify(r));
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return this;
  }

  call(name, args) { return this.request('tools/call', { name, arguments: args }); }

  // Observes the fixture until it is there (it registers a moment after
  // its window shows).
  async observeFixture() {
    const end = Date.now() + 15000;
    for (;;) {
      const r = await this.call('get_app_state', { app: APP });
      if (!r.result?.isError || Date.now() > end) return r;
      await sleep(300);
    }
  }
}

// After the server exited: nothing of its own left, nothing half-written.
function assertCleanExit(s, { code = 0 } = {}) {
  return s.exited.then((e) => {
    assert.equal(e.signal, null, `killed by ${e.signal}; stderr: ${s.stderr}`);
    assert.equal(e.code, code, `exit status; stderr: ${s.stderr}`);
    assert.doesNotMatch(s.stderr, /Segmentation|Aborted|core dumped|AddressSanitizer/);
    assert.deepEqual(groupMembers(s.pid), [], 'no helper left in the server\'s process group');
    for (const dir of [s.env.XDG_STATE_HOME, s.env.XDG_CONFIG_HOME]) assert.deepEqual(tempFiles(dir), [], `temporary files in ${dir}`);
    const approvals = join(s.env.XDG_STATE_HOME, 'cua', 'approvals.json');
    if (existsSync(approvals)) {
      assert.equal(JSON.parse(readFileSync(approvals, 'utf8')).version, 1);
      assert.equal(statSync(approvals).mode & 0o777, 0o600);
    }
    return e;
  });
}

// Starts a server, has the fixture approved "always" (so that the approvals
// file exists) and observed once (ids, usage store), then stops the
// fixture so that the next call on it hangs until libcua's deadline.
async function serverWithSlowCall() {
  const s = new Server({ args: [] });
  s.onRequest = (m) => (m.method === 'elicitation/create' ? { result: { action: 'accept', content: { scope: 'always' } } } : undefined);
  await s.init({ elicitation: {} });
  const first = await s.observeFixture();
  assert.equal(first.result.isError ?? false, false, JSON.stringify(first));
  assert.ok(existsSync(join(s.env.XDG_STATE_HOME, 'cua', 'approvals.json')));
  // a normal call with a screenshot leaves no zombie helper behind
  await s.call('get_app_state', { app: APP });
  assert.deepEqual(children(s.pid).filter((c) => c.endsWith(' Z')), [], 'zombie children');
  process.kill(fixture.pid, 'SIGSTOP');
  const slow = s.call('get_app_state', { app: APP, disable_diff: true });
  await sleep(300); // well inside the call: the walk waits for the app
  return { s, slow };
}

function resumeFixture() {
  process.kill(fixture.pid, 'SIGCONT');
}

async function fixtureAlive() {
  resumeFixture();
  const mark = fixture.mark;
  fixture.send('title still-here');
  await fixture.waitLine('done title', 5000, mark);
}

// ---- B: stdio faults in the middle of a call -------------------------------

test('how long a call on a stopped app takes (the window the faults below hit)', { skip }, async (t) => {
  const { s, slow } = await serverWithSlowCall();
  const t0 = performance.now();
  const r = await slow;
  const ms = performance.now() - t0 + 300;
  resumeFixture();
  t.diagnostic(`get_app_state on a stopped app: ${Math.round(ms)} ms, ${r.result?.isError ? 'error' : 'ok'}: ${r.result?.content?.[0]?.text?.slice(0, 120)}`);
  assert.ok(ms > 600, 'the call is slow enough to be interrupted');
  s.p.stdin.end();
  await assertCleanExit(s);
});

test('stdin EOF during get_app_state: the call is still answered, exit 0 within the drain bound', { skip }, async (t) => {
  const { s, slow } = await serverWithSlowCall();
  const t0 = performance.now();
  s.p.stdin.end();
  const [reply, e] = await Promise.all([Promise.race([slow, s.exited.then(() => null)]), assertCleanExit(s)]);
  resumeFixture();
  const ms = e.at - t0;
  t.diagnostic(`stdin EOF mid-call: exit 0 after ${Math.round(ms)} ms (bound ${2 * SHUTDOWN_WAIT_MS + SLACK_MS} ms); answered: ${Boolean(reply)}`);
  assert.ok(ms < 2 * SHUTDOWN_WAIT_MS + SLACK_MS, `exit took ${ms} ms`);
  await fixtureAlive();
});

for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${sig} during get_app_state: exit 0 within the cancel bound, no response for the cancelled call`, { skip }, async (t) => {
    const { s, slow } = await serverWithSlowCall();
    let answered = false;
    slow.then(() => { answered = true; });
    const t0 = performance.now();
    s.p.kill(sig);
    const e = await assertCleanExit(s);
    resumeFixture();
    const ms = e.at - t0;
    t.diagnostic(`${sig} mid-call: exit 0 after ${Math.round(ms)} ms (bound ${SHUTDOWN_WAIT_MS + SLACK_MS} ms); answered: ${answered}`);
    assert.ok(ms < SHUTDOWN_WAIT_MS + SLACK_MS, `exit took ${ms} ms`);
    await fixtureAlive();
  });
}

test('the stdout reader goes away during get_app_state (EPIPE, SIGPIPE ignored): exit 0, bounded', { skip }, async (t) => {
  const { s } = await serverWithSlowCall();
  const t0 = performance.now();
  s.p.stdout.destroy(); // closes our read end: the server's next write fails
  const e = await assertCleanExit(s);
  resumeFixture();
  const ms = e.at - t0;
  t.diagnostic(`stdout closed mid-call: exit 0 after ${Math.round(ms)} ms (bound ${2 * SHUTDOWN_WAIT_MS + SLACK_MS} ms: the call's own deadline, then the cancel bound)`);
  assert.match(s.stderr, /stdout closed/);
  assert.ok(ms < 2 * SHUTDOWN_WAIT_MS + SLACK_MS, `exit took ${ms} ms`);
  await fixtureAlive();
});

test('SIGTERM during an action (a click on the stopped fixture): exit 0, bounded, the app keeps running', { skip }, async (t) => {
  const s = new Server();
  await s.init();
  const r = await s.observeFixture();
  const alpha = /\n\t*(\d+) button Alpha/.exec(r.result.content[0].text)?.[1];
  assert.ok(alpha, 'the fixture has the Alpha button');
  process.kill(fixture.pid, 'SIGSTOP');
  const mark = fixture.mark;
  let answered = false;
  s.call('click', { app: APP, element_index: alpha }).then(() => { answered = true; });
  await sleep(300); // finding the element again waits for the app
  const t0 = performance.now();
  s.p.kill('SIGTERM');
  const e = await assertCleanExit(s);
  const ms = e.at - t0;
  await fixtureAlive();
  const clicked = fixture.lines.slice(mark).some((l) => l.startsWith('clicked Alpha'));
  t.diagnostic(`SIGTERM during click: exit 0 after ${Math.round(ms)} ms (bound ${SHUTDOWN_WAIT_MS + SLACK_MS} ms); answered: ${answered}; clicked once the app resumed: ${clicked}`);
  assert.equal(answered, false, 'a cancelled call gets no response');
  assert.ok(ms < SHUTDOWN_WAIT_MS + SLACK_MS, `exit took ${ms} ms`);
});

test('--headless: SIGTERM while get_app_state is launching an app: exit 0, the private desktop and its apps are gone', { skip }, async (t) => {
  // what an MCP host passes: no desktop variables; a runtime directory
  // without a session bus, so that no desktop of the user is found
  const env = { PATH: process.env.PATH, XDG_RUNTIME_DIR: tempDir('runtime'), XDG_CONFIG_HOME: tempDir('config'), XDG_STATE_HOME: tempDir('state'), CUA_LOG_LEVEL: 'info' };
  const s = new Server({ env, args: ['--headless', '--trust-apps'] });
  await s.init();
  const dir = /headless desktop on :\d+ \(([^)]+)\)/.exec(s.stderr)?.[1];
  assert.ok(dir && existsSync(dir), s.stderr);
  let answered = false;
  s.call('get_app_state', { app: 'gtk3-widget-factory' }).then(() => { answered = true; });
  await sleep(500); // launching: the app is starting, the call waits for it
  const t0 = performance.now();
  s.p.kill('SIGTERM');
  const e = await assertCleanExit(s);
  const ms = e.at - t0;
  assert.equal(existsSync(dir), false, `the desktop in ${dir} was not stopped`);
  assert.deepEqual(await processesOf(dir), [], 'no daemon or app of the private desktop is left');
  t.diagnostic(`--headless, SIGTERM while launching: exit 0 with the desktop stopped after ${Math.round(ms)} ms (bound ${SHUTDOWN_WAIT_MS + 5000 + SLACK_MS} ms); answered: ${answered}`);
  assert.ok(ms < SHUTDOWN_WAIT_MS + 5000 + SLACK_MS, `exit took ${ms} ms`);
});

// ---- A: persisting state on a full disk or an unwritable directory --------

// (ASan, in a sanitizer build, accepts a module preloaded before it only
// when told so)
const preload = (prefix, ops, errno, extra = {}) => ({
  LD_PRELOAD: FAULTINJECT, CUA_FAULT_PREFIX: prefix, CUA_FAULT_OPS: ops, CUA_FAULT_ERRNO: errno,
  ASAN_OPTIONS: [process.env.ASAN_OPTIONS, 'verify_asan_link_order=0'].filter(Boolean).join(':'),
  ...extra,
});

const DISK_FAULTS = [
  ['write', 'ENOSPC', 'No space left on device'],
  ['fsync', 'EIO', 'Input/output error'],
  ['rename', 'EROFS', 'Read-only file system'],
  ['open', 'EACCES', 'Permission denied'],
];

for (const [ops, errno, message] of DISK_FAULTS) {
  test(`cua-mcp: an "always" approval that cannot be saved (${ops}: ${errno}) holds for the session, with a warning; the old file is kept`, { skip: skipDisk }, async (t) => {
    const env = serverEnv();
    const dir = join(env.XDG_STATE_HOME, 'cua');
    const path = join(dir, 'approvals.json');
    mkdirSync(dir, { mode: 0o700 });
    const old = `${JSON.stringify({ version: 1, apps: { 'org.example.Other': { scope: 'always', granted_at: '2026-01-01T00:00:00Z' } } }, null, 2)}\n`;
    writeFileSync(path, old, { mode: 0o600 });
    const s = new Server({ env: { ...env, ...preload(dir, ops, errno) }, args: [] });
    s.env = env;
    let asked = 0;
    s.onRequest = (m) => {
      if (m.method !== 'elicitation/create') return undefined;
      asked++;
      return { result: { action: 'accept', content: { scope: 'always' } } };
    };
    await s.init({ elicitation: {} });
    await s.request('logging/setLevel', { level: 'warning' });
    const t0 = performance.now();
    const r = await s.observeFixture();
    const ms = performance.now() - t0;
    assert.equal(r.result.isError ?? false, false, 'the call goes on (docs/safety.md §3.2)');
    // the warning: on stderr and to the host, naming the path, the cause and the remedy
    const want = new RegExp(`could not save the approval of ${APP} in ${path} \\(${message}\\); it holds for this session only\\. .*cua approve ${APP}`);
    assert.match(s.stderr, want);
    assert.ok(s.notes.some((n) => n.method === 'notifications/message' && want.test(String(n.params.data))), 'logged to the host');
    // the session approval holds: not asked again
    assert.equal((await s.call('get_app_state', { app: APP })).result.isError ?? false, false);
    assert.equal(asked, 1);
    assert.equal(readFileSync(path, 'utf8'), old, 'the old store is intact');
    // the store's lock file stays beside it (docs/concurrency.md), unless
    // the fault kept it from being created
    assert.deepEqual(readdirSync(dir).filter((f) => f !== 'approvals.json.lock'), ['approvals.json'], 'no temporary file');
    t.diagnostic(`approval not saved (${ops}: ${errno}): warned, call answered in ${Math.round(ms)} ms`);
    s.p.stdin.end();
    await assertCleanExit(s);
  });
}

test('cua-mcp: approvals directory cannot be created (mkdir: EROFS): warned, session approval holds', { skip: skipDisk }, async () => {
  const env = serverEnv();
  const dir = join(env.XDG_STATE_HOME, 'cua');
  const s = new Server({ env: { ...env, ...preload(dir, 'mkdir', 'EROFS') }, args: [] });
  s.env = env;
  s.onRequest = (m) => (m.method === 'elicitation/create' ? { result: { action: 'accept', content: { scope: 'always' } } } : undefined);
  await s.init({ elicitation: {} });
  assert.equal((await s.observeFixture()).result.isError ?? false, false);
  assert.match(s.stderr, new RegExp(`could not save the approval of ${APP} in ${join(dir, 'approvals.json')} \\(Read-only file system\\)`));
  assert.equal(existsSync(dir), false);
  s.p.stdin.end();
  await assertCleanExit(s);
});

test('cua approve on a full disk (short write, then ENOSPC): exit 1, the error says what and where; the old file is kept', { skip: skipDisk }, (t) => {
  const state = tempDir('state');
  const env = { ...process.env, XDG_STATE_HOME: state };
  const path = join(state, 'cua', 'approvals.json');
  assert.equal(spawnSync(CUA_CLI, ['approve', 'org.example.First'], { env }).status, 0);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(join(state, 'cua')).mode & 0o777, 0o700);
  const old = readFileSync(path, 'utf8');
  for (const [ops, errno, message, space] of [['write', 'ENOSPC', 'No space left on device', '16'], ...DISK_FAULTS]) {
    const t0 = performance.now();
    const r = spawnSync(CUA_CLI, ['approve', 'org.example.Second'], { env: { ...env, ...preload(join(state, 'cua'), ops, errno, space ? { CUA_FAULT_SPACE: space } : {}) }, encoding: 'utf8' });
    const ms = performance.now() - t0;
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `cua approve: cannot write ${path}: ${message}; org.example.Second is not approved (the file is unchanged). Free some space or make the directory writable (or set XDG_STATE_HOME), then try again.\n`);
    assert.equal(readFileSync(path, 'utf8'), old);
    assert.deepEqual(readdirSync(join(state, 'cua')).sort(), ['approvals.json', 'approvals.json.lock']);
    t.diagnostic(`cua approve, ${ops}${space ? ` after ${space} bytes` : ''}: ${errno}: exit 1 with the error after ${Math.round(ms)} ms`);
  }
});

test('cua state: a session state that cannot be saved keeps the old one and says so (exit 1: the printed ids are not remembered)', { skip: skipDisk }, (t) => {
  const runtime = tempDir('runtime');
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, CUA_BACKEND: `recorded:${RECORDING}` };
  const dir = join(runtime, 'cua');
  const path = join(dir, 'session.json');
  assert.equal(spawnSync(CUA_CLI, ['state', 'gedit'], { env }).status, 0);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const old = readFileSync(path, 'utf8');
  for (const [ops, errno, message, space] of [['write', 'ENOSPC', 'No space left on device', '100'], ...DISK_FAULTS]) {
    const t0 = performance.now();
    const r = spawnSync(CUA_CLI, ['state', 'gedit', '--diff'], { env: { ...env, ...preload(dir, ops, errno, space ? { CUA_FAULT_SPACE: space } : {}) }, encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (ops === 'open') { // the lock file cannot be created: nothing is observed
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `cua: cannot lock the state in ${dir}: ${message}. cua keeps its element ids there; make it writable (or set XDG_RUNTIME_DIR to a writable directory).\n`);
    } else {
      assert.equal(r.status, 1, 'the printed ids are not remembered');
      assert.match(r.stdout, /^App=org\.gnome\.gedit/, 'the observation is printed');
      assert.equal(r.stderr, `cua: cannot save the state to ${path}: ${message}. The old state is kept, so element ids first printed by this command are not remembered. Free some space or make ${dir} writable (or set XDG_RUNTIME_DIR).\n`);
    }
    assert.equal(readFileSync(path, 'utf8'), old, 'the old state is intact');
    assert.deepEqual(readdirSync(dir).sort(), ['session.json', 'session.lock']);
    t.diagnostic(`cua state, ${ops}${space ? ` after ${space} bytes` : ''}: ${errno}: exit 1 with the error after ${Math.round(ms)} ms`);
  }
  // and a runtime directory that cannot be created
  const missing = join(tempDir('runtime'), 'gone');
  const m = spawnSync(CUA_CLI, ['state', 'gedit'], { env: { ...env, XDG_RUNTIME_DIR: missing, ...preload(missing, 'mkdir', 'EROFS') }, encoding: 'utf8' });
  assert.equal(m.status, 1);
  assert.match(m.stderr, new RegExp(`cua: cannot create ${missing}: Read-only file system\\.`));
});

test('cua click on the fixture when the state cannot be saved: the click happens, exit 0, a warning; a full usage store only warns, once', { skip: skipDisk }, async (t) => {
  const runtime = tempDir('runtime');
  const state = tempDir('state');
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: state };
  delete env.CUA_BACKEND;
  let r;
  for (let i = 0; i < 30; i++) {
    r = spawnSync(CUA_CLI, ['state', APP], { env, encoding: 'utf8' });
    if (r.status === 0) break;
    await sleep(300);
  }
  assert.equal(r.status, 0, r.stderr);
  const alpha = /\n\t*(\d+) button Alpha/.exec(r.stdout)?.[1];
  assert.ok(alpha);
  const usage = join(state, 'libcua', 'usage.json');
  assert.equal(statSync(usage).mode & 0o777, 0o600);
  assert.equal(statSync(join(state, 'libcua')).mode & 0o777, 0o700);
  const dir = join(runtime, 'cua');
  const old = readFileSync(join(dir, 'session.json'), 'utf8');

  const mark = fixture.mark;
  let t0 = performance.now();
  const c = spawnSync(CUA_CLI, ['click', APP, alpha], { env: { ...env, ...preload(dir, 'rename', 'ENOSPC') }, encoding: 'utf8' });
  let ms = performance.now() - t0;
  assert.equal(c.status, 0, `the click was carried out: ${c.stderr}`);
  assert.match(c.stdout, /^Action completed/);
  assert.match(c.stderr, /cua: cannot save the state to .*session\.json: No space left on device\. The old state is kept/);
  await fixture.waitLine('clicked Alpha', 5000, mark);
  assert.equal(readFileSync(join(dir, 'session.json'), 'utf8'), old);
  assert.deepEqual(readdirSync(dir).sort(), ['session.json', 'session.lock']);
  t.diagnostic(`cua click, state rename: ENOSPC: exit 0 with the warning after ${Math.round(ms)} ms`);

  const before = readFileSync(usage, 'utf8');
  t0 = performance.now();
  const u = spawnSync(CUA_CLI, ['state', APP], { env: { ...env, ...preload(join(state, 'libcua'), 'write', 'ENOSPC') }, encoding: 'utf8' });
  ms = performance.now() - t0;
  assert.equal(u.status, 0, `the usage store never fails an observation: ${u.stderr}`);
  const warnings = u.stderr.match(/cannot update \S*usage\.json: No space left on device \(the old file is kept; list_apps may miss recent use\)\. Free some space/g) ?? [];
  assert.equal(warnings.length, 1, u.stderr);
  assert.equal(readFileSync(usage, 'utf8'), before);
  assert.deepEqual(readdirSync(join(state, 'libcua')).sort(), ['usage.json', 'usage.json.lock']);
  t.diagnostic(`cua state, usage store write: ENOSPC: exit 0 with one warning after ${Math.round(ms)} ms`);
});

test('the running desktop\'s files: a 0700 directory, state files 0600, no temporary file', { skip }, () => {
  const dir = process.env.CUA_DESKTOP_DIR;
  assert.ok(dir, 'cua desktop run sets CUA_DESKTOP_DIR');
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  for (const name of ['env', 'pids', 'supervisor.pid']) assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600, name);
  assert.deepEqual(readdirSync(dir).filter((n) => /\.tmp/.test(n)), []);
});

test('cua desktop start with a full runtime directory: a clear error, nothing left running or on disk', { skip: skipDisk }, async (t) => {
  const runtime = tempDir('runtime');
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, ...preload(join(runtime, 'cua'), 'write', 'ENOSPC') };
  delete env.CUA_DESKTOP_DIR;
  const t0 = performance.now();
  const r = spawnSync(CUA_CLI, ['desktop', 'start'], { env, encoding: 'utf8', timeout: 60000 });
  const ms = performance.now() - t0;
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /cannot write to .*\/cua\/desktop-\d+: No space left on device \(free some space, or set XDG_RUNTIME_DIR to a writable directory\)/);
  assert.deepEqual(readdirSync(join(runtime, 'cua')), [], 'the desktop directory is removed');
  assert.deepEqual(await processesOf(join(runtime, 'cua')), [], 'no daemon of that desktop is left');
  t.diagnostic(`cua desktop start, write: ENOSPC: exit 1 with the error after ${Math.round(ms)} ms`);
});
