// tools/soak's client: runs lib/soak.mjs for --minutes (default 30) with a
// --warmup (default 2 minutes), and on until --calls tool calls were
// made (default 0), prints the report (and, with --json FILE,
// writes it as JSON) and exits 1 when a bound is exceeded or a call
// failed. Needs a desktop: tools/soak starts one.
//
// SPDX-License-Identifier: MIT
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { soak, formatReport } from './lib/soak.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '2' },
    calls: { type: 'string', default: '0' },
    json: { type: 'string' },
  },
});
const minutes = Number(values.minutes), warmup = Number(values.warmup);
if (!(minutes > 0) || !(warmup >= 0) || warmup >= minutes) {
  console.error('soak: --minutes must be a positive number and --warmup a smaller one');
  process.exit(2);
}
const log = (l) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${l}`);
try {
  const r = await soak({ minutes, warmup, minCalls: Number(values.calls), log });
  if (values.json) writeFileSync(values.json, `${JSON.stringify(r, null, 2)}\n`);
  console.log(formatReport(r));
  process.exit(r.over.length || r.failures.length || r.protocolErrors.length ? 1 : 0);
} catch (e) {
  console.error(e.stack ?? String(e));
  process.exit(1);
}
