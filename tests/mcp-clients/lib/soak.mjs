// The long-session soak: one cua-mcp, driven by the official SDK client,
// works on three apps (mousepad and galculator, GTK 3, and the GTK 3
// fixture, whose canvas, folder tree and lists give drag, secondary
// actions and scroll a target) with every tool, valid calls only, until
// the time is up. After a warm-up it samples the server's resident
// memory, open descriptors, threads and zombie children; the report has
// their growth and each tool's latency percentiles. Used by tools/soak
// (any length) and soak.test.mjs (the short run CI makes).
//
// Needs a desktop (`cua desktop run`).
//
// SPDX-License-Identifier: MIT
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  connect, closeAll, protocolErrors, Fixture, text, stateBody, stateUntil, idOf, findId, sleep, tempDir, untilRunning, appEnv,
} from './harness.mjs';

// The bounds: growth after the warm-up. The server's memory levels off
// about 1 MB above the warm-up's (the tree cache's kept reads, until it
// reads each app afresh); 4 MB catches a cache that keeps more than it
// uses (each kept read once held 64 KiB: 19 MB over the three apps).
export const BOUNDS = { rssKiB: 4 * 1024, fds: 0, threads: 0, zombies: 0 };

// --- the server's process, read from /proc --------------------------------

function statusField(pid, name) {
  const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

// Children of `pid` that are zombies (exited, not reaped).
function zombies(pid) {
  let n = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${d}/stat`, 'utf8'); } catch { continue; }
    // "pid (comm) S ppid ...": comm may hold spaces and parentheses
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' && Number(rest[1]) === pid) n++;
  }
  return n;
}

export function sample(pid) {
  return {
    t: Date.now(),
    rssKiB: statusField(pid, 'VmRSS'),
    threads: statusField(pid, 'Threads'),
    fds: readdirSync(`/proc/${pid}/fd`).length,
    zombies: zombies(pid),
  };
}

// --- latency ----------------------------------------------------------------

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

function latencyTable(lat) {
  const out = {};
  for (const [tool, ms] of Object.entries(lat)) {
    const s = [...ms].sort((a, b) => a - b);
    out[tool] = {
      calls: s.length,
      p50: Math.round(percentile(s, 50)),
      p90: Math.round(percentile(s, 90)),
      p99: Math.round(percentile(s, 99)),
      max: Math.round(s.at(-1)),
    };
  }
  return out;
}

// --- the apps ----------------------------------------------------------------

// An app in its own process group with a configuration of its own.
function launch(cmd, args, home) {
  const p = spawn(cmd, args, { env: appEnv(home), detached: true, stdio: 'ignore' });
  p.on('error', () => {});
  return p;
}

// Stops an app's process group; resolves when the app exited.
async function stopGroup(p) {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  try { process.kill(-p.pid, 'SIGTERM'); } catch { return; }
  const t = setTimeout(() => { try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
  await done;
  clearTimeout(t);
}

// The value of element `id`'s line in a full tree body.
function lineOf(body, id) {
  return body.split('\n').find((l) => new RegExp(`^[~+]?\\t*${id} `).test(l)) ?? '';
}

// A failed call or check: counted, and the run goes on with the next
// cycle after a fresh observation of the app (so one failure does not
// cost the whole run's figures); the run fails at the end.
class CycleFailed extends Error {
  constructor(message, app) {
    super(message);
    this.app = app;
  }
}

// More failures than this end the run at once.
const MAX_FAILURES = 20;

class Soak {
  constructor({ log }) {
    this.log = log;
    this.lat = {};
    this.calls = 0;
    this.failures = [];
    this.checks = 0;
  }

  async call(name, args, app) {
    const t0 = performance.now();
    const r = await this.client.callTool({ name, arguments: { app, ...args } }, undefined, { timeout: 60000 });
    const ms = performance.now() - t0;
    (this.lat[name] ??= []).push(ms);
    this.calls++;
    if (r.isError) {
      this.failures.push(`${name} ${JSON.stringify(args)} on ${app}: ${text(r).slice(0, 400)}`);
      throw new CycleFailed(`a valid call failed: ${this.failures.at(-1)}`, app);
    }
    return r;
  }

  async full(app) {
    const r = await this.call('get_app_state', { disable_diff: true }, app);
    return { r, body: stateBody(r) };
  }

  check(ok, what, app) {
    this.checks++;
    if (!ok) {
      this.failures.push(what);
      throw new CycleFailed(what, app);
    }
  }

  // --- the fixture: every element tool -------------------------------------
  async fixtureSetup() {
    // its canvas has a frame once the window is laid out
    const r = await stateUntil(this.client, { app: 'fixture-gtk3', disable_diff: true },
      (x) => !x.isError && x.structuredContent.elements.some((e) => e.role === 'canvas' && e.frame), 30000);
    const body = stateBody(r);
    const els = r.structuredContent.elements;
    const ppp = r.structuredContent.screenshot.pixels_per_point;
    const canvas = els.find((e) => e.role === 'canvas');
    this.fx = {
      box: idOf(body, /^checkbox Unchecked box/),
      entry: idOf(body, /^text field .*Name:/),
      area: idOf(body, /^scroll area/),
      folder: idOf(body, /^cell .*Folder \d+, Secondary Actions: (Expand|Collapse)/),
      alpha: idOf(body, /^button Alpha/),
      gamma: idOf(body, /^button Gamma/),
      cx: Math.round((canvas.frame.x + 10) * ppp),
      cy: Math.round((canvas.frame.y + 10) * ppp),
      ppp,
    };
  }

  async fixtureCycle(n) {
    const app = 'fixture-gtk3', f = this.fx;
    await this.call('get_app_state', {}, app);
    await this.call('click', { element_index: f.box }, app);
    const word = `soak${n}`;
    await this.call('set_value', { element_index: f.entry, value: `${word} two three` }, app);
    await this.call('select_text', { element_index: f.entry, text: 'two' }, app);
    await this.call('click', { element_index: f.entry }, app);
    await this.call('press_key', { key: 'End' }, app);
    await this.call('type_text', { text: ' end' }, app);
    await this.call('press_key', { key: 'BackSpace' }, app);
    await this.call('scroll', { element_index: f.area, direction: n % 2 ? 'up' : 'down', pages: 0.5 }, app);
    await this.call('drag', { from_x: f.cx, from_y: f.cy, to_x: f.cx + 40 * f.ppp, to_y: f.cy + 20 * f.ppp }, app);
    await this.call('scroll', { x: f.cx, y: f.cy, direction: 'down', pages: 0.5 }, app);
    await this.call('sequence', {
      steps: [
        { tool: 'click', arguments: { element_index: f.alpha } },
        { tool: 'click', arguments: { element_index: f.gamma } },
      ],
    }, app);
    // the folder's own secondary action, as the tree names it now
    const { body } = await this.full(app);
    const folder = lineOf(body, f.folder);
    const action = /Secondary Actions: (Expand|Collapse)/.exec(folder)?.[1];
    this.check(action, `the folder ${f.folder} has no Expand/Collapse action: ${folder}`, app);
    await this.call('perform_secondary_action', { element_index: f.folder, action }, app);
    // the effects, read back: the entry holds what was typed
    this.check(lineOf(body, f.entry).includes(`Value: ${word} two three en`), `the fixture's entry: ${lineOf(body, f.entry)}`, app);
  }

  // --- galculator: clicks and sequences on a keypad -------------------------
  async galculatorSetup() {
    const r = await stateUntil(this.client, { app: 'galculator', disable_diff: true },
      (x) => !x.isError && findId(stateBody(x), /^toggle button AC/) !== null, 30000);
    const body = stateBody(r);
    const key = (k) => idOf(body, new RegExp(`^toggle button ${k.replace(/[+*]/g, '\\$&')}(\\s|,|$)`));
    this.gc = { AC: key('AC'), '+': key('+'), '=': key('=') };
    for (let d = 0; d <= 9; d++) this.gc[d] = key(String(d));
    this.gc.display = idOf(body, /^text entry area/);
  }

  async galculatorCycle(n) {
    const app = 'galculator', g = this.gc;
    const a = 10 + (n % 80), b = 3 + (n % 7);
    const keys = ['AC', ...String(a), '+', ...String(b), '='];
    const shows = (body, v) => new RegExp(`^[~+]?\\t*${g.display} text entry area (Value: )?${v}(\\D|$)`).test(lineOf(body, g.display));
    const seq = await this.call('sequence', { steps: keys.map((k) => ({ tool: 'click', arguments: { element_index: g[k] } })) }, app);
    const after = seq.structuredContent.state?.state_text ?? '';
    this.check(shows(after, a + b), `galculator's display after ${a}+${b}=: ${lineOf(after, g.display)}`, app);
    await this.call('click', { element_index: g.AC }, app);
    await this.call('click', { element_index: g[n % 10] }, app);
    const { body } = await this.full(app);
    this.check(shows(body, n % 10), `galculator's display after ${n % 10}: ${lineOf(body, g.display)}`, app);
    if (n % 5 === 0) await this.call('list_apps', {}, undefined);
  }

  // --- mousepad: typing, keys and selection in a text editor ----------------
  async mousepadSetup() {
    await untilRunning(this.client, 'org.xfce.mousepad');
    const r = await stateUntil(this.client, { app: 'org.xfce.mousepad', disable_diff: true },
      (x) => !x.isError && findId(stateBody(x), /^text entry area/) !== null, 30000);
    this.mp = { text: idOf(stateBody(r), /^text entry area/) };
  }

  async mousepadCycle(n) {
    const app = 'org.xfce.mousepad', m = this.mp;
    await this.call('click', { element_index: m.text }, app);
    await this.call('press_key', { key: 'ctrl+a' }, app);
    const line = `soak line ${n} second`;
    await this.call('type_text', { text: line }, app);
    await this.call('press_key', { key: 'Home' }, app);
    await this.call('press_key', { key: 'End' }, app);
    await this.call('type_text', { text: '!' }, app);
    // select_text finds its text in what the model last saw
    const r = await this.call('get_app_state', {}, app);
    const t = r.structuredContent.state_text;
    this.check(t.includes(`${line}!`), `mousepad's state after typing "${line}!": ${t.slice(0, 600)}`, app);
    await this.call('select_text', { element_index: m.text, text: `line ${n}` }, app);
    await this.call('scroll', { element_index: m.text, direction: 'down', pages: 0.5 }, app);
    if (n % 4 === 0) {
      const { body } = await this.full(app);
      this.check(lineOf(body, m.text).endsWith(` ${line}!`), `mousepad's text after typing "${line}!": ${lineOf(body, m.text)}`, app);
    }
  }
}

