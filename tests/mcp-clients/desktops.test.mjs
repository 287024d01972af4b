// Many desktops on one machine stay apart. Three private desktops at once
// (two X11, one headless sway), each with the GTK3 fixture and its own
// `cua-mcp --listen`, driven at the same time through the official SDK's
// Streamable HTTP client. Nothing of one reaches another: state
// directories, server registries and tokens are disjoint; an "Always"
// approval in one is not one in the others; text typed and values set at
// the same time in each land only in that desktop's app and read back only
// through its own server; element ids act on the app of their own desktop;
// screenshots show each desktop's own window and do not change when
// another desktop does; `cua stop` in one stops only that one's server.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CUA_CLI, FIXTURE, text, stateBody, idOf } from './lib/harness.mjs';
import { startDesktops, connectDesktop } from './lib/desktops.mjs';

const run = promisify(execFile);
const skip = !FIXTURE && 'needs the GTK3 fixture (FIXTURE_GTK3)';
const APP = 'fixture-gtk3';
const STOPPED = /^Computer Use server error -10012: This application session has been explicitly stopped by the user/;

let desks = [];
const clients = [];
const last = new Map(); // desktop name -> its latest client
const asked = new Map(); // desktop name -> elicitations its clients got

// A client of desktop `d` that answers app approvals with `answer`.
async function client(d, answer, { ready = true } = {}) {
  const onElicit = async (req) => {
    asked.set(d.name, [...(asked.get(d.name) ?? []), req.params.message]);
    return answer;
  };
  const c = await connectDesktop(d, { onElicit, ready });
  clients.push(c);
  last.set(d.name, c);
  return c;
}

async function state(c, args = {}) {
  const r = await c.callTool({ name: 'get_app_state', arguments: { app: APP, disable_diff: true, ...args } });
  assert.equal(r.isError ?? false, false, text(r));
  return r;
}

async function call(c, name, args) {
  const r = await c.callTool({ name, arguments: { app: APP, ...args } });
  assert.equal(r.isError ?? false, false, `${name}: ${text(r)}`);
  return r;
}

const screenshot = (r) => r.content.find((x) => x.type === 'image')?.data;

before(async () => {
  if (skip) return;
  // A and B: X11 (Xvfb), C: headless sway
  desks = await startDesktops(3, {}, (i) => i === 2);
});

after(async () => {
  while (clients.length) await clients.pop().close().catch(() => {});
  const dirs = desks.map((d) => d.dir);
  await Promise.all(desks.map((d) => d.stop()));
  for (const dir of dirs) assert.equal(existsSync(dir), false, `${dir} is left behind`);
});

test('state directories, tokens and server registries are disjoint', { skip }, () => {
  const paths = desks.flatMap((d) => [d.dir, d.env.XDG_RUNTIME_DIR, d.env.XDG_CONFIG_HOME,
    d.env.XDG_STATE_HOME, d.env.XDG_DATA_HOME, d.env.XDG_CACHE_HOME, d.server.tokenFile]);
  assert.equal(new Set(paths).size, paths.length);
  // no desktop's directory is inside another's
  for (const a of desks)
    for (const b of desks)
      if (a !== b) for (const p of paths.slice(desks.indexOf(b) * 7, desks.indexOf(b) * 7 + 7))
        assert.ok(!p.startsWith(`${a.dir}/`), `${p} of ${b.name} is in ${a.dir} of ${a.name}`);
  assert.equal(new Set(desks.map((d) => d.server.token)).size, desks.length);
  assert.equal(new Set(desks.map((d) => d.server.url)).size, desks.length);
  // the sway desktop's DISPLAY is its Xwayland's: three X displays
  assert.match(desks[2].env.DISPLAY, /^:[0-9]+$/);
  assert.equal(new Set(desks.map((d) => d.env.DISPLAY)).size, desks.length);
});

test('a token of one desktop is refused by the others', { skip }, async () => {
  for (const [i, d] of desks.entries()) {
    const other = desks[(i + 1) % desks.length];
    const r = await fetch(d.server.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${other.server.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }),
    });
    assert.equal(r.status, 401, `${d.name} took ${other.name}'s token`);
  }
});

