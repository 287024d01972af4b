// What a task gets from the runner: a private directory, app launching
// with a private configuration, the cua-mcp connection its policy drives,
// and the read-backs that check the result without asking cua-mcp (files,
// the accessibility bus through pyatspi, the local web site).
//
// SPDX-License-Identifier: MIT
import { spawn, execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connect, serverEnv, tempDir, sleep, appEnv } from '../../lib/harness.mjs';
import { Agent, TaskFailure } from './policy.mjs';

const run = promisify(execFile);
const LIB = dirname(fileURLToPath(import.meta.url));
const ATSPI_READ = join(LIB, 'atspi-read.py');
export const PYTHON = '/usr/bin/python3';

export class TaskContext {
  constructor(name) {
    this.name = name;
    this.dir = tempDir(`task-${name}`);
    this.transcript = [];
    this.toolsUsed = new Set();
    this.t0 = Date.now();
    this.procs = [];
    this.clients = [];
    this.cleanups = [];
  }

  path(...p) { return join(this.dir, ...p); }

  note(text) { this.transcript.push(`[${((Date.now() - this.t0) / 1000).toFixed(1)} s] # ${text}`); }

  // Environment of an app: the desktop's, with a configuration, data and
  // cache of its own, so no task sees another's settings or drafts.
  appEnv(extra = {}) {
    return appEnv(this.path('home'), extra);
  }

  // Starts an app in a process group of its own (so that its helpers
  // stop with it) and waits until it is registered on the accessibility
  // bus under `atspiName` with a window that has content. A missing
  // program is a failure of the task, never a skip.
  async launch(cmd, args, { atspiName, env = {}, cwd = this.dir, timeout = 30 } = {}) {
    const t0 = Date.now();
    const p = spawn(cmd, args, { cwd, env: this.appEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    p.stdout.on('data', (d) => out.push(String(d)));
    p.stderr.on('data', (d) => out.push(String(d)));
    const failed = new Promise((resolve) => p.once('error', (e) => resolve(e)));
    this.procs.push(p);
    const proc = { p, pid: p.pid, output: () => out.join('') };
    const waited = this.atspiWait(atspiName ?? `pid:${p.pid}`, timeout);
    const first = await Promise.race([failed, waited]);
    if (first instanceof Error) throw new TaskFailure(`cannot start ${cmd}: ${first.message}`);
    if (!first) throw new TaskFailure(`${cmd} did not show a window on the accessibility bus within ${timeout} s; output: ${proc.output().slice(-800)}`);
    this.note(`started ${cmd} (pid ${p.pid}) in ${Date.now() - t0} ms`);
    return proc;
  }

  async atspiWait(app, seconds) {
    try {
      await run(PYTHON, [ATSPI_READ, 'wait', app, String(seconds)], { timeout: (seconds + 10) * 1000 });
      return true;
    } catch {
      return false;
    }
  }

  // Objects of `app`'s windows read straight from the accessibility bus.
  async atspi(app, role = '', nameRe = '', depth) {
    const args = [ATSPI_READ, 'query', app, role];
    if (nameRe) args.push(nameRe);
    if (depth !== undefined) args.push('--depth', String(depth));
    const { stdout } = await run(PYTHON, args, { timeout: 60000, maxBuffer: 64 << 20 });
    return JSON.parse(stdout);
  }

  // A cua-mcp server for this task, and an agent on `app` driving it.
  async agent(app) {
    if (!this.client) {
      const env = serverEnv();
      this.onCleanup(() => {
        rmSync(env.XDG_CONFIG_HOME, { recursive: true, force: true });
        rmSync(env.XDG_STATE_HOME, { recursive: true, force: true });
      });
      const { client } = await connect({ args: ['--trust-apps'], name: `task-${this.name}`, env });
      this.client = client;
      this.clients.push(client);
    }
    return new Agent({ client: this.client, app, transcript: this.transcript, t0: this.t0, used: this.toolsUsed });
  }

  // Waits until `file` exists and its size has stopped changing (an app
  // writes it in the background after the save).
  async fileWritten(file, timeout = 10000) {
    const end = Date.now() + timeout;
    let last = -1;
    for (;;) {
      if (existsSync(file)) {
        const size = statSync(file).size;
        if (size > 0 && size === last) return readFileSync(file);
        last = size;
      }
      if (Date.now() > end) throw new TaskFailure(`${file} was not written within ${timeout} ms`);
      await sleep(250);
    }
  }

  onCleanup(fn) { this.cleanups.push(fn); }

  async cleanup() {
    for (const fn of this.cleanups.reverse()) await Promise.resolve().then(fn).catch(() => {});
    for (const c of this.clients) await c.close().catch(() => {});
    // the whole group: helpers may outlive the process that started them
    const signal = (sig) => {
      for (const p of this.procs) {
        try { process.kill(-p.pid, sig); } catch { /* nothing left */ }
      }
    };
    signal('SIGTERM');
    const end = Date.now() + 3000;
    while (this.procs.some((p) => p.exitCode === null && p.signalCode === null) && Date.now() < end) await sleep(100);
    signal('SIGKILL');
    // the task's files, profiles and configuration (CUA_TASKS_KEEP_DIRS=1
    // keeps them for a look after a failure)
    if (!process.env.CUA_TASKS_KEEP_DIRS) rmSync(this.dir, { recursive: true, force: true });
  }
}

export { TaskFailure, sleep };
