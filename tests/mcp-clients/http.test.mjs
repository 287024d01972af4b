// cua-mcp over MCP Streamable HTTP (`cua-mcp --listen`, docs/remote.md):
// what only HTTP has. The bearer token (401) and its file, a foreign
// Origin (403), an oversized message (413, with and without a length),
// sessions (Mcp-Session-Id, DELETE, two sessions with their own approvals
// and observations, the session bound), MCP-Protocol-Version, a dropped
// connection resumed with Last-Event-ID while an app approval is asked,
// clients that send garbage or never read, and the Inspector CLI over
// HTTP. The tools themselves run over HTTP in sdk-desktop-http.test.mjs
// and approval-http.test.mjs. Runs in a headless desktop with the GTK3
// fixture.
//
// SPDX-License-Identifier: MIT
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { writeFileSync, statSync, readFileSync, chmodSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  SERVER, DATA_DIR, HERE, Fixture, FIXTURE, haveDesktop, serverEnv, startHttpServer, closeAll, endHttpSession,
  text, stateUntil, sleep, tempDir,
} from './lib/harness.mjs';

const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';
const APP = 'fixture-gtk3';
const INIT = {
  jsonrpc: '2.0', id: 0, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
let fixture, server;
const errors = [];
const clients = [];

before(async () => {
  if (skip) return;
  fixture = await new Fixture().start();
  server = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--max-sessions', '4'] });
  // the fixture registers on the accessibility bus a moment after it shows
  const { client } = await connectHttp(server, { args: ['--trust-apps'] });
  await stateUntil(client, { app: APP });
  await client.close();
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await closeAll();
  await fixture?.stop();
  assert.deepEqual(errors, [], 'client-side protocol errors');
});

// An SDK client over HTTP; `expectErrors` collects the client's own
// reports (a dropped connection) instead of failing the file.
async function connectHttp(srv, { caps = {}, onElicit, transport, expectErrors } = {}) {
  const client = new Client({ name: 'http-test', version: '0' }, { capabilities: caps });
  let closing = false;
  client.onerror = (e) => {
    if (closing && /AbortError|This operation was aborted/.test(e.message)) return;
    (expectErrors ?? errors).push(e.message);
  };
  const t = transport ?? srv.transport();
  const close = client.close.bind(client);
  client.close = async () => {
    closing = true;
    const sid = t.sessionId;
    await close();
    if (sid) await endHttpSession(srv, sid);
  };
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
  await client.connect(t);
  clients.push(client);
  return { client, transport: t };
}

// A raw request to the server (fetch, no SDK).
function post(srv, body, headers = {}) {
  return fetch(srv.url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${srv.token}`, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream', ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function rawSession(srv) {
  const r = await post(srv, INIT);
  assert.equal(r.status, 200);
  const sid = r.headers.get('mcp-session-id');
  assert.match(sid, /^[0-9a-f]{32}$/);
  const init = await r.json();
  assert.equal(init.id, 0);
  assert.equal(init.result.protocolVersion, '2025-11-25');
  const n = await post(srv, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': sid });
  assert.equal(n.status, 202);
  return sid;
}

test('the token file: made on first start with mode 0600, printed once; a readable one is refused', { skip }, async () => {
  const dir = tempDir('tok');
  const tokenFile = join(dir, 'sub', 'token');
  const first = await startHttpServer({ tokenFile });
  assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
  assert.match(first.token, /^[0-9a-f]{64}$/);
  assert.ok(first.stderr.includes(`Authorization: Bearer ${first.token}`), first.stderr);
  assert.equal(await first.stop(), 0);
  const second = await startHttpServer({ tokenFile });
  assert.equal(second.token, first.token);
  assert.ok(!second.stderr.includes(first.token), 'printed only when made');
  assert.equal(await second.stop(), 0);
  chmodSync(tokenFile, 0o644);
  const r = spawnSync(SERVER, ['--listen', '127.0.0.1:0', '--token-file', tokenFile, '--data-dir', DATA_DIR],
    { encoding: 'utf8', timeout: 20000, env: serverEnv({ PATH: process.env.PATH }) });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no one else can read \(chmod 600 /);
});

test('on a non-loopback address the token is required all the same, and an unusable token file stops the start', { skip }, async () => {
  const srv = await startHttpServer({ listen: '0.0.0.0:0' });
  assert.match(srv.stderr, /non-loopback address/);
  const port = new URL(srv.url).port;
  const local = { ...srv, url: `http://127.0.0.1:${port}/mcp` };
  for (const auth of [undefined, 'Bearer wrong']) {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (auth) headers.Authorization = auth;
    const r = await fetch(local.url, { method: 'POST', headers, body: JSON.stringify(INIT) });
    assert.equal(r.status, 401, auth);
  }
  const r = await post(local, INIT);
  assert.equal(r.status, 200);
  await endHttpSession(local, r.headers.get('mcp-session-id'));
  assert.equal(await srv.stop(), 0);
  // a token file others can read: no start, on any address
  chmodSync(srv.tokenFile, 0o644);
  const bad = spawnSync(SERVER, ['--listen', '0.0.0.0:0', '--token-file', srv.tokenFile, '--data-dir', DATA_DIR],
    { encoding: 'utf8', timeout: 20000, env: serverEnv({ PATH: process.env.PATH }) });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /no one else can read \(chmod 600 /);
});

test('no token or a wrong one: 401 with WWW-Authenticate; the SDK client cannot connect', { skip }, async () => {
  for (const auth of [undefined, 'Bearer wrong', `Bearer ${server.token}x`, `Basic ${server.token}`]) {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (auth) headers.Authorization = auth;
    const r = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(INIT) });
    assert.equal(r.status, 401, auth);
    assert.match(r.headers.get('www-authenticate'), /^Bearer/);
    assert.match((await r.json()).error.message, /Authorization: Bearer TOKEN/);
  }
  const bad = new Client({ name: 'bad', version: '0' });
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const t = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer nope' } } });
  await assert.rejects(bad.connect(t), /401|Unauthorized/);
});

