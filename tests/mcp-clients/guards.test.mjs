// The user guards (docs/safety.md §6, §9) with the official SDK client and
// the GTK3 fixture in a headless desktop (`cua desktop run`):
//  - a locked screen (a test screen saver on the desktop's session bus)
//    refuses observations and actions with the lock sentences and nothing
//    reaches the app; unlocked, everything works again;
//  - the person's own typing (tests/desktop/person.c: a second master
//    device, counted as a person's through CUA_TEST_PERSON_MASTER) refuses
//    the next action with E-USER-CHANGED until the app is observed again,
//    and ends an action it overlaps;
//  - the person's pointer motion ends a drag it overlaps (and nothing
//    else);
//  - `cua stop` (also through a `cua-mcp --listen` server) and the stop
//    hotkey refuse every tool with the explicit-stop sentence until the
//    host starts a new turn.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  HERE, CUA_CLI, DATA_DIR, serverEnv, connect, closeAll, protocolErrors, Fixture, FIXTURE, haveDesktop, text, stateBody,
  stateUntil, sleep, RECEIPT_LINE, idOf, onLines, startHttpServer,
} from './lib/harness.mjs';

const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const APP = 'fixture-gtk3';
const LOCKED_READ = 'Computer Use server error -10020: The screen is locked. Unlock it before reading accessibility text.';
const LOCKED_ACTION = 'Computer Use server error -10020: The screen is locked. Ask the user to unlock it manually before continuing.';
// core/lock.c trusts an answer this long
const LOCK_TTL_MS = 1000;
let fixture, client;

// The test screen saver (lib/screensaver.py): one line per GetActive.
class ScreenSaver {
  async start() {
    this.lines = [];
    this.proc = spawn('/usr/bin/python3', [join(HERE, 'lib', 'screensaver.py')],
      { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('screensaver.py did not start')), 10000);
      onLines(this.proc.stdout, (line) => {
        this.lines.push(line);
        if (line === 'ready') { clearTimeout(t); resolve(); }
      });
    });
    return this;
  }

  call(iface, method, ...args) {
    execFileSync('gdbus', ['call', '--session', '--dest', 'org.freedesktop.ScreenSaver',
      '--object-path', '/org/freedesktop/ScreenSaver', '--method', `${iface}.${method}`, ...args]);
  }

  async set(active) {
    this.call('org.freedesktop.ScreenSaver', 'SetActive', String(active));
    await sleep(LOCK_TTL_MS + 100); // past the cache of the last answer
  }

  lockAfter(n) { this.call('org.libcua.Test.ScreenSaver', 'LockAfter', String(n)); }

  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.stdin.end();
    await done;
  }
}

before(async () => {
  if (skip) return;
  fixture = await new Fixture().start();
  ({ client } = await connect({ args: ['--trust-apps'],
    env: serverEnv({ CUA_TEST_PERSON_MASTER: 'cua-test-person' }) }));
  await stateUntil(client, { app: APP });
});

after(async () => {
  await closeAll();
  await fixture?.stop();
  assert.deepEqual(protocolErrors, [], 'client-side protocol errors');
});


const call = (name, args = {}) => client.callTool({ name, arguments: { app: APP, ...args } });

async function entryFocused() {
  const r = await call('get_app_state', { disable_diff: true });
  assert.equal(r.isError ?? false, false, text(r));
  const entry = idOf(stateBody(r), /^text field .*Name:, Value: /);
  let mark = fixture.mark;
  assert.equal(text(await call('set_value', { element_index: entry, value: 'start' })).split('\n')[1], RECEIPT_LINE);
  await fixture.waitLine(/^entry start$/, 5000, mark);
  mark = fixture.mark;
  const c = await call('click', { element_index: entry });
  assert.equal(c.isError ?? false, false, text(c));
  return entry;
}

