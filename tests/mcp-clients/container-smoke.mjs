// Drives a running desktop container (tools/container) over MCP Streamable
// HTTP with the official SDK client: lists the tools, reads an app (the
// approval asked through elicitation is accepted for the session), types
// into its first text field and reads the text back. Exits 0 when all of
// it worked. docs/scale.md §3.
//
//   node container-smoke.mjs URL TOKEN_FILE [APP]
//   (APP default gtk3-widget-factory)
//
// SPDX-License-Identifier: MIT
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { text, stateBody, stateUntil, findId } from './lib/harness.mjs';

const [url, tokenFile, app = 'gtk3-widget-factory'] = process.argv.slice(2);
if (!url || !tokenFile) {
  console.error('usage: node container-smoke.mjs URL TOKEN_FILE [APP]');
  process.exit(2);
}
const token = readFileSync(tokenFile, 'utf8').trim();
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'container-smoke', version: '0.0.1' }, { capabilities: { elicitation: {} } });
let asked = 0;
client.setRequestHandler(ElicitRequestSchema, async () => { asked++; return { action: 'accept', content: { scope: 'session' } }; });
await client.connect(transport);
const fail = async (why) => { console.error(`container-smoke: ${why}`); await client.close(); process.exit(1); };

const tools = (await client.listTools()).tools.map((t) => t.name);
console.log(`tools: ${tools.join(' ')}`);
if (!tools.includes('get_app_state')) await fail('no get_app_state tool');
const r = await stateUntil(client, { app, disable_diff: true }, (x) => !x.isError, 60000);
if (r.isError) await fail(`get_app_state ${app}: ${text(r)}`);
const body = stateBody(r);
const shot = r.content.find((c) => c.type === 'image');
console.log(`${app}: ${body.split('\n').length} tree lines, screenshot ${shot ? Buffer.from(shot.data, 'base64').length : 0} bytes, approvals asked ${asked}`);
const field = findId(body, /^(text field|text|entry)\b/);
if (!field) await fail(`no text field in ${app}`);
const value = `typed over HTTP ${process.pid}`;
const set = await client.callTool({ name: 'set_value', arguments: { app, element_index: field, value } });
if (set.isError) await fail(`set_value: ${text(set)}`);
const back = await client.callTool({ name: 'get_app_state', arguments: { app, disable_diff: true } });
if (!stateBody(back)?.includes(value)) await fail(`the text did not read back:\n${stateBody(back)?.slice(0, 500)}`);
console.log(`set_value on element ${field} read back: "${value}"`);
const sid = transport.sessionId;
await client.close();
await fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${token}`, 'Mcp-Session-Id': sid } }).catch(() => {});
