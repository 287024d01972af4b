// App policy and per-app approval (docs/safety.md §2, §3) through the SDK
// client's elicitation support: accepted (session, always), declined,
// cancelled, an error reply, a client that cannot ask, --trust-apps, the
// forbidden list, configuration deny/allow/disabled. Runs in a headless
// desktop with the GTK3 fixture.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { connect, closeAll, protocolErrors, Fixture, FIXTURE, haveDesktop, serverEnv, text, stateUntil, sleep, CUA_CLI } from './lib/harness.mjs';

const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const APP = 'fixture-gtk3';
const MESSAGE = `Allow Computer Use to use ${APP} (${APP})?\n\nAllowing Computer Use to use this app introduces new risks, including prompt injection attacks that could lead to data theft or loss. It will be able to read ${APP}'s window, take screenshots of it, and click, type and press keys in it. Keep an eye on what it does.`;
const SCHEMA = {
  type: 'object',
  properties: { scope: { type: 'string', title: 'Allow', enum: ['session', 'always'], enumNames: ['For this session', 'Always'] } },
  required: ['scope'],
};
let fixture;

before(async () => {
  if (skip) return;
  fixture = await new Fixture().start();
  // wait until the fixture is registered (with a trusted server)
  const { client } = await connect({ args: ['--trust-apps'] });
  await stateUntil(client, { app: APP });
  await closeAll();
});

after(async () => {
  await closeAll();
  await fixture?.stop();
  assert.deepEqual(protocolErrors, [], 'client-side protocol errors');
});

// A client with the elicitation capability that answers with `answer`.
async function asking(answer, env = serverEnv(), args = []) {
  const asked = [];
  const c = await connect({
    caps: { elicitation: {} }, env, args,
    onElicit: async (req) => { asked.push(req.params); return typeof answer === 'function' ? answer(req) : answer; },
  });
  return { ...c, asked, env };
}

const state = (client, app = APP) => client.callTool({ name: 'get_app_state', arguments: { app } });

test('accepted for this session: asked once, with the spec\'s message, schema and _meta.persist', { skip }, async () => {
  const { client, asked, env } = await asking({ action: 'accept', content: { scope: 'session' } });
  const r = await state(client);
  assert.equal(r.isError ?? false, false, text(r));
  assert.equal(asked.length, 1);
  assert.equal(asked[0].message, MESSAGE);
  assert.equal(asked[0].mode, 'form');
  assert.deepEqual(asked[0].requestedSchema, SCHEMA);
  assert.deepEqual(asked[0]._meta, { persist: ['session', 'always'] });
  // the session approval holds for every tool; list_apps never asks
  await state(client);
  const alpha = /\n\t(\d+) button Alpha/.exec(text(await client.callTool({ name: 'get_app_state', arguments: { app: APP, disable_diff: true } })))[1];
  const mark = fixture.mark;
  const c = await client.callTool({ name: 'click', arguments: { app: APP, element_index: alpha } });
  assert.equal(c.isError ?? false, false, text(c));
  await fixture.waitLine(/^clicked Alpha/, 5000, mark);
  await client.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(asked.length, 1);
  assert.equal(existsSync(join(env.XDG_STATE_HOME, 'cua', 'approvals.json')), false, 'a session approval is not persisted');
});

test('accepted always: persisted atomically with mode 0600; a new server session does not ask', { skip }, async () => {
  const env = serverEnv();
  const first = await asking({ action: 'accept', content: { scope: 'always' } }, env);
  assert.equal((await state(first.client)).isError ?? false, false);
  assert.equal(first.asked.length, 1);
  const path = join(env.XDG_STATE_HOME, 'cua', 'approvals.json');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(join(env.XDG_STATE_HOME, 'cua')).mode & 0o777, 0o700);
  const store = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(store.version, 1);
  assert.equal(store.apps[APP].scope, 'always');
  assert.match(store.apps[APP].granted_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  await first.client.close();
  const second = await asking({ action: 'decline' }, env);
  assert.equal((await state(second.client)).isError ?? false, false);
  assert.equal(second.asked.length, 0);
  // and a client that cannot ask may use it too
  const { client } = await connect({ env });
  assert.equal((await state(client)).isError ?? false, false);
});

