// Two cua-mcp servers of one user on one desktop, acting at the same time
// (docs/concurrency.md), with the official SDK client, the GTK3 fixture
// and mousepad in a headless desktop (`cua desktop run`):
//  - on different apps, their keys never reach the other's app (each
//    action holds the desktop's input lock), and every effect is read back
//    from the apps;
//  - their element ids and baselines are their own; one server's change
//    shows up in the other's next observation;
//  - approvals they (and `cua approve`) persist at once are all kept;
//  - on the same app, actions are serialised: each one's keys arrive
//    together, never interleaved;
//  - a `cua` command acting during an MCP session corrupts neither.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CUA_CLI, serverEnv, connect, closeAll, protocolErrors, Fixture, FIXTURE, haveDesktop, text, stateBody,
  stateUntil, findId, idOf, tempDir, untilRunning, sleep, appEnv,
} from './lib/harness.mjs';

const run = promisify(execFile);
const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const FX = 'fixture-gtk3', MP = 'org.xfce.mousepad';
let fixture, mousepad, env, a, b, dir;

// Both servers run as the same user: one configuration and state home.
before(async () => {
  if (skip) return;
  dir = tempDir('concurrent');
  const doc = join(dir, 'notes.txt');
  writeFileSync(doc, 'notes\n');
  mousepad = spawn('mousepad', [doc], { stdio: 'ignore', env: appEnv(join(dir, 'mp')) });
  fixture = await new Fixture().start();
  env = serverEnv();
  const approve = { action: 'accept', content: { scope: 'always' } };
  a = (await connect({ name: 'agent-a', env, caps: { elicitation: {} }, onElicit: async () => approve })).client;
  b = (await connect({ name: 'agent-b', env, caps: { elicitation: {} }, onElicit: async () => approve })).client;
});

after(async () => {
  await closeAll();
  await fixture?.stop();
  mousepad?.kill();
  assert.deepEqual(protocolErrors, [], 'client-side protocol errors');
});

const call = (client, app, name, args = {}) => client.callTool({ name, arguments: { app, ...args } });

async function ok(p) {
  const r = await p;
  assert.equal(r.isError ?? false, false, text(r));
  return r;
}

// mousepad's text as its own accessibility object says (its text entry
// area, read by the observing server `c`)
async function mousepadText(c) {
  const body = stateBody(await ok(call(c, MP, 'get_app_state', { disable_diff: true })));
  const line = body.split('\n').find((l) => /^\t*\d+ text entry area/.test(l)) ?? '';
  return /^\t*\d+ text entry area (\([^)]*\) )?(.*)$/.exec(line)?.[2] ?? line;
}

// The keys of `word`, one press_key combo per letter.
const keys = (word) => [...word].join(' ');

test('two servers approve their apps at once; every approval is kept, and `cua approve` adds at the same time', { skip }, async () => {
  // each server asks its client, which answers "always", at the same time
  await untilRunning(b, MP);
  const [ra, rb] = await Promise.all([
    stateUntil(a, { app: FX }),
    stateUntil(b, { app: MP }, (r) => !r.isError && findId(stateBody(r), /^text entry area/) !== null, 30000),
  ]);
  assert.equal(ra.isError ?? false, false, text(ra));
  assert.equal(rb.isError ?? false, false, text(rb));
  // and twenty `cua approve` commands of ten apps each, all at once
  const ids = Array.from({ length: 20 }, (_, i) => Array.from({ length: 10 }, (_, k) => `org.example.App${i}x${k}`));
  await Promise.all(ids.map((list) => run(CUA_CLI, ['approve', ...list], { env: { ...process.env, ...env } })));
  const store = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'cua', 'approvals.json'), 'utf8'));
  const kept = Object.keys(store.apps);
  assert.ok(kept.includes(FX) && kept.includes(MP), `both servers' approvals: ${kept.filter((k) => !k.startsWith('org.example'))}`);
  assert.deepEqual(ids.flat().filter((id) => !kept.includes(id)), [], 'approvals lost to a concurrent writer');
});

test('each server keeps its own element ids and baseline; the other\'s change shows up as a diff', { skip }, async () => {
  const fa = await ok(call(a, FX, 'get_app_state', { disable_diff: true }));
  // B has not looked at the fixture: its first look is a full tree
  const fb = await ok(call(b, FX, 'get_app_state'));
  assert.equal(fb.structuredContent.revision.kind, 'full');
  const boxA = idOf(stateBody(fa), /^checkbox Unchecked box/);
  const boxB = idOf(stateBody(fb), /^checkbox Unchecked box/);
  const mark = fixture.mark;
  await ok(call(a, FX, 'click', { element_index: boxA }));
  await fixture.waitLine(/^toggled Unchecked box on/, 5000, mark);
  // B's next look shows A's click as a change of its own element id
  const db = await ok(call(b, FX, 'get_app_state'));
  assert.equal(db.structuredContent.revision.kind, 'diff');
  assert.ok(stateBody(db).split('\n').includes(`~\t${boxB} checkbox Unchecked box, Value: on`), stateBody(db));
  // and B acts with its own id
  const m2 = fixture.mark;
  await ok(call(b, FX, 'click', { element_index: boxB }));
  await fixture.waitLine(/^toggled Unchecked box off/, 5000, m2);
});