// Runs the soak for `minutes` (the first `warmup` of them are not
// measured), and on until `minCalls` tool calls were made, and resolves
// with the report; `log` gets progress lines.
export async function soak({ minutes, warmup, minCalls = 0, sampleSeconds = 10, log = () => {} }) {
  const s = new Soak({ log });
  const dir = tempDir('soak');
  const doc = join(dir, 'notes.txt');
  writeFileSync(doc, 'soak\n');
  const fixture = await new Fixture().start();
  const apps = [launch('mousepad', [doc], join(dir, 'mousepad')), launch('galculator', [], join(dir, 'galculator'))];
  const report = { minutes, warmup, minCalls, bounds: BOUNDS };
  try {
    const { client, transport } = await connect({ args: ['--trust-apps'], name: 'soak' });
    s.client = client;
    const pid = transport.pid;
    await stateUntil(client, { app: 'fixture-gtk3' });
    await s.fixtureSetup();
    await s.galculatorSetup();
    await s.mousepadSetup();
    const t0 = Date.now(), warmEnd = t0 + warmup * 60000, end = t0 + minutes * 60000;
    let base = null, last = null, nextSample = 0, n = 0, warmCalls = 0;
    const samples = [];
    const cycles = [(i) => s.fixtureCycle(i), (i) => s.galculatorCycle(i), (i) => s.mousepadCycle(i)];
    while (Date.now() < end || s.calls < minCalls) {
      try {
        await cycles[n % 3](Math.floor(n / 3));
      } catch (e) {
        if (!(e instanceof CycleFailed) || s.failures.length > MAX_FAILURES) throw e;
        log(`failure ${s.failures.length}: ${e.message}`);
        await s.full(e.app);
      }
      n++;
      const now = Date.now();
      if (!base && now >= warmEnd) {
        base = sample(pid);
        warmCalls = s.calls;
        samples.push(base);
        nextSample = now + sampleSeconds * 1000;
        log(`warm-up over after ${s.calls} calls: rss ${base.rssKiB} KiB, ${base.fds} fds, ${base.threads} threads`);
      } else if (base && now >= nextSample) {
        last = sample(pid);
        samples.push(last);
        nextSample = now + sampleSeconds * 1000;
        log(`${Math.round((now - t0) / 1000)} s, ${s.calls} calls: rss ${last.rssKiB} KiB (+${last.rssKiB - base.rssKiB}), ${last.fds} fds, ${last.threads} threads, ${last.zombies} zombies`);
      }
    }
    // the end, between calls (the server is idle)
    await sleep(500);
    last = sample(pid);
    samples.push(last);
    if (!base) throw new Error('soak: the run ended before its warm-up');
    const growth = {
      rssKiB: last.rssKiB - base.rssKiB,
      fds: last.fds - base.fds,
      threads: last.threads - base.threads,
      zombies: last.zombies - base.zombies,
    };
    Object.assign(report, {
      calls: s.calls,
      measuredCalls: s.calls - warmCalls,
      cycles: n,
      checks: s.checks,
      seconds: Math.round((Date.now() - t0) / 1000),
      base, last,
      peakRssKiB: Math.max(...samples.map((x) => x.rssKiB)),
      growth,
      latencyMs: latencyTable(s.lat),
      over: Object.keys(BOUNDS).filter((k) => growth[k] > BOUNDS[k]),
      failures: s.failures,
      protocolErrors: [...protocolErrors],
    });
    return report;
  } finally {
    await closeAll();
    await fixture.stop();
    await Promise.all(apps.map(stopGroup));
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

// The report as text: the figures, then one line per tool.
export function formatReport(r) {
  const lines = [
    `soak: ${r.seconds} s, ${r.calls} tool calls (${r.measuredCalls} after a warm-up of ${Math.round(r.warmup * 60)} s), ${r.cycles} app cycles, ${r.checks} effect checks`,
    `  rss      ${r.base.rssKiB} -> ${r.last.rssKiB} KiB (growth ${r.growth.rssKiB} KiB, bound ${r.bounds.rssKiB}; peak ${r.peakRssKiB})`,
    `  fds      ${r.base.fds} -> ${r.last.fds}`,
    `  threads  ${r.base.threads} -> ${r.last.threads}`,
    `  zombies  ${r.base.zombies} -> ${r.last.zombies}`,
    '  latency (ms)               calls    p50    p90    p99    max',
  ];
  for (const [tool, l] of Object.entries(r.latencyMs).sort()) {
    lines.push(`  ${tool.padEnd(26)} ${String(l.calls).padStart(5)} ${String(l.p50).padStart(6)} ${String(l.p90).padStart(6)} ${String(l.p99).padStart(6)} ${String(l.max).padStart(6)}`);
  }
  for (const f of r.failures) lines.push(`  FAILED: ${f}`);
  lines.push(r.over.length ? `  OVER THE BOUNDS: ${r.over.join(', ')}` : '  within the bounds');
  return lines.join('\n');
}
