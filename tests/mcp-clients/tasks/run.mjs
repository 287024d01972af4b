// Runs the task suite: realistic multi-step tasks on real apps, each one
// driven through cua-mcp by the official SDK client with a scripted
// policy (lib/policy.mjs) and checked independently of the server.
// Needs a desktop: run it under `cua desktop run` (tasks/run does).
//
//   node tasks/run.mjs [NAME...]     only the tasks named (all by default)
//
// Prints one line per task, then the pass rate, and exits 1 when any task
// failed. After a passed task, a line `# covers TOOLKIT: TOOL...` names the
// tools that answered without an error during it (tools/coverage builds
// docs/coverage.md from these lines). A failed task's transcript (every call and a short answer, every
// observed state) goes to $CUA_TASKS_LOG_DIR (default: a temporary
// directory), NAME.log; with CUA_TASKS_KEEP_LOGS=1 every task's does.
//
// SPDX-License-Identifier: MIT
import { readdirSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { haveDesktop } from '../lib/harness.mjs';
import { TaskContext } from './lib/context.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const t0 = Date.now();

async function loadTasks() {
  const files = readdirSync(HERE).filter((f) => f.endsWith('.task.mjs')).sort();
  const tasks = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(join(HERE, f)).href);
    for (const t of mod.default) tasks.push({ ...t, file: f });
  }
  return tasks;
}

function withTimeout(promise, ms, name) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const all = await loadTasks();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.some((t) => t.name === w));
if (unknown.length) {
  console.error(`unknown task(s): ${unknown.join(', ')}; the tasks are: ${all.map((t) => t.name).join(', ')}`);
  process.exit(2);
}
const tasks = wanted.length ? all.filter((t) => wanted.includes(t.name)) : all;
if (!haveDesktop()) {
  console.error('tasks/run.mjs needs a desktop: run it as `cua desktop run -- tasks/run`');
  process.exit(1);
}
const logDir = process.env.CUA_TASKS_LOG_DIR ?? join(tmpdir(), `cua-tasks-${process.pid}`);
mkdirSync(logDir, { recursive: true });

const results = [];
for (const task of tasks) {
  rmSync(join(logDir, `${task.name}.log`), { force: true }); // from an earlier run
  const ctx = new TaskContext(task.name);
  const start = Date.now();
  let error = null;
  try {
    await withTimeout(task.run(ctx), (task.timeout ?? 60) * 1000, task.name);
  } catch (e) {
    error = e;
  }
  // what the app's own state says, read before its processes are stopped
  let evidence = '';
  if (error && task.evidence) {
    evidence = await withTimeout(task.evidence(ctx), 20000, 'evidence').catch((e) => `(no evidence: ${e.message})`);
  }
  await ctx.cleanup();
  const secs = ((Date.now() - start) / 1000).toFixed(1);
  const line = `${error ? 'FAIL' : 'PASS'} ${task.name} [${task.toolkit}] (${secs} s)`;
  console.log(error ? `${line}: ${error.message}` : line);
  // what the passed task verified, for the coverage matrix (tools/coverage)
  if (!error && ctx.toolsUsed.size) console.log(`# covers ${task.toolkit}: ${[...ctx.toolsUsed].sort().join(' ')}`);
  const log = join(logDir, `${task.name}.log`);
  if (error || process.env.CUA_TASKS_KEEP_LOGS) {
    writeFileSync(log, `${task.name}: ${task.title}\n${error ? error.stack : 'passed'}\n${evidence ? `evidence: ${evidence}\n` : ''}\n${ctx.transcript.join('\n')}\n`);
  }
  if (error) {
    if (evidence) console.log(`  evidence: ${evidence}`);
    const calls = ctx.transcript.filter((l) => !l.startsWith('    |'));
    console.log(`  transcript: ${log}; the last calls:`);
    for (const l of calls.slice(-6)) console.log(`    ${l.replace(/\n/g, '\n    ')}`);
  }
  results.push({ task, error, secs });
}

const passed = results.filter((r) => !r.error).length;
const wall = ((Date.now() - t0) / 1000).toFixed(0);
console.log(`\npass rate: ${passed}/${results.length} (${Math.round((100 * passed) / Math.max(results.length, 1))} %), wall time ${wall} s`);
process.exit(passed === results.length ? 0 : 1);