test('a Codex-style host answering with _meta.persist = "always" persists too', { skip }, async () => {
  const env = serverEnv();
  const { client } = await asking({ action: 'accept', content: {}, _meta: { persist: 'always' } }, env);
  assert.equal((await state(client)).isError ?? false, false);
  assert.equal(JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'cua', 'approvals.json'), 'utf8')).apps[APP].scope, 'always');
});

test('declined: E-APPROVAL-DENIED, exact text, nothing observed', { skip }, async () => {
  const { client, asked } = await asking({ action: 'decline' });
  const r = await state(client);
  assert.equal(r.isError, true);
  assert.equal(text(r), `Computer Use approval denied via MCP elicitation for app '${APP}'. Do not retry; tell the user you need their permission to use ${APP}.`);
  assert.deepEqual(r.structuredContent.error, { id: 'E-APPROVAL-DENIED', name: 'approvalDenied', code: -11015, detail: text(r), message: text(r) });
  assert.equal(r.content.length, 1, 'no screenshot');
  // a later call asks again (nothing was remembered)
  await state(client);
  assert.equal(asked.length, 2);
});

test('cancelled: E-APPROVAL-CANCELED, exact text', { skip }, async () => {
  const { client } = await asking({ action: 'cancel' });
  const r = await client.callTool({ name: 'click', arguments: { app: APP, element_index: '1' } });
  assert.equal(r.isError, true);
  assert.equal(text(r), `Computer Use permission request canceled for app '${APP}'. Ask the user whether Computer Use may use ${APP}, then try again.`);
  assert.equal(r.structuredContent.error.id, 'E-APPROVAL-CANCELED');
});

test('an error reply to elicitation/create fails closed: E-APPROVAL-UNAVAILABLE', { skip }, async () => {
  const { client } = await asking(() => { throw new McpError(-32601, 'Method not found'); });
  const r = await state(client);
  assert.equal(r.structuredContent.error.id, 'E-APPROVAL-UNAVAILABLE');
});

test('a client without elicitation is never asked: E-APPROVAL-UNAVAILABLE names `cua approve`', { skip }, async () => {
  const env = serverEnv();
  const { client } = await connect({ env });
  const r = await state(client);
  assert.equal(r.isError, true);
  assert.equal(text(r), `Computer Use needs the user's approval to use '${APP}', but this MCP client cannot ask for it. Ask the user to approve it with: cua approve ${APP} (or add it to ${join(env.XDG_CONFIG_HOME, 'libcua', 'config.json')}).`);
  assert.equal(r.structuredContent.error.code, -11016);
  // list_apps is never gated
  const l = await client.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(l.isError ?? false, false);
});