test('a foreign Origin gets 403; the local host\'s own pages pass', { skip }, async () => {
  for (const origin of ['http://evil.example', 'https://localhost.evil.example', 'null', 'http://127.0.0.1.nip.io:80']) {
    const r = await post(server, INIT, { Origin: origin });
    assert.equal(r.status, 403, origin);
    assert.match((await r.json()).error.message, /--allow-origin/);
  }
  const r = await post(server, INIT, { Origin: 'http://localhost:6274' });
  assert.equal(r.status, 200);
  const sid = r.headers.get('mcp-session-id');
  assert.equal((await fetch(server.url, { method: 'DELETE', headers: { Authorization: `Bearer ${server.token}`, 'Mcp-Session-Id': sid } })).status, 200);
});

test('an oversized message gets 413, with a length or chunked; the server goes on', { skip }, async () => {
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--max-request-bytes', '100000'] });
  const big = JSON.stringify({ ...INIT, params: { ...INIT.params, pad: 'x'.repeat(200000) } });
  let r = await post(srv, big);
  assert.equal(r.status, 413);
  assert.match((await r.json()).error.message, /at most 100000 bytes/);
  // no Content-Length: the body is read on and dropped past the bound
  const chunks = [big.slice(0, 60000), big.slice(60000)];
  r = await fetch(srv.url, {
    method: 'POST', duplex: 'half',
    headers: { Authorization: `Bearer ${srv.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: new ReadableStream({ pull(c) { if (chunks.length) c.enqueue(new TextEncoder().encode(chunks.shift())); else c.close(); } }),
  });
  assert.equal(r.status, 413);
  await r.body?.cancel();
  assert.equal((await post(srv, INIT)).status, 200);
  // the default bound is 8 MiB
  r = await post(server, JSON.stringify({ ...INIT, params: { pad: 'x'.repeat(9 * 1024 * 1024) } }));
  assert.equal(r.status, 413);
  assert.equal(await srv.stop(), 0);
});

test('sessions: Mcp-Session-Id required, unknown 404, DELETE ends one, MCP-Protocol-Version checked', { skip }, async () => {
  const sid = await rawSession(server);
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  let r = await post(server, list);
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /Mcp-Session-Id header is missing/);
  r = await post(server, list, { 'Mcp-Session-Id': '0'.repeat(32) });
  assert.equal(r.status, 404);
  r = await post(server, list, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '1999-01-01' });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /MCP-Protocol-Version '1999-01-01'/);
  r = await post(server, list, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json');
  assert.ok((await r.json()).result.tools.length >= 10);
  r = await post(server, '{"jsonrpc":"2.0",', { 'Mcp-Session-Id': sid });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, -32700);
  r = await post(server, [list], { 'Mcp-Session-Id': sid });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /batches are not supported/);
  // a second standalone stream is a conflict
  const get = (extra = {}) => fetch(server.url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'text/event-stream', 'Mcp-Session-Id': sid, ...extra } });
  const g1 = await get();
  assert.equal(g1.status, 200);
  assert.equal(g1.headers.get('content-type'), 'text/event-stream');
  const g2 = await get();
  assert.equal(g2.status, 409);
  await g2.body?.cancel();
  r = await fetch(server.url, { method: 'PUT', headers: { Authorization: `Bearer ${server.token}` } });
  assert.equal(r.status, 405);
  assert.equal(r.headers.get('allow'), 'GET, POST, DELETE');
  r = await fetch(server.url, { method: 'DELETE', headers: { Authorization: `Bearer ${server.token}`, 'Mcp-Session-Id': sid } });
  assert.equal(r.status, 200);
  // the open stream ends with the session
  const rest = await g1.text();
  assert.equal(typeof rest, 'string');
  r = await post(server, list, { 'Mcp-Session-Id': sid });
  assert.equal(r.status, 404);
});

test('two sessions: their own ids, observations and approvals; ending one leaves the other', { skip }, async () => {
  const askedA = [], askedB = [];
  const a = await connectHttp(server, { caps: { elicitation: {} }, onElicit: async (req) => { askedA.push(req.params); return { action: 'accept', content: { scope: 'session' } }; } });
  const b = await connectHttp(server, { caps: { elicitation: {} }, onElicit: async (req) => { askedB.push(req.params); return { action: 'decline' }; } });
  assert.notEqual(a.transport.sessionId, b.transport.sessionId);
  const ra = await a.client.callTool({ name: 'get_app_state', arguments: { app: APP } });
  assert.equal(ra.isError ?? false, false, text(ra));
  assert.equal(askedA.length, 1);
  // B's approval is its own: asked, declined, nothing observed
  const rb = await b.client.callTool({ name: 'get_app_state', arguments: { app: APP } });
  assert.equal(rb.isError, true);
  assert.equal(rb.structuredContent.error.id, 'E-APPROVAL-DENIED');
  assert.equal(askedB.length, 1);
  // element ids come from each session's own observation: B has none
  const alpha = /\n\t(\d+) button Alpha/.exec(text(await a.client.callTool({ name: 'get_app_state', arguments: { app: APP, disable_diff: true } })))[1];
  const mark = fixture.mark;
  const ca = await a.client.callTool({ name: 'click', arguments: { app: APP, element_index: alpha } });
  assert.equal(ca.isError ?? false, false, text(ca));
  await fixture.waitLine(/^clicked Alpha/, 5000, mark);
  const cb = await b.client.callTool({ name: 'click', arguments: { app: APP, element_index: alpha } });
  assert.equal(cb.isError, true);
  assert.equal(askedA.length, 1);
  // DELETE one session; the other goes on
  const sidA = a.transport.sessionId;
  await a.client.close();
  const r = await post(server, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'Mcp-Session-Id': sidA });
  assert.equal(r.status, 404);
  assert.ok((await b.client.listTools()).tools.length >= 10);
});

test('at most --max-sessions sessions: the next initialize gets 503, a freed slot is reused, a failed initialize takes none', { skip }, async () => {
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--max-sessions', '2'] });
  // an initialize that fails leaves no session behind
  for (let i = 0; i < 3; i++) {
    const bad = await post(srv, { ...INIT, params: {} });
    assert.match((await bad.json()).error.message, /protocolVersion/);
  }
  await sleep(200);
  const s1 = await rawSession(srv);
  await rawSession(srv);
  let r = await post(srv, INIT);
  assert.equal(r.status, 503);
  assert.match((await r.json()).error.message, /at most 2/);
  assert.equal((await fetch(srv.url, { method: 'DELETE', headers: { Authorization: `Bearer ${srv.token}`, 'Mcp-Session-Id': s1 } })).status, 200);
  r = await post(srv, INIT);
  assert.equal(r.status, 200);
  assert.equal(await srv.stop(), 0);
});

test('a session whose client went away is ended after --session-timeout; its process exits', { skip }, async () => {
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--session-timeout', '2'] });
  const sid = await rawSession(srv);
  // the client opens its event stream, then dies
  const ac = new AbortController();
  const g = await fetch(srv.url, { signal: ac.signal, headers: { Authorization: `Bearer ${srv.token}`, Accept: 'text/event-stream', 'Mcp-Session-Id': sid } });
  assert.equal(g.status, 200);
  const children = () => spawnSync('pgrep', ['-P', String(srv.proc.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  assert.equal(children().length, 1);
  const t0 = Date.now();
  ac.abort();
  // a live session is not ended while its client is active
  const live = await rawSession(srv);
  assert.equal(children().length, 2);
  // (a request on the idle session would make it active again: only the
  // session processes are watched)
  let ended = 0;
  for (let i = 0; i < 15 && !ended; i++) {
    await sleep(1000);
    assert.equal((await post(srv, { jsonrpc: '2.0', id: i + 1, method: 'ping' }, { 'Mcp-Session-Id': live })).status, 200);
    if (children().length === 1) ended = Date.now() - t0;
  }
  assert.ok(ended >= 2000, `the idle session ended after ${ended} ms (the timeout is 2 s)`);
  assert.equal((await post(srv, { jsonrpc: '2.0', id: 99, method: 'tools/list' }, { 'Mcp-Session-Id': sid })).status, 404);
  assert.equal((await post(srv, { jsonrpc: '2.0', id: 100, method: 'ping' }, { 'Mcp-Session-Id': live })).status, 200);
  assert.equal(await srv.stop(), 0);
});

// A TCP relay between client and server that can cut every connection.
function relay(target) {
  const sockets = new Set();
  const { port, hostname } = new URL(target);
  const srv = net.createServer((c) => {
    const u = net.connect(Number(port), hostname);
    sockets.add(c); sockets.add(u);
    c.pipe(u); u.pipe(c);
    for (const s of [c, u]) {
      s.on('error', () => {});
      s.on('close', () => { sockets.delete(s); c.destroy(); u.destroy(); });
    }
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${srv.address().port}/mcp`,
    cut: () => { for (const s of sockets) s.destroy(); },
    close: () => { for (const s of sockets) s.destroy(); srv.close(); },
  })));
}

