// Raw protocol edge cases that no SDK sends (docs/mcp.md §3.4), over a bare
// pipe: malformed JSON, arrays, null and missing ids, huge lines, unknown
// methods, calls before initialize, id types, EOF and signals. Needs no
// desktop.
//
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SERVER, DATA_DIR, serverEnv, sleep } from './lib/harness.mjs';

const INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

// A server on a bare pipe: write lines, read messages.
class Raw {
  constructor(args = []) {
    this.p = spawn(SERVER, ['--data-dir', DATA_DIR, ...args], { env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.messages = [];
    this.junk = [];
    this.stderr = '';
    this.waiters = [];
    let buf = '';
    this.p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try { this.messages.push(JSON.parse(line)); } catch { this.junk.push(line); }
        this.waiters = this.waiters.filter((w) => !w());
      }
    });
    this.p.stderr.on('data', (d) => { this.stderr += d; });
    this.p.stdin.on('error', () => {}); // a server that exited: EPIPE is expected in some tests
    this.exited = once(this.p, 'exit');
  }

  send(msg) { this.p.stdin.write(typeof msg === 'string' ? msg : `${JSON.stringify(msg)}\n`); }

  // Waits until `n` messages arrived in total.
  async waitCount(n, timeout = 5000) {
    if (this.messages.length >= n) return this.messages;
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`only ${this.messages.length} of ${n} messages: ${JSON.stringify(this.messages)}`)), timeout);
      this.waiters.push(() => {
        if (this.messages.length < n) return false;
        clearTimeout(t);
        resolve();
        return true;
      });
    });
    return this.messages;
  }

  async init() {
    this.send(INIT);
    this.send(INITIALIZED);
    await this.waitCount(1);
  }

  async close() {
    this.p.stdin.end();
    const [code] = await this.exited;
    assert.deepEqual(this.junk, [], 'only JSON-RPC messages on stdout');
    return code;
  }
}

test('parse error: -32700 without an id, and the server keeps running', async () => {
  const s = new Raw();
  s.send('{"jsonrpc":"2.0","id":1,"method":\n');
  s.send('not json at all\n');
  s.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
  const m = await s.waitCount(3);
  for (const e of m.slice(0, 2)) {
    assert.equal(e.error.code, -32700);
    assert.equal('id' in e, false, 'never "id": null');
    assert.equal(e.jsonrpc, '2.0');
  }
  assert.deepEqual(m[2], { jsonrpc: '2.0', id: 'p', result: {} });
  assert.equal(await s.close(), 0);
});

test('invalid requests: arrays (batches), scalars, bad jsonrpc, bad ids, bad params', async () => {
  const s = new Raw();
  await s.init();
  const cases = [
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n', undefined],
    ['[]\n', undefined],
    ['42\n', undefined],
    ['"ping"\n', undefined],
    ['{"id":2,"method":"ping"}\n', 2], // no jsonrpc
    ['{"jsonrpc":"1.0","id":3,"method":"ping"}\n', 3],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}\n', undefined],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n', undefined],
    ['{"jsonrpc":"2.0","id":true,"method":"ping"}\n', undefined],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n', undefined],
    ['{"jsonrpc":"2.0","id":4,"method":7}\n', 4],
    ['{"jsonrpc":"2.0","id":5}\n', 5], // neither method nor result
  ];
  for (const [line] of cases) s.send(line);
  const m = (await s.waitCount(1 + cases.length)).slice(1);
  cases.forEach(([line, id], i) => {
    assert.equal(m[i].error?.code, -32600, line);
    if (id === undefined) assert.equal('id' in m[i], false, line);
    else assert.equal(m[i].id, id, line);
  });
  s.send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: ['get_app_state'] });
  s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } });
  s.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'click', arguments: 'x' } });
  const [a, b, c] = (await s.waitCount(1 + cases.length + 3)).slice(-3);
  assert.deepEqual([a.id, a.error.code, b.id, b.error.code, c.id, c.error.code], [6, -32602, 7, -32602, 8, -32602]);
  assert.equal(await s.close(), 0);
});

test('ids are echoed with their JSON type, 0 included; notifications get no answer', async () => {
  const s = new Raw();
  s.send({ ...INIT, id: 0 });
  s.send(INITIALIZED);
  s.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: {} });
  s.send({ jsonrpc: '2.0', method: 'ping' }); // a notification named ping: no answer
  s.send({ jsonrpc: '2.0', id: '0', method: 'ping' });
  s.send({ jsonrpc: '2.0', id: -7, method: 'ping' });
  s.send({ jsonrpc: '2.0', id: 'a/b "c"', method: 'ping' });
  s.send({ jsonrpc: '2.0', id: 9007199254740991, method: 'ping' });
  const m = await s.waitCount(5);
  await sleep(200);
  assert.equal(s.messages.length, 5, 'notifications are never answered');
  assert.equal(m[0].id, 0);
  assert.equal(m[0].result.protocolVersion, '2025-11-25');
  assert.deepEqual(m.slice(1).map((x) => x.id), ['0', -7, 'a/b "c"', 9007199254740991]);
  assert.equal(await s.close(), 0);
});