test('`cua approve ID` (what E-APPROVAL-UNAVAILABLE suggests) lets a client that cannot ask use the app', { skip }, async () => {
  const env = serverEnv();
  const { client } = await connect({ env });
  assert.equal((await state(client)).structuredContent.error.id, 'E-APPROVAL-UNAVAILABLE');
  const r = spawnSync(CUA_CLI, ['approve', APP], { env: { ...process.env, XDG_STATE_HOME: env.XDG_STATE_HOME }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(statSync(join(env.XDG_STATE_HOME, 'cua', 'approvals.json')).mode & 0o777, 0o600);
  // re-read on every call: no restart needed
  assert.equal((await state(client)).isError ?? false, false);
});

test('--trust-apps approves without asking; "allow" in the configuration too', { skip }, async () => {
  const { client: trusted } = await connect({ args: ['--trust-apps'] });
  assert.equal((await state(trusted)).isError ?? false, false);
  const env = serverEnv();
  mkdirSync(join(env.XDG_CONFIG_HOME, 'libcua'), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME, 'libcua', 'config.json'), JSON.stringify({ apps: { [APP]: 'allow' } }));
  const { client } = await connect({ env });
  assert.equal((await state(client)).isError ?? false, false);
});

test('a forbidden app (by executable name) is refused with the safety sentence, before any question', { skip }, async () => {
  const keepass = await new Fixture(FIXTURE, { name: 'keepassxc' }).start();
  try {
    // a client that can ask, on a server that would ask for any other app
    // (no --trust-apps): the refusal comes first, nothing is asked
    const { client, asked } = await asking({ action: 'accept', content: { scope: 'session' } });
    await stateUntil(client, { app: APP }, (r) => asked.length > 0 && !r.isError);
    assert.equal(asked.length, 1, 'the server asks for an app that is not forbidden');
    asked.length = 0;
    const sentence = "Computer Use is not allowed to use the app 'keepassxc' for safety reasons.";
    // registered: it is listed (policy applies when an app is targeted)
    const end = Date.now() + 15000;
    while (!/keepassxc/.test(text(await client.callTool({ name: 'list_apps', arguments: {} }))) && Date.now() < end) await sleep(300);
    assert.match(text(await client.callTool({ name: 'list_apps', arguments: {} })), /keepassxc/);
    const r = await state(client, 'keepassxc');
    assert.equal(r.isError, true);
    assert.equal(text(r), sentence);
    assert.deepEqual(r.structuredContent.error, { id: 'E-NOT-ALLOWED', name: 'appNotAllowed', code: -10006, detail: text(r), message: text(r) });
    // by pid too, and for actions
    const byPid = await state(client, `pid:${keepass.pid}`);
    assert.equal(byPid.structuredContent.error.id, 'E-NOT-ALLOWED');
    const click = await client.callTool({ name: 'click', arguments: { app: 'keepassxc', x: 1, y: 1 } });
    assert.equal(click.structuredContent.error.id, 'E-NOT-ALLOWED');
    assert.deepEqual(asked, [], 'asked about a forbidden app');
    // --trust-apps does not lift it
    const { client: trusted } = await connect({ args: ['--trust-apps'] });
    const t = await state(trusted, 'keepassxc');
    assert.equal(text(t), sentence);
  } finally {
    await keepass.stop();
  }
});

test('configuration: forbidden_apps_add, "deny", default_app_access "deny", enabled false', { skip }, async () => {
  const configured = async (config) => {
    const env = serverEnv();
    mkdirSync(join(env.XDG_CONFIG_HOME, 'libcua'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME, 'libcua', 'config.json'), JSON.stringify(config));
    return { ...(await connect({ env, args: ['--trust-apps'] })), path: join(env.XDG_CONFIG_HOME, 'libcua', 'config.json') };
  };
  let c = await configured({ forbidden_apps_add: [APP] });
  assert.equal((await state(c.client)).structuredContent.error.id, 'E-NOT-ALLOWED');
  c = await configured({ apps: { [APP]: 'deny' } });
  let r = await state(c.client);
  assert.equal(text(r), `Computer Use is blocked from using the app '${APP}' by your configuration. Ask the user to allow it in ${c.path} if it should be usable.`);
  assert.equal(r.structuredContent.error.id, 'E-BLOCKED');
  c = await configured({ default_app_access: 'deny' });
  assert.equal((await state(c.client)).structuredContent.error.id, 'E-BLOCKED');
  c = await configured({ default_app_access: 'deny', apps: { [APP]: 'allow' } });
  assert.equal((await state(c.client)).isError ?? false, false);
  c = await configured({ enabled: false });
  r = await state(c.client);
  assert.equal(text(r), 'Computer Use is disabled by your configuration.');
  assert.equal(r.structuredContent.error.id, 'E-DISABLED');
  assert.equal((await c.client.callTool({ name: 'list_apps', arguments: {} })).isError ?? false, false);
});

test('cancelling a call while the user is being asked: no response, the server stays usable', { skip }, async () => {
  let release;
  const pending = new Promise((r) => { release = r; });
  const { client } = await asking(async () => { await pending; return { action: 'accept', content: { scope: 'session' } }; });
  const ac = new AbortController();
  const p = client.callTool({ name: 'get_app_state', arguments: { app: APP } }, undefined, { signal: ac.signal });
  await sleep(300);
  ac.abort('changed my mind');
  await assert.rejects(p);
  release();
  assert.deepEqual(await client.ping(), {});
});