test('a connection dropped while the app approval is asked: the client resumes with Last-Event-ID and gets its result', { skip }, async () => {
  const proxy = await relay(server.url);
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
    requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
  });
  const seen = [];
  const tokens = [];
  const { client } = await connectHttp(server, {
    transport, caps: { elicitation: {} }, expectErrors: seen,
    onElicit: async () => {
      proxy.cut(); // every connection, the tools/call's event stream too
      await sleep(300);
      return { action: 'accept', content: { scope: 'session' } };
    },
  });
  const r = await client.callTool({ name: 'get_app_state', arguments: { app: APP } }, undefined,
    { onresumptiontoken: (t) => tokens.push(t), timeout: 30000 });
  assert.equal(r.isError ?? false, false, text(r));
  assert.match(text(r), /button Alpha/);
  // the client saw its stream drop (and said so), then resumed
  assert.ok(seen.some((m) => /SSE stream disconnected/.test(m)), JSON.stringify(seen));
  assert.ok(tokens.length >= 2 && tokens.every((t) => /^\d+-\d+$/.test(t)), JSON.stringify(tokens));
  assert.equal((await client.callTool({ name: 'get_app_state', arguments: { app: APP } })).isError ?? false, false);
  await client.close();
  proxy.close();
});

test('resuming by hand: GET with Last-Event-ID replays the rest of that stream only', { skip }, async () => {
  const sid = await rawSession(server);
  const h = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
  const r = await post(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_apps', arguments: {} } }, h);
  assert.equal(r.headers.get('content-type'), 'text/event-stream');
  const body = await r.text();
  const ids = [...body.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
  assert.ok(ids.length >= 2, body);
  assert.match(body, /^retry: \d+$/m);
  // from the primer: the whole stream again, its response included
  const g = await fetch(server.url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'text/event-stream', ...h, 'Last-Event-ID': ids[0] } });
  assert.equal(g.status, 200);
  const again = await g.text();
  const data = [...again.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]));
  assert.equal(data.at(-1).id, 7);
  assert.match(data.at(-1).result.content[0].text, new RegExp(APP));
  // from the last event: nothing but the primer
  const g2 = await fetch(server.url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'text/event-stream', ...h, 'Last-Event-ID': ids.at(-1) } });
  assert.doesNotMatch(await g2.text(), /^data: \{/m);
  const bad = await fetch(server.url, { headers: { Authorization: `Bearer ${server.token}`, Accept: 'text/event-stream', ...h, 'Last-Event-ID': 'x' } });
  assert.equal(bad.status, 400);
  await fetch(server.url, { method: 'DELETE', headers: { Authorization: `Bearer ${server.token}`, 'Mcp-Session-Id': sid } });
});