test('a locked screen refuses reads and actions with the lock sentences; unlocked, both work again', { skip }, async () => {
  const saver = await new ScreenSaver().start();
  try {
    const entry = await entryFocused();
    await saver.set(true);

    const r = await call('get_app_state');
    assert.equal(r.isError, true);
    assert.equal(text(r), LOCKED_READ);
    assert.equal(r.structuredContent.error.id, 'E-SCREEN-LOCKED');
    assert.equal(r.structuredContent.error.code, -10020);
    assert.equal(r.content.length, 1, 'no screenshot while locked');

    const mark = fixture.mark;
    for (const [tool, args] of [['type_text', { text: 'locked' }], ['press_key', { key: 'BackSpace' }],
      ['click', { element_index: entry }], ['set_value', { element_index: entry, value: 'locked' }]]) {
      const a = await call(tool, args);
      assert.equal(a.isError, true, tool);
      assert.equal(text(a), LOCKED_ACTION, tool);
      assert.equal(a.structuredContent.error.id, 'E-SCREEN-LOCKED', tool);
    }
    const seq = await call('sequence', { steps: [{ tool: 'press_key', arguments: { key: 'a' } }] });
    assert.equal(seq.isError, true);
    assert.match(text(seq), /The screen is locked\. Ask the user to unlock it manually before continuing\./);
    assert.equal(seq.structuredContent.state, null, 'no observation after a lock');
    await sleep(300);
    assert.deepEqual(fixture.lines.slice(mark), [], 'nothing reached the app while locked');

    await saver.set(false);
    const ok = await call('get_app_state');
    assert.equal(ok.isError ?? false, false, text(ok));
    const m2 = fixture.mark;
    const t = await call('type_text', { text: ' unlocked' });
    assert.equal(t.isError ?? false, false, text(t));
    await fixture.waitLine(/^entry start unlocked$/, 5000, m2);
  } finally {
    await saver.stop();
  }
});

test('a lock that starts while an action runs ends it with the lock sentence', { skip }, async () => {
  const saver = await new ScreenSaver().start();
  try {
    await entryFocused();
    await sleep(LOCK_TTL_MS + 100);
    const asked = saver.lines.length;
    // the action's first question is answered "unlocked", every later one
    // "locked"
    saver.lockAfter(1);
    const mark = fixture.mark;
    const a = await call('type_text', { text: ' midway' });
    assert.equal(a.isError, true, text(a));
    assert.equal(text(a), LOCKED_ACTION);
    assert.deepEqual(saver.lines.slice(asked, asked + 2), ['get-active 0', 'get-active 1'],
      'asked before the action (unlocked) and at its end (locked)');
    // the text was sent before the lock: the model is told it may have
    // been typed only in part, and the app shows what it got
    await fixture.waitLine(/^entry .*midway/, 5000, mark);
    const r = await call('get_app_state');
    assert.equal(text(r), LOCKED_READ);
    await saver.set(false);
    const ok = await call('get_app_state');
    assert.equal(ok.isError ?? false, false, text(ok));
  } finally {
    await saver.stop();
  }
});

const PERSON = process.env.PERSON;
const skipPerson = skip || (!PERSON && 'needs the person helper (PERSON)');
const CHANGED = "Computer Use server error -10016: The user changed 'fixture-gtk3'. Re-query the latest state with `get_app_state` before sending more actions.";
const STOPPED = "Computer Use server error -10012: This application session has been explicitly stopped by the user for this turn. Stop your work and send a final message noting they stopped the session and you're ready to continue if they want you to. Computer Use can be used again in the next assistant turn.";

// The person (tests/desktop/person.c): commands on stdin, "done" after each.
class Person {
  async start() {
    this.proc = spawn(PERSON, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = [];
    this.waiters = [];
    let buf = '';
    this.proc.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const w = this.waiters.shift();
        if (w) w(line); else this.lines.push(line);
      }
    });
    assert.equal(await this.next(), 'ready');
    return this;
  }

  next() {
    if (this.lines.length) return Promise.resolve(this.lines.shift());
    return new Promise((r) => this.waiters.push(r));
  }

  async do(cmd) {
    this.proc.stdin.write(`${cmd}\n`);
    assert.equal(await this.next(), 'done');
  }

  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.stdin.end();
    await done;
  }
}

