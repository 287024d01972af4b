// The long-session soak (lib/soak.mjs), its two-minute run: one cua-mcp
// over three apps, every tool, valid calls only; after a 40-second
// warm-up the server's memory may grow by 4 MB at most, and its open
// descriptors, threads and zombie children not at all. tools/soak runs
// the same for 30 minutes.
//
// SPDX-License-Identifier: MIT
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE, haveDesktop } from './lib/harness.mjs';
import { soak, formatReport } from './lib/soak.mjs';

const skip = !(haveDesktop() && FIXTURE) && 'needs a desktop (cua desktop run) and the GTK3 fixture';

test('two minutes of every tool on three apps: no growth beyond the bounds, every call and check passed', { skip }, async () => {
  const r = await soak({ minutes: 2, warmup: 40 / 60 });
  console.log(formatReport(r));
  assert.deepEqual(r.failures, [], 'failed calls or checks');
  assert.deepEqual(r.protocolErrors, [], 'client-side protocol errors');
  assert.deepEqual(r.over, [], `over the bounds: ${JSON.stringify(r.growth)}`);
  // every tool ran after the warm-up's first cycles
  assert.deepEqual(Object.keys(r.latencyMs).sort(), ['click', 'drag', 'get_app_state', 'list_apps', 'perform_secondary_action',
    'press_key', 'scroll', 'select_text', 'sequence', 'set_value', 'type_text']);
  assert.ok(r.measuredCalls > 0);
});