test('before initialize: ping works, known methods are -32600, unknown ones -32601', async () => {
  const s = new Raw();
  s.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  s.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  s.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_apps', arguments: {} } });
  s.send({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
  const m = await s.waitCount(4);
  assert.deepEqual(m.map((x) => [x.id, x.result ? 'ok' : x.error.code]), [[1, 'ok'], [2, -32600], [3, -32600], [4, -32601]]);
  // then a normal session on the same pipe
  await s.init();
  s.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
  const [last] = (await s.waitCount(6)).slice(-1);
  assert.equal(last.result.tools.length, 11);
  assert.equal(await s.close(), 0);
});

test('server/discover (2026 probe) gets -32601; initialize follows on the same pipe; a second initialize is refused', async () => {
  const s = new Raw();
  s.send({ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
  const [probe] = await s.waitCount(1);
  assert.equal(probe.id, 'server-discover-probe-1');
  assert.equal(probe.error.code, -32601);
  await s.init();
  s.send({ ...INIT, id: 2 });
  const m = await s.waitCount(3);
  assert.equal(m[1].result.protocolVersion, '2025-11-25');
  assert.equal(m[2].error.code, -32600);
  assert.equal(await s.close(), 0);
});

test('unknown methods after initialize: -32601, and the server keeps running', async () => {
  const s = new Raw();
  await s.init();
  for (const method of ['prompts/list', 'resources/read', 'tasks/get', 'completion/complete', 'foo'])
    s.send({ jsonrpc: '2.0', id: method, method });
  s.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
  const m = (await s.waitCount(7)).slice(1);
  assert.deepEqual(m.slice(0, 5).map((x) => x.error.code), Array(5).fill(-32601));
  assert.deepEqual(m[5].result, {});
  assert.equal(await s.close(), 0);
});

test('a line over 8 MiB is rejected before parsing; the next line is served', async () => {
  const s = new Raw();
  await s.init();
  const big = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"type_text","arguments":{"app":"x","text":"${'a'.repeat(8 * 1024 * 1024 + 10)}"}}}\n`;
  // written in pieces, as a pipe delivers it
  for (let i = 0; i < big.length; i += 1 << 20) s.send(big.slice(i, i + (1 << 20)));
  s.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
  const m = await s.waitCount(3, 20000);
  assert.equal(m[1].error.code, -32600);
  assert.match(m[1].error.message, /8388608/);
  assert.equal('id' in m[1], false);
  assert.deepEqual(m[2], { jsonrpc: '2.0', id: 'after', result: {} });
  assert.equal(await s.close(), 0);
});

test('a line just under 8 MiB is parsed (and validated as a tool call)', async () => {
  const s = new Raw();
  await s.init();
  const prefix = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"type_text","arguments":{"text":"';
  const suffix = '"}}}';
  s.send(`${prefix}${'a'.repeat(8 * 1024 * 1024 - prefix.length - suffix.length)}${suffix}\n`);
  const m = await s.waitCount(2, 20000);
  assert.equal(m[1].id, 1);
  assert.equal(m[1].result.isError, true);
  assert.equal(m[1].result.content[0].text, 'Missing required argument: app');
  assert.equal(await s.close(), 0);
});

test('CRLF line endings, blank lines and Content-Length framing', async () => {
  const s = new Raw();
  await s.init();
  s.send('\n   \n');
  s.send('{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n');
  s.send('Content-Length: 40\r\n');
  const m = await s.waitCount(3);
  assert.deepEqual(m[1], { jsonrpc: '2.0', id: 'crlf', result: {} });
  assert.equal(m[2].error.code, -32700);
  assert.equal(await s.close(), 0);
});

test('responses from the client to no pending request are ignored', async () => {
  const s = new Raw();
  await s.init();
  s.send({ jsonrpc: '2.0', id: 'cua-99', result: { action: 'accept' } });
  s.send({ jsonrpc: '2.0', id: 12, error: { code: -1, message: 'x' } });
  s.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
  const m = await s.waitCount(2);
  assert.deepEqual(m[1], { jsonrpc: '2.0', id: 'p', result: {} });
  assert.equal(await s.close(), 0);
});

test('cancelling an unknown or finished request is harmless', async () => {
  const s = new Raw();
  await s.init();
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12345, reason: 'x' } });
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} });
  s.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
  assert.deepEqual((await s.waitCount(2))[1], { jsonrpc: '2.0', id: 'p', result: {} });
  assert.equal(await s.close(), 0);
});

test('stdin EOF: exits 0 within a second; queued calls are still answered', async () => {
  const s = new Raw();
  s.send(INIT);
  s.send(INITIALIZED);
  s.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_app_state', arguments: {} } });
  const t0 = Date.now();
  s.p.stdin.end();
  const [code] = await s.exited;
  assert.equal(code, 0);
  assert.ok(Date.now() - t0 < 1000, `exit took ${Date.now() - t0} ms`);
  assert.equal(s.messages.at(-1).id, 1);
  assert.equal(s.messages.at(-1).result.content[0].text, 'Missing required argument: app');
});

for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${sig}: exits 0 promptly`, async () => {
    const s = new Raw();
    await s.init();
    const t0 = Date.now();
    s.p.kill(sig);
    const [code, signal] = await s.exited;
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.ok(Date.now() - t0 < 1000);
  });
}

test('a closed stdout (EPIPE) ends the server instead of wedging it', async () => {
  const s = new Raw();
  await s.init();
  s.p.stdout.destroy();
  for (let i = 0; i < 50; i++) s.send({ jsonrpc: '2.0', id: i, method: 'tools/list' });
  const [code, signal] = await s.exited;
  assert.equal(signal, null, 'SIGPIPE is ignored');
  assert.equal(code, 0);
});

test('garbage bytes and invalid UTF-8 never crash it', async () => {
  const s = new Raw();
  await s.init();
  s.p.stdin.write(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a]));
  s.p.stdin.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","method":"ping"}\n')]));
  s.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":${'['.repeat(100000)}\n`);
  s.send({ jsonrpc: '2.0', id: 'alive', method: 'ping' });
  const m = await s.waitCount(5);
  assert.deepEqual(m.slice(1, 4).map((x) => x.error?.code), [-32700, -32700, -32700]);
  assert.deepEqual(m[4], { jsonrpc: '2.0', id: 'alive', result: {} });
  assert.equal(await s.close(), 0);
});