test('the person typing in the app refuses the next action until the app is observed again', { skip: skipPerson }, async () => {
  const person = await new Person().start();
  try {
    await entryFocused();
    let r = await call('get_app_state');
    assert.equal(r.isError ?? false, false, text(r));
    await person.do('follow');
    let mark = fixture.mark;
    await person.do('type p');
    await fixture.waitLine(/^entry .*p/, 5000, mark);
    mark = fixture.mark;
    for (let i = 0; i < 2; i++) {
      const a = await call('type_text', { text: 'agent' });
      assert.equal(a.isError, true, text(a));
      assert.equal(text(a), CHANGED);
      assert.equal(a.structuredContent.error.id, 'E-USER-CHANGED');
    }
    await sleep(200);
    assert.deepEqual(fixture.lines.slice(mark), [], 'the refused actions sent nothing');
    r = await call('get_app_state');
    assert.equal(r.isError ?? false, false, text(r));
    assert.match(stateBody(r), /Value: [^\n]*p/, 'the observation shows what the person typed');
    const a = await call('type_text', { text: ' agent' });
    assert.equal(a.isError ?? false, false, text(a));
    await fixture.waitLine(/^entry .* agent/, 5000, mark);
  } finally {
    await person.stop();
  }
});

test('the person typing while the agent acts: every overlapping action is told (E-USER-CHANGED)', { skip: skipPerson }, async () => {
  const person = await new Person().start();
  try {
    await entryFocused();
    await person.do('follow');
    const r = await call('get_app_state');
    assert.equal(r.isError ?? false, false, text(r));
    // the person types for about 2 s while the agent keeps acting
    const burst = person.do('burst q 200 10');
    let told = 0, ok = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < 1500) {
      const a = await call('press_key', { key: 'x x x x x x x x x x' });
      if (a.isError) {
        assert.equal(text(a), CHANGED);
        told++;
      } else {
        ok++;
      }
    }
    await burst;
    assert.equal(ok, 0, 'no action succeeded while the person typed');
    assert.ok(told > 0);
    const s = await call('get_app_state');
    assert.equal(s.isError ?? false, false, text(s));
  } finally {
    await person.stop();
  }
});

test('the person moving their pointer during a drag ends it (E-USER-CHANGED); their motion between actions and during other actions refuses nothing', { skip: skipPerson }, async () => {
  const person = await new Person().start();
  try {
    const r = await call('get_app_state', { disable_diff: true });
    assert.equal(r.isError ?? false, false, text(r));
    const { elements, screenshot } = r.structuredContent;
    const canvas = elements.find((e) => e.role === 'canvas');
    const ppp = screenshot.pixels_per_point;
    const cx = (canvas.frame.x + 10) * ppp, cy = (canvas.frame.y + 10) * ppp;
    const drag = () => call('drag', { from_x: cx, from_y: cy, to_x: cx + 60 * ppp, to_y: cy + 30 * ppp });
    // motion between actions: the next drag goes through
    await person.do('wiggle 20 5');
    let mark = fixture.mark;
    let d = await drag();
    assert.equal(d.isError ?? false, false, text(d));
    await fixture.waitLine(/^canvas release 1 /, 5000, mark);
    // the person moves for about 3 s: a key press meanwhile goes through,
    // every drag meanwhile is told. A drag can take less time than the
    // gaps between the wiggle's motions (5 ms and more), so the person
    // also moves at each press of the core pointer, before the drag's
    // next event (person.c, nudge): every drag overlaps a motion.
    await person.do('nudge on');
    const wiggle = person.do('wiggle 600 5');
    await sleep(100);
    const k = await call('press_key', { key: 'End' });
    assert.equal(k.isError ?? false, false, `motion does not stop a key press: ${text(k)}`);
    let told = 0, ok = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < 1500) {
      d = await drag();
      if (d.isError) {
        assert.equal(text(d), CHANGED);
        assert.equal(d.structuredContent.error.id, 'E-USER-CHANGED');
        told++;
        // observed again, the app can be acted on
        const s = await call('get_app_state');
        assert.equal(s.isError ?? false, false, text(s));
      } else {
        ok++;
      }
    }
    await wiggle;
    await person.do('nudge off');
    assert.equal(ok, 0, 'no drag succeeded while the person moved their pointer');
    assert.ok(told > 0);
    // once the person stops moving, a drag works again
    mark = fixture.mark;
    d = await drag();
    assert.equal(d.isError ?? false, false, text(d));
    await fixture.waitLine(/^canvas release 1 /, 5000, mark);
  } finally {
    await person.stop();
  }
});

