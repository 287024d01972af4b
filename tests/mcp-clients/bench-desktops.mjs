// The desktop farm bench: N private desktops at once on this machine, each
// with the GTK3 fixture and its own `cua-mcp --listen`, every one driven
// through the official SDK's Streamable HTTP client with the same scripted
// task, for N = 1, 2, 4, 8 (or the counts given). Prints tasks per minute
// over all desktops, the task latency (median, p95), the CPU the machine
// was busy (its other work included: the load average before each N is
// printed), the CPU time the desktops' processes spent per task, the
// memory each desktop took (the PSS of its processes at the end) and the
// time to start them all. Run it with tools/bench/desktops.
//
// The task (one approved session per desktop, four tool calls): read the
// window (get_app_state, full tree and screenshot); set the text field to
// a text of its own; toggle a check box by its id; read the change back
// (get_app_state, diff). Each step is checked in the app's own output.
//
//   node bench-desktops.mjs [--seconds S] [--sway] [N...]
//
// SPDX-License-Identifier: MIT
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { text, stateBody, idOf } from './lib/harness.mjs';
import { startDesktops, connectDesktop } from './lib/desktops.mjs';

const argv = process.argv.slice(2);
let seconds = 30, sway = false;
const counts = [];
while (argv.length) {
  const a = argv.shift();
  if (a === '--seconds') seconds = Number(argv.shift());
  else if (a === '--sway') sway = true;
  else if (/^\d+$/.test(a)) counts.push(Number(a));
  else { console.error(`bench-desktops: unknown argument ${a}; usage: [--seconds S] [--sway] [N...]`); process.exit(2); }
}
if (!counts.length) counts.push(1, 2, 4, 8);
const APP = 'fixture-gtk3';

async function call(c, name, args) {
  const r = await c.callTool({ name, arguments: { app: APP, ...args } }, undefined, { timeout: 120000 });
  if (r.isError) throw new Error(`${name}: ${text(r)}`);
  return r;
}

// One task in desktop `d` (its client `c`); `k` makes its text unique.
async function task(d, c, k) {
  const full = stateBody(await call(c, 'get_app_state', { disable_diff: true }));
  const entry = idOf(full, /^text field .*Name:, Value: /);
  const box = idOf(full, /^checkbox Unchecked box/);
  const mark = d.fixture.mark;
  const value = `${d.name} task ${k}`;
  await call(c, 'set_value', { element_index: entry, value });
  await d.fixture.waitLine(`entry ${value}`, 30000, mark);
  await call(c, 'click', { element_index: box });
  await d.fixture.waitLine('toggled Unchecked box', 30000, mark);
  const diff = stateBody(await call(c, 'get_app_state', {}));
  if (!diff.includes(value)) throw new Error(`${d.name}: the read-back misses "${value}":\n${diff.slice(0, 400)}`);
}

function busy() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return { idle, total: f.reduce((a, b) => a + b, 0) };
}

// The processes of desktop `dir`: the servers, apps, X server, buses and
// window manager (those whose environment or command line names the
// desktop's directory).
function desktopPids(dir) {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`CUA_DESKTOP_DIR=${dir}`) ||
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
    } catch { return false; } // gone, or not ours to read
  });
}

// Their memory (proportional set sizes, MiB) and CPU time (s) so far.
function usage(pids) {
  let kb = 0, ticks = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch { /* gone */ }
  }
  return { mib: kb / 1024, cpu: ticks / 100 };
}

// the desktops of the N under way, stopped also on Ctrl+C or SIGTERM
let running = [];
for (const sig of ['SIGINT', 'SIGTERM'])
  process.once(sig, async () => {
    await Promise.all(running.map((d) => d.stop()));
    process.exit(130);
  });

const q = (s, p) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN);
const rows = [];
for (const n of counts) {
  // the machine's load before (others' work counts in the CPU column)
  const load = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const t0 = performance.now();
  let desks;
  try {
    // an overloaded machine starts apps slowly
    desks = await startDesktops(n, { serverArgs: ['--trust-apps'], startMs: 120000 }, () => sway);
  } catch (e) {
    console.error(`N=${n}: the desktops did not start: ${e.message}`);
    rows.push({ n, tasks: 0, failed: n, perMin: 0, median: NaN, p95: NaN, cpu: NaN, mem: NaN, startMs: NaN, load, cpuPerTask: NaN });
    continue;
  }
  running = desks;
  const clients = [];
  const lat = [];
  let failed = 0, startMs, mem, wall, cpu0, cpu1, pids, use0, use1;
  // every task of every desktop until the time is up; a failed one (an
  // error, a tree the overloaded app could not give in time) is counted
  const serial = desks.map(() => 0); // every task sets a text of its own
  const loop = async (d, i, end) => {
    while (performance.now() < end) {
      const k = ++serial[i];
      const a = performance.now();
      try {
        await task(d, clients[i], k);
        if (end !== Infinity) lat.push(performance.now() - a);
      } catch (e) {
        failed++;
        console.error(`${d.name}: ${e.message.split('\n')[0]}`);
      }
      if (end === Infinity) return;
    }
  };
  try {
    clients.push(...await Promise.all(desks.map((d) => connectDesktop(d))));
    startMs = performance.now() - t0;
    // one task each before the clock starts (the first observation of an
    // app costs more)
    await Promise.all(desks.map((d, i) => loop(d, i, Infinity)));
    failed = 0;
    pids = desks.flatMap((d) => desktopPids(d.dir));
    use0 = usage(pids);
    cpu0 = busy();
    const end = performance.now() + seconds * 1000;
    await Promise.all(desks.map((d, i) => loop(d, i, end)));
    wall = (performance.now() - end + seconds * 1000) / 1000;
    cpu1 = busy();
    use1 = usage(pids);
    mem = use1.mib / n;
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await Promise.all(desks.map((d) => d.stop()));
    running = [];
  }
  lat.sort((a, b) => a - b);
  rows.push({
    n, tasks: lat.length, failed, perMin: (lat.length / wall) * 60, median: q(lat, 0.5), p95: q(lat, 0.95),
    cpu: (1 - (cpu1.idle - cpu0.idle) / (cpu1.total - cpu0.total)) * 100, mem, startMs, load,
    cpuPerTask: (use1.cpu - use0.cpu) / Math.max(1, lat.length),
  });
  const r = rows.at(-1);
  console.error(`N=${n}: ${r.tasks} tasks in ${wall.toFixed(1)} s`);
}

console.log(`Desktop farm: ${sway ? 'headless sway' : 'X11 (Xvfb + openbox)'} desktops, the GTK3 fixture, cua-mcp --listen each, ` +
  `the SDK's Streamable HTTP client; ${seconds} s per N on ${cpus().length} CPUs`);
console.log('   N  tasks  failed  tasks/min  median ms   p95 ms  CPU s/task  CPU busy  MiB/desktop  start s  load before');
const f = (x, w, d = 0) => x.toFixed(d).padStart(w);
for (const r of rows)
  console.log(`${f(r.n, 4)} ${f(r.tasks, 6)} ${f(r.failed, 7)} ${f(r.perMin, 10, 1)} ${f(r.median, 10)} ${f(r.p95, 8)} ${f(r.cpuPerTask, 11, 2)} ${f(r.cpu, 8)} % ${f(r.mem, 12)} ${f(r.startMs / 1000, 8, 1)} ${f(r.load, 12, 2)}`);
process.exit(0);
