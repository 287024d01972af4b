// Records a real session for the README: the official SDK client starts
// `cua-mcp --headless` with a host's bare environment (the server starts
// its own desktop), approves the app when asked, and drives
// gtk3-widget-factory. Prints every JSON-RPC message (image data elided).
//
//   CUA_MCP=build/tools/cua-mcp node transcript.mjs
//
// SPDX-License-Identifier: MIT
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SERVER, DATA_DIR, tempDir, text, sleep } from './lib/harness.mjs';

const transport = new StdioClientTransport({
  command: SERVER, args: ['--data-dir', DATA_DIR, '--headless'],
  env: { XDG_RUNTIME_DIR: tempDir('runtime'), XDG_CONFIG_HOME: tempDir('config'), XDG_STATE_HOME: tempDir('state') },
  stderr: 'ignore',
});
const show = (dir, msg) => {
  const m = JSON.parse(JSON.stringify(msg));
  for (const c of Array.isArray(m.result?.content) ? m.result.content : []) if (c.type === 'image') c.data = `<${Buffer.from(c.data, 'base64').length} bytes of JPEG, base64>`;
  if (m.result?.structuredContent) m.result.structuredContent = '<…>';
  if (m.result?.tools) m.result.tools = `<${m.result.tools.length} tools>`;
  if (m.result?.instructions) m.result.instructions = '<server instructions>';
  console.log(`${dir} ${JSON.stringify(m)}`);
};
const send = transport.send.bind(transport);
transport.send = (msg, o) => { show('→', msg); return send(msg, o); };
const start = transport.start.bind(transport);
transport.start = async () => {
  await start();
  const on = transport.onmessage;
  transport.onmessage = (m) => { show('←', m); on?.(m); };
};

const client = new Client({ name: 'transcript', version: '1.0' }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { scope: 'session' } }));
await client.connect(transport);
await client.listTools();
const app = 'gtk3-widget-factory';
let r;
for (let i = 0; i < 20; i++) { // the first call launches it
  r = await client.callTool({ name: 'get_app_state', arguments: { app } });
  if (!r.isError && /checkbox checkbutton, Value: off/.test(text(r))) break;
  await sleep(500);
}
const box = /\n\t(\d+) checkbox checkbutton, Value: off/.exec(text(r))[1];
const field = /\n\t(\d+) text field \(settable, string\) Value: entry,/.exec(text(r))[1];
await client.callTool({ name: 'click', arguments: { app, element_index: box } });
await client.callTool({ name: 'click', arguments: { app, element_index: field } });
await client.callTool({ name: 'press_key', arguments: { app, key: 'ctrl+a' } });
await client.callTool({ name: 'type_text', arguments: { app, text: 'Hello from cua-mcp' } });
await client.callTool({ name: 'get_app_state', arguments: { app } });
await client.callTool({ name: 'click', arguments: { app, element_index: '9999' } });
await client.close();