test('cua stop reaches a cua-mcp --listen server and each of its sessions (by display and by the server\'s pid)', { skip }, async () => {
  const env = serverEnv();
  const server = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--trust-apps'], env });
  const meta = (turn) => ({ _meta: { 'libcua/turn_id': turn } });
  const h = new Client({ name: 'http-stop', version: '0.0.1' });
  await h.connect(server.transport());
  try {
    const hcall = (name, args, turn) => h.callTool({ name, arguments: { app: APP, ...args }, ...meta(turn) });
    let r = await hcall('get_app_state', {}, 'h-1');
    assert.equal(r.isError ?? false, false, text(r));
    // by display: the --listen server is listed once, its sessions are not
    let out = execFileSync(CUA_CLI, ['stop'], { encoding: 'utf8' });
    assert.match(out, new RegExp(`^stopped cua-mcp \\(pid ${server.proc.pid}, display :\\d+\\)$`, 'm'));
    await sleep(300);
    r = await hcall('press_key', { key: 'End' }, 'h-1');
    assert.equal(text(r), STOPPED);
    assert.equal(r.structuredContent.error.id, 'E-USER-STOPPED');
    // the server itself lives on; a new turn works again
    assert.equal(server.proc.exitCode, null, 'SIGUSR1 did not end the --listen server');
    r = await hcall('get_app_state', {}, 'h-2');
    assert.equal(r.isError ?? false, false, text(r));
    // by the server's pid
    out = execFileSync(CUA_CLI, ['stop', '--pid', String(server.proc.pid)], { encoding: 'utf8' });
    assert.match(out, /^stopped cua-mcp/m);
    await sleep(300);
    r = await hcall('get_app_state', {}, 'h-2');
    assert.equal(text(r), STOPPED);
    r = await hcall('get_app_state', {}, 'h-3');
    assert.equal(r.isError ?? false, false, text(r));
  } finally {
    await h.close();
    await server.stop();
  }
  // the stdio server of this file was stopped too by the first `cua stop`:
  // its next turn lifts it
  const r = await client.callTool({ name: 'get_app_state', arguments: { app: APP }, _meta: { 'libcua/turn_id': 'after-http' } });
  assert.equal(r.isError ?? false, false, text(r));
});

test('cua stop refuses every tool with the explicit-stop sentence until a new turn', { skip }, async () => {
  await entryFocused();
  const meta = (turn) => ({ _meta: { 'libcua/turn_id': turn } });
  let r = await client.callTool({ name: 'get_app_state', arguments: { app: APP }, ...meta('turn-1') });
  assert.equal(r.isError ?? false, false, text(r));
  const out = execFileSync(CUA_CLI, ['stop'], { encoding: 'utf8' });
  assert.match(out, /^stopped cua-mcp \(pid \d+, display :\d+\)$/m);
  await sleep(200);
  const mark = fixture.mark;
  for (const [name, args] of [['get_app_state', {}], ['type_text', { text: 'stopped' }], ['press_key', { key: 'BackSpace' }]]) {
    r = await client.callTool({ name, arguments: { app: APP, ...args }, ...meta('turn-1') });
    assert.equal(r.isError, true, name);
    assert.equal(text(r), STOPPED, name);
    assert.equal(r.structuredContent.error.id, 'E-USER-STOPPED', name);
  }
  await sleep(200);
  assert.deepEqual(fixture.lines.slice(mark), [], 'nothing reached the app after the stop');
  // the next turn works again (after an observation)
  r = await client.callTool({ name: 'get_app_state', arguments: { app: APP }, ...meta('turn-2') });
  assert.equal(r.isError ?? false, false, text(r));
  r = await client.callTool({ name: 'type_text', arguments: { app: APP, text: ' again' }, ...meta('turn-2') });
  assert.equal(r.isError ?? false, false, text(r));
  await fixture.waitLine(/^entry .* again/, 5000, mark);
});