test('an "Always" approval in one desktop is not one in the others', { skip }, async () => {
  const [A, B, C] = desks;
  await client(A, { action: 'accept', content: { scope: 'always' } });
  assert.equal(asked.get('d0').length, 1);
  const approvals = join(A.env.XDG_STATE_HOME, 'cua', 'approvals.json');
  assert.match(readFileSync(approvals, 'utf8'), /fixture-gtk3/);
  // B and C know nothing of it: they ask, and a declined approval reads
  // nothing
  const b = await client(B, { action: 'decline' }, { ready: false });
  const rb = await b.callTool({ name: 'get_app_state', arguments: { app: APP } });
  assert.equal(rb.isError, true);
  assert.equal(stateBody(rb), null);
  assert.equal(asked.get('d1').length, 1);
  for (const d of [B, C]) assert.equal(existsSync(join(d.env.XDG_STATE_HOME, 'cua', 'approvals.json')), false);
  // a new session of A's server does not ask again; B's and C's ask
  await client(A, { action: 'decline' });
  assert.equal(asked.get('d0').length, 1);
  await client(B, { action: 'accept', content: { scope: 'session' } });
  await client(C, { action: 'accept', content: { scope: 'session' } });
  assert.equal(asked.get('d1').length, 2);
  assert.equal(asked.get('d2').length, 1);
});

// the last client of each desktop (approved) from here on
const cl = (i) => last.get(desks[i].name);

test('values set and text typed at the same time land in their own desktop only', { skip }, async () => {
  const marks = desks.map((d) => d.fixture.mark);
  await Promise.all(desks.map(async (d, i) => {
    const c = cl(i);
    const entry = idOf(stateBody(await state(c)), /^text field .*Name:, Value: /);
    await call(c, 'set_value', { element_index: entry, value: `value-of-${d.name}` });
    await d.fixture.waitLine(`entry value-of-${d.name}`, 10000, marks[i]);
    await call(c, 'click', { element_index: entry }); // focus, caret at the end
    await call(c, 'type_text', { text: ` typed-in-${d.name}` });
    await d.fixture.waitLine(`entry value-of-${d.name} typed-in-${d.name}`, 10000, marks[i]);
  }));
  for (const [i, d] of desks.entries()) {
    const seen = d.fixture.lines.slice(marks[i]).join('\n');
    for (const o of desks) if (o !== d) assert.ok(!seen.includes(`-${o.name}`), `${d.name}'s app got input meant for ${o.name}:\n${seen}`);
    // read back through its own server
    const body = stateBody(await state(cl(i)));
    assert.match(body, new RegExp(`text field .*Value: value-of-${d.name} typed-in-${d.name}`));
    for (const o of desks) if (o !== d) assert.ok(!body.includes(`-${o.name}`));
  }
});

test('an element id acts on the app of its own desktop', { skip }, async () => {
  const [A, B, C] = desks;
  const alpha = idOf(stateBody(await state(cl(0))), /^button Alpha/);
  const marks = desks.map((d) => d.fixture.mark);
  await call(cl(0), 'click', { element_index: alpha });
  await A.fixture.waitLine(/^clicked Alpha/, 5000, marks[0]);
  // the same number in B's and C's sessions names their own elements;
  // nothing happened there
  assert.equal(B.fixture.lines.length, marks[1]);
  assert.equal(C.fixture.lines.length, marks[2]);
});

test('screenshots show each desktop\'s own window and do not change with another desktop', { skip }, async () => {
  const [A, B] = desks;
  const before = await Promise.all([0, 1, 2].map(async (i) => screenshot(await state(cl(i)))));
  for (const s of before) assert.ok(s && s.length > 1000);
  // A, B and C show other text in their entries
  assert.notEqual(before[0], before[1]);
  assert.notEqual(before[0], before[2]);
  // a panel opens in A's window: A's picture changes, B's does not
  const mark = A.fixture.mark;
  A.fixture.send('sheet-open');
  await A.fixture.waitLine('done sheet-open', 5000, mark);
  const afterA = screenshot(await state(cl(0)));
  const afterB = screenshot(await state(cl(1)));
  assert.notEqual(afterA, before[0], 'A\'s screenshot shows its new panel');
  assert.equal(afterB, before[1], 'B\'s screenshot did not change');
  A.fixture.send('sheet-close');
  await A.fixture.waitLine('done sheet-close', 5000, mark);
  assert.equal(B.fixture.lines.some((l) => l.startsWith('done sheet')), false);
});

test('`cua stop` in one desktop stops only that desktop\'s server', { skip }, async () => {
  const [A] = desks;
  // each desktop's registry lists only its own server processes
  const registry = (d) => readdirSync(join(d.env.XDG_RUNTIME_DIR, 'cua-mcp')).filter((f) => /^\d+$/.test(f));
  const pids = desks.map(registry);
  for (const p of pids) assert.ok(p.length >= 1);
  assert.equal(new Set(pids.flat()).size, pids.flat().length);
  const { stdout } = await run(CUA_CLI, ['stop'], { env: A.env });
  assert.equal(stdout.trim().split('\n').length, pids[0].length, stdout);
  const ra = await cl(0).callTool({ name: 'get_app_state', arguments: { app: APP } });
  assert.equal(ra.isError, true);
  assert.match(text(ra), STOPPED);
  for (const i of [1, 2]) await state(cl(i));
});