test('connections that never send the token cannot take every slot: the oldest of them make way', { skip }, async () => {
  // --max-sessions 1: at most 12 connections
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--max-sessions', '1'] });
  const port = Number(new URL(srv.url).port);
  const idle = [];
  let closed = 0;
  for (let i = 0; i < 40; i++) {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', () => {});
    s.on('close', () => { closed++; });
    await once(s, 'connect');
    if (i % 4 === 0) s.write('POST /mcp HTTP/1.1\r\nHost: x\r\n'); // half a request
    idle.push(s);
  }
  // a client with the token still gets in, on connections of its own
  const { client } = await connectHttp(srv);
  const t0 = Date.now();
  const r = await client.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(r.isError ?? false, false, text(r));
  assert.ok(Date.now() - t0 < 5000, `list_apps took ${Date.now() - t0} ms`);
  // the server shut the oldest silent ones down, not the newest
  for (let i = 0; i < 50 && closed < 28; i++) await new Promise((res) => setTimeout(res, 100));
  assert.ok(closed >= 28, `${closed} of 40 silent connections closed`);
  assert.ok(idle[0].destroyed || idle[0].readableEnded, 'the oldest silent connection was closed');
  for (const s of idle) s.destroy();
  await client.close();
  assert.equal(await srv.stop(), 0);
});

