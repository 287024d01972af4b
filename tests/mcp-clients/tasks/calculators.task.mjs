// Calculators: a sum clicked on the keypad (GTK 3 galculator in one
// batch, GTK 4 gnome-calculator one click at a time) and an expression
// typed into SpeedCrunch's (Qt 5) input line. Each result is read from
// the app's display through pyatspi.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { TaskFailure } from './lib/context.mjs';

// The keypad sequence of "7777 + 888 =": repeated keys, as in most sums.
const KEYS = ['7', '7', '7', '+', '8', '8', '='];
const RESULT = '865';
const label = (k) => new RegExp(`^${k.replace(/[+*]/g, '\\$&')}(\\s|$)`);

// The text of the app's showing, read-only display objects.
async function displays(ctx, app) {
  const texts = await ctx.atspi(app, 'text');
  return texts.filter((t) => t.states.includes('showing') && !t.states.includes('editable')).map((t) => t.text);
}

export default [
  {
    name: 'galculator-sum',
    toolkit: 'GTK 3',
    title: 'Compute 777 + 88 on galculator\'s keypad, clicked in one sequence',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('galculator', [], { atspiName: 'galculator' });
      const a = await ctx.agent('galculator');
      await a.untilFind('toggle button', /^AC$/, 'the keypad');
      // clear first, then the keys, batched as the app's instructions suggest
      const steps = ['AC', ...KEYS].map((k) => ['click', { element_index: a.need('toggle button', k === 'AC' ? /^AC$/ : label(k)).id }]);
      await a.sequence(steps);
      await a.observe();
      const answer = a.need('text entry area', /.*/).value.split('\\n')[0].trim();
      const shown = (await displays(ctx, 'galculator')).map((t) => t.split('\n')[0].trim());
      assert.ok(shown.includes(RESULT), `galculator's display reads ${JSON.stringify(shown)}, expected ${RESULT} (the policy read "${answer}")`);
      assert.equal(answer, RESULT, 'the answer the policy read from the state');
    },
  },
  {
    name: 'gnome-calculator-sum',
    toolkit: 'GTK 4',
    title: 'Compute 777 + 88 on gnome-calculator\'s keypad, one click per call',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('gnome-calculator', [], { atspiName: 'gnome-calculator' });
      const a = await ctx.agent('gnome-calculator');
      await a.untilFind('button', label('='), 'the keypad');
      for (const k of KEYS) await a.click(a.need('button', label(k)));
      await a.observe();
      const editable = (await ctx.atspi('gnome-calculator', 'text')).filter((t) => t.states.includes('editable'));
      const shown = editable.map((t) => t.text.trim());
      assert.ok(shown.includes(RESULT), `gnome-calculator's input line reads ${JSON.stringify(shown)}, expected ${RESULT}`);
    },
  },
  {
    name: 'speedcrunch-expression',
    toolkit: 'Qt 5',
    title: 'Type "12+30" and Return into SpeedCrunch and read the result',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('speedcrunch', [], { atspiName: 'SpeedCrunch' });
      const a = await ctx.agent('speedcrunch');
      await a.untilFind('text entry area', /.*/, 'the input line');
      const field = a.findAll('text entry area').find((e) => e.traits.includes('settable'));
      if (!field) throw new TaskFailure('no settable input line in the state');
      await a.click(field);
      await a.type('12+30\n');
      await a.observe();
      const display = (await displays(ctx, 'SpeedCrunch')).join('\n');
      const entered = (await ctx.atspi('SpeedCrunch', 'text')).filter((t) => t.states.includes('editable')).map((t) => t.text);
      assert.match(display, /12\s*\+\s*30\s*\n\s*= 42/, `SpeedCrunch's result display reads ${JSON.stringify(display)}; its input line ${JSON.stringify(entered)}`);
      assert.deepEqual(entered, [''], 'the input line is empty once the expression was evaluated');
    },
  },
];