test('on different apps at the same time: no key reaches the other app', { skip }, async () => {
  const entry = idOf(stateBody(await ok(call(a, FX, 'get_app_state', { disable_diff: true }))), /^text field .*Name:/);
  const area = idOf(stateBody(await ok(call(b, MP, 'get_app_state', { disable_diff: true }))), /^text entry area/);
  for (let round = 0; round < 3; round++) {
    const mark = fixture.mark;
    await ok(call(a, FX, 'set_value', { element_index: entry, value: '' }));
    await ok(call(a, FX, 'click', { element_index: entry }));
    await ok(call(b, MP, 'click', { element_index: area }));
    await ok(call(b, MP, 'press_key', { key: 'ctrl+a Delete' }));
    // each agent types three lines while the other does: a line break
    // is the key Return, so the whole text goes as key events (and
    // mousepad's is read back before type_text is done)
    const wa = ['abc!def?gh', 'kl,mn.op;q', 'uv(wa)b-cd'];
    const wb = ['zy!xw?vuts', 'po:nm/lk%j', 'fe#dc@ba~z'];
    await Promise.all([
      (async () => { for (const w of wa) await ok(call(a, FX, 'type_text', { text: `${w}\n` })); })(),
      (async () => { for (const w of wb) await ok(call(b, MP, 'type_text', { text: `${w}\n` })); })(),
    ]);
    await fixture.waitLine(`activate entry ${wa.join('')}`, 5000, mark);
    const mp = await mousepadText(b);
    const entries = fixture.lines.slice(mark).filter((l) => l.startsWith('entry '));
    assert.equal(entries.at(-1), `entry ${wa.join('')}`, `round ${round}: the fixture's entry, last of ${entries.join(' | ')}`);
    assert.equal(fixture.lines.slice(mark).filter((l) => l.startsWith('activate entry ')).length, 3, `round ${round}: one Return per line`);
    assert.equal(mp, wb.map((w) => `${w}\\n`).join(''), `round ${round}: mousepad's text`);
  }
});

test('on the same app at the same time: actions are serialised, never interleaved', { skip }, async () => {
  // A drags across the canvas while B clicks buttons of the same window:
  // each drag's press, motion and release stay together, from its start
  // to its end point, and every click lands
  const r = await ok(call(a, FX, 'get_app_state', { disable_diff: true }));
  const { elements, screenshot } = r.structuredContent;
  const canvas = elements.find((e) => e.role === 'canvas');
  const ppp = screenshot.pixels_per_point;
  const from = { x: Math.round((canvas.frame.x + 10) * ppp), y: Math.round((canvas.frame.y + 10) * ppp) };
  const to = { x: from.x + Math.round(60 * ppp), y: from.y + Math.round(30 * ppp) };
  const alpha = idOf(stateBody(await ok(call(b, FX, 'get_app_state', { disable_diff: true }))), /^button Alpha/);
  const mark = fixture.mark;
  await Promise.all([
    (async () => { for (let i = 0; i < 3; i++) await ok(call(a, FX, 'drag', { from_x: from.x, from_y: from.y, to_x: to.x, to_y: to.y })); })(),
    (async () => { for (let i = 0; i < 6; i++) await ok(call(b, FX, 'click', { element_index: alpha })); })(),
  ]);
  await sleep(300);
  const seen = fixture.lines.slice(mark).filter((l) => /^(canvas (press|release|motion)|clicked Alpha)/.test(l));
  assert.equal(seen.filter((l) => l.startsWith('clicked Alpha')).length, 6, seen.join(' | '));
  // between a press and its release: only that drag's motion, on the canvas
  const presses = seen.filter((l) => l.startsWith('canvas press')).length;
  assert.equal(presses, 3, seen.join(' | '));
  let inDrag = false;
  for (const l of seen) {
    if (l.startsWith('canvas press')) inDrag = true;
    else if (l.startsWith('canvas release')) {
      const [, , , x, y] = l.split(' ').map(Number);
      assert.ok(Math.abs(x - 70) <= 2 && Math.abs(y - 40) <= 2, `a release at the drag's end point (70, 40): ${l}`);
      inDrag = false;
    } else if (l.startsWith('clicked Alpha')) assert.equal(inDrag, false, `a click inside a drag: ${seen.join(' | ')}`);
  }
});

test('a `cua` command acting during an MCP session corrupts neither', { skip }, async () => {
  const r0 = await ok(call(a, FX, 'get_app_state', { disable_diff: true }));
  const entry = idOf(stateBody(r0), /^text field .*Name:/);
  const box = idOf(stateBody(r0), /^checkbox Unchecked box/);
  const area = idOf(stateBody(await ok(call(b, MP, 'get_app_state', { disable_diff: true }))), /^text entry area/);
  await ok(call(b, MP, 'click', { element_index: area }));
  await ok(call(b, MP, 'press_key', { key: 'ctrl+a Delete' }));
  await ok(call(a, FX, 'set_value', { element_index: entry, value: '' }));
  await ok(call(a, FX, 'click', { element_index: entry }));
  const cli = (...args) => run(CUA_CLI, args, { env: { ...process.env, ...env } });
  const mark = fixture.mark;
  // the command observes mousepad and types into it while A types into
  // the fixture
  await cli('state', MP);
  await Promise.all([
    (async () => { for (const w of ['server', 'keys', 'only']) await ok(call(a, FX, 'press_key', { key: keys(w) })); })(),
    (async () => { for (const w of ['command', 'text']) await cli('type', MP, w); })(),
  ]);
  await fixture.waitLine('entry serverkeysonly', 5000, mark);
  assert.equal(await mousepadText(b), 'commandtext');
  // A's session goes on: its next look is a diff against its own
  // baseline, and its ids still name the same elements
  const d = await ok(call(a, FX, 'get_app_state'));
  assert.equal(d.structuredContent.revision.kind, 'diff');
  const m2 = fixture.mark;
  await ok(call(a, FX, 'click', { element_index: box }));
  await fixture.waitLine(/^toggled Unchecked box/, 5000, m2);
  // and the command's own session too
  const { stdout } = await cli('state', MP);
  assert.match(stdout, /commandtext/);
});