test('clients that send garbage, stall half-way or never read do not hold up another session', { skip }, async () => {
  const { port } = new URL(server.url);
  const bad = [];
  for (let i = 0; i < 4; i++) {
    const s = net.connect(Number(port), '127.0.0.1');
    s.on('error', () => {});
    await once(s, 'connect');
    s.write(i % 2 ? 'GARBAGE \x00\x01\x02\r\n\r\n' : 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n'); // never finished
    bad.push(s);
  }
  // a session whose event stream is never read
  const sid = await rawSession(server);
  const silent = net.connect(Number(port), '127.0.0.1');
  silent.on('error', () => {});
  await once(silent, 'connect');
  silent.write(`GET /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sid}\r\n\r\n`);
  silent.pause();
  const { client } = await connectHttp(server);
  const t0 = Date.now();
  const r = await client.callTool({ name: 'list_apps', arguments: {} });
  assert.equal(r.isError ?? false, false, text(r));
  assert.ok(Date.now() - t0 < 5000, `list_apps took ${Date.now() - t0} ms`);
  for (const s of [...bad, silent]) s.destroy();
  await client.close();
  await fetch(server.url, { method: 'DELETE', headers: { Authorization: `Bearer ${server.token}`, 'Mcp-Session-Id': sid } });
});

test('the Inspector CLI over HTTP: tools/list --strict and a tools/call on the fixture', { skip }, async () => {
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--trust-apps'] });
  const BIN = join(HERE, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  const HOME = tempDir('inspector-home');
  const cli = (...flags) => {
    const r = spawnSync(process.execPath, [BIN, '--cli', srv.url, '--transport', 'http', '--header', `Authorization: Bearer ${srv.token}`, ...flags, '--format', 'json'],
      { encoding: 'utf8', timeout: 60000, env: { ...process.env, HOME } });
    let json;
    try { json = JSON.parse(r.stdout); } catch { /* left undefined */ }
    return { code: r.status, json, out: r.stdout + r.stderr };
  };
  let r = cli('--method', 'tools/list', '--strict');
  assert.equal(r.code, 0, r.out);
  const expected = JSON.parse(readFileSync(join(HERE, 'expected-tools.json'), 'utf8'));
  assert.deepEqual(r.json.result.tools.map((t) => t.name), expected.map((t) => t.name));
  r = cli('--method', 'tools/call', '--tool-name', 'get_app_state', '--tool-arg', `app=${APP}`);
  assert.equal(r.code, 0, r.out);
  assert.match(r.json.result.content[0].text, /button Alpha/);
  assert.equal(r.json.result.content[1].type, 'image');
  // and with a wrong token the Inspector reports an auth failure
  const w = spawnSync(process.execPath, [BIN, '--cli', srv.url, '--transport', 'http', '--header', 'Authorization: Bearer wrong', '--method', 'tools/list', '--format', 'json'],
    { encoding: 'utf8', timeout: 60000, env: { ...process.env, HOME } });
  assert.notEqual(w.status, 0);
  assert.equal(await srv.stop(), 0);
});

test('SIGTERM with sessions open: the server and its session processes exit', { skip }, async () => {
  const srv = await startHttpServer({ args: ['--data-dir', DATA_DIR, '--trust-apps'] });
  const gone = []; // the client's reports of the server going away
  const { client } = await connectHttp(srv, { expectErrors: gone });
  await client.callTool({ name: 'list_apps', arguments: {} });
  await rawSession(srv);
  const children = spawnSync('pgrep', ['-P', String(srv.proc.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  assert.equal(children.length, 2);
  const t0 = Date.now();
  assert.equal(await srv.stop(), 0);
  assert.ok(Date.now() - t0 < 10000);
  for (const pid of children) assert.throws(() => process.kill(Number(pid), 0));
  await client.close();
});