test('the stop hotkey (Ctrl+Alt+Shift+Escape), pressed by the person during a turn, stops it', { skip: skipPerson }, async () => {
  const person = await new Person().start();
  try {
    const meta = (turn) => ({ _meta: { 'libcua/turn_id': turn } });
    let r = await client.callTool({ name: 'get_app_state', arguments: { app: APP }, ...meta('turn-3') });
    assert.equal(r.isError ?? false, false, text(r));
    await person.do('key ctrl+alt+shift+Escape');
    await sleep(300);
    r = await client.callTool({ name: 'press_key', arguments: { app: APP, key: 'End' }, ...meta('turn-3') });
    assert.equal(text(r), STOPPED);
    r = await client.callTool({ name: 'get_app_state', arguments: { app: APP }, ...meta('turn-4') });
    assert.equal(r.isError ?? false, false, text(r));
  } finally {
    await person.stop();
  }
});

test('an app that just started and is not on the accessibility bus yet: E-PERMISSIONS-PENDING, at most 3 times', { skip }, async () => {
  // the fixture without its accessibility bridge: it never registers
  const app = spawn(FIXTURE, [], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NO_AT_BRIDGE: '1' } });
  try {
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the fixture did not start')), 20000);
      app.stdout.on('data', (d) => { if (String(d).includes('ready')) { clearTimeout(t); resolve(); } });
    });
    const args = { app: `pid:${app.pid}` };
    const pending = "Computer Use server error -10014: Computer Use permissions are still pending. 'fixture-gtk3' was just started and has not connected to the accessibility bus yet. Call this tool again, as the user is almost done finishing granting permissions. Do not end your turn yet, just call this tool again.";
    // its window shows up in the window list a moment after it starts
    let first;
    for (const end = Date.now() + 8000; Date.now() < end; await sleep(100)) {
      first = await client.callTool({ name: 'get_app_state', arguments: args });
      if (first.structuredContent?.error?.id !== 'E-APP-NOT-FOUND') break;
    }
    for (let i = 0; i < 3; i++) {
      const r = i ? await client.callTool({ name: 'get_app_state', arguments: args }) : first;
      assert.equal(r.isError, true);
      assert.equal(text(r), pending, `answer ${i + 1}`);
      assert.equal(r.structuredContent.error.id, 'E-PERMISSIONS-PENDING');
    }
    // the fourth answer is the truth: it does not register, so it is
    // shown as its window alone (docs/safety.md §7 "Degraded")
    const r = await client.callTool({ name: 'get_app_state', arguments: args });
    assert.equal(r.isError ?? false, false, text(r));
    assert.match(text(r), /<app_state>\n[^\n]*\n[^\n]*\n\d+ standard window libcua fixture[^\n]*\n<\/app_state>/);
    assert.match(text(r), /\nAccessibility unavailable: 'fixture-gtk3' exposes no accessibility tree, so only the screenshot, coordinate clicks and keys work\. To get its elements, the user can restart it with accessibility enabled \(unset NO_AT_BRIDGE\)\.$/);
    assert.ok(r.content.some((c) => c.type === 'image'), 'a screenshot');
  } finally {
    app.stdin.end();
    app.kill();
  }
});
