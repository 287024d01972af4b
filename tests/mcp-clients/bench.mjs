// Round-trip times of get_app_state (text + JPEG) and of a click through
// the official SDK client, on gtk3-widget-factory and LibreOffice Writer.
// Run it with ./bench (it starts a headless desktop); prints a table.
// With CUA_MCP_TRANSPORT=http the same calls go over MCP Streamable HTTP
// (`cua-mcp --listen`, the SDK's StreamableHTTPClientTransport).
//
//   CUA_MCP=build/tools/cua-mcp node bench.mjs [ITERATIONS]
//
// SPDX-License-Identifier: MIT
import { performance } from 'node:perf_hooks';
import { connect, closeAll, text, stateBody, sleep, findId } from './lib/harness.mjs';

const N = Number(process.argv[2] ?? 20);

// app, the element to click (a harmless one whose state every click
// changes: a check box, a toggle button), and what to do first
const APPS = [
  { app: 'gtk3-widget-factory', click: /^checkbox checkbutton, Value: (on|off)$/ },
  { app: 'libreoffice-writer', click: /^toggle button .*Formatting Marks/, dismiss: /^button OK$/ },
];


// The text after the id of element `id`'s line in a full tree or a diff
// (null: not in it; in a diff, unchanged).
function lineOf(body, id) {
  const m = new RegExp(`^[~+]?\\t*${id} (.*)$`, 'm').exec(body);
  return m ? m[1] : null;
}

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), min: s[0], max: s.at(-1), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

async function time(fn) {
  const t0 = performance.now();
  const r = await fn();
  return [performance.now() - t0, r];
}

const { client } = await connect({ args: ['--trust-apps'] });
const rows = [];
// the transport alone: ping and a list_apps
const pings = [], lists = [];
for (let i = 0; i < N; i++) {
  pings.push((await time(() => client.ping()))[0]);
  lists.push((await time(() => client.callTool({ name: 'list_apps', arguments: {} })))[0]);
}
for (const { app, click, dismiss } of APPS) {
  // launch (get_app_state starts an installed app) and wait until it settles
  let r;
  const [launch] = await time(async () => {
    for (let i = 0; i < 60; i++) {
      r = await client.callTool({ name: 'get_app_state', arguments: { app, disable_diff: true } });
      if (!r.isError && findId(stateBody(r), dismiss ?? click)) break;
      await sleep(500);
    }
  });
  if (r.isError) throw new Error(`${app}: ${text(r)}`);
  if (dismiss && findId(stateBody(r), dismiss)) { // Writer's "Tip of the Day"
    await client.callTool({ name: 'click', arguments: { app, element_index: findId(stateBody(r), dismiss) } });
    for (let i = 0; i < 20 && !findId(stateBody(r), click); i++) {
      await sleep(500);
      r = await client.callTool({ name: 'get_app_state', arguments: { app, disable_diff: true } });
    }
  }
  const target = findId(stateBody(r), click);
  if (!target) throw new Error(`${app}: nothing matches ${click}`);
  const full = [], diff = [], clicks = [], server = [], observeMs = [];
  let sizes;
  for (let i = 0; i < N; i++) {
    const [ms, s] = await time(() => client.callTool({ name: 'get_app_state', arguments: { app, disable_diff: true } }));
    full.push(ms);
    server.push(s.structuredContent.timings_ms.total);
    observeMs.push(s.structuredContent.timings_ms.observe);
    sizes = { lines: stateBody(s).split('\n').length, text: text(s).length, jpeg: Buffer.from(s.content[1]?.data ?? '', 'base64').length,
      image: `${s.structuredContent?.screenshot?.width}x${s.structuredContent?.screenshot?.height}`, response: JSON.stringify(s).length };
  }
  // every click changes the target's state, and the observation after it
  // shows that change (a click that changed nothing, or an observation
  // that missed it, would time a no-op)
  let line = lineOf(stateBody(r), target);
  for (let i = 0; i < N; i++) {
    const [ms, c] = await time(() => client.callTool({ name: 'click', arguments: { app, element_index: target } }));
    if (c.isError) throw new Error(`${app}: click: ${text(c)}`);
    clicks.push(ms);
    const [ms2, d] = await time(() => client.callTool({ name: 'get_app_state', arguments: { app } }));
    diff.push(ms2);
    const now = lineOf(stateBody(d) ?? '', target);
    if (now === null || now === line) throw new Error(`${app}: click ${i + 1} on ${target} (${line}) changed nothing:\n${stateBody(d)?.slice(0, 400)}`);
    line = now;
  }
  rows.push({ app, launch, sizes, full: stats(full), server: stats(server), observe: stats(observeMs), clickThenDiff: stats(diff), click: stats(clicks) });
}
await closeAll();

const f = (x) => x.toFixed(1).padStart(7);
const transport = process.env.CUA_MCP_TRANSPORT === 'http' ? 'Streamable HTTP' : 'stdio';
console.log(`cua-mcp round trips through the TypeScript SDK client over ${transport}, ${N} iterations each (ms)`);
console.log('app                  measure                          median     p90     min     max');
for (const [name, s] of [['ping', stats(pings)], ['list_apps', stats(lists)]])
  console.log(`${'-'.padEnd(20)} ${name.padEnd(32)}${f(s.median)} ${f(s.p90)} ${f(s.min)} ${f(s.max)}`);
for (const r of rows) {
  for (const [name, s] of [['get_app_state full (text+JPEG)', r.full], ['  in cua-mcp (tool time)', r.server], ['  of which libcua observe', r.observe],
    ['click by index (state changes)', r.click], ['get_app_state after click (diff)', r.clickThenDiff]])
    console.log(`${r.app.padEnd(20)} ${name.padEnd(32)}${f(s.median)} ${f(s.p90)} ${f(s.min)} ${f(s.max)}`);
  console.log(`${''.padEnd(20)} tree ${r.sizes.lines} lines, text ${r.sizes.text} chars, JPEG ${r.sizes.image} ${r.sizes.jpeg} bytes, response ${r.sizes.response} bytes; first get_app_state incl. launch ${r.launch.toFixed(0)} ms`);
}
