// A Streamable HTTP front for a stdio MCP server, for the official
// conformance suite, which speaks HTTP only
// (modelcontextprotocol/conformance#258). One server process per MCP
// session; listens on 127.0.0.1 only.
//
//   node stdio-http-bridge.mjs PORT -- CMD ARGS...   (PORT 0: any free port)
// prints http://127.0.0.1:PORT/mcp when it listens.
//
// SPDX-License-Identifier: MIT
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const port = Number(argv[0]);
const [cmd, ...args] = argv.slice(argv.indexOf('--') + 1);
const sessions = new Map();

function jsonError(res, status, code, message) {
  res.writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message } }));
}

async function newSession() {
  const child = new StdioClientTransport({ command: cmd, args, env: process.env, stderr: 'inherit' });
  const inflight = []; // client→server request ids without a response yet
  const entry = { child };
  const front = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, entry),
  });
  entry.front = front;
  front.onmessage = (msg) => {
    if ('method' in msg && 'id' in msg) inflight.push(msg.id);
    child.send(msg).catch((e) => console.error('[bridge] to server:', e.message));
  };
  child.onmessage = (msg) => {
    if (!('method' in msg)) { // a response
      const i = inflight.indexOf(msg.id);
      if (i >= 0) inflight.splice(i, 1);
      front.send(msg).catch((e) => console.error('[bridge] to client:', e.message));
      return;
    }
    // notifications and server requests go to the stream of their request
    const token = msg.params?.progressToken;
    const related = token !== undefined && inflight.includes(token) ? token : inflight.at(-1);
    front.send(msg, related !== undefined ? { relatedRequestId: related } : undefined)
      .catch((e) => console.error('[bridge] to client:', e.message));
  };
  front.onclose = () => child.close();
  child.onclose = () => { for (const [k, v] of sessions) if (v === entry) sessions.delete(k); };
  await child.start();
  return entry;
}

const server = http.createServer(async (req, res) => {
  try {
    if (!req.url.startsWith('/mcp')) return res.writeHead(404).end();
    let body;
    if (req.method === 'POST') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
        return jsonError(res, 400, -32700, 'Parse error');
      }
    }
    const sid = req.headers['mcp-session-id'];
    let entry = sid ? sessions.get(sid) : undefined;
    if (!entry) {
      if (req.method !== 'POST' || !isInitializeRequest(body))
        return jsonError(res, sid ? 404 : 400, -32000, 'No valid session');
      entry = await newSession();
    }
    await entry.front.handleRequest(req, res, body);
  } catch (e) {
    console.error('[bridge]', e);
    if (!res.headersSent) res.writeHead(500).end();
  }
});
server.listen(port, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/mcp`));
const stop = () => {
  for (const e of sessions.values()) e.child.close();
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
