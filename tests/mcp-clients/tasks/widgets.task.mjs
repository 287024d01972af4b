// Sliders in gtk3-widget-factory (GTK 3) and gtk4-widget-factory (GTK 4):
// one set to a value with set_value, another dragged to its end with the
// pointer (drag, from the screenshot coordinates of its frame). The values
// are read through pyatspi.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';

// The app's enabled horizontal sliders, in tree order, with their values.
async function sliders(ctx, app) {
  const all = await ctx.atspi(app, 'slider');
  return all.filter((s) => s.states.includes('horizontal') && s.states.includes('enabled') && s.states.includes('showing'))
    .map((s) => s.value);
}

export default [
  {
    name: 'widget-factory-sliders',
    toolkit: 'GTK 3',
    title: 'In gtk3-widget-factory, set the first slider to 75 and drag the marked slider under it to its right end',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('gtk3-widget-factory', [], { atspiName: 'gtk3-widget-factory' });
      const before = await sliders(ctx, 'gtk3-widget-factory');
      assert.deepEqual(before.map((v) => [v.current, v.max]), [[50, 100], [2, 4]], 'the sliders at the start');
      const a = await ctx.agent('gtk3-widget-factory');
      const enabled = () => a.findAll('slider').filter((e) => !e.traits.includes('disabled'));
      await a.until(() => enabled().length >= 2, 'the sliders');
      await a.setValue(enabled()[0], '75');
      await a.observe();
      const marked = enabled()[1];
      const { x, y, frame, scale } = a.pixelCentre(marked);
      await a.drag(x, y, (frame.x + frame.width + 20) * scale, y);
      await a.until(() => enabled()[0]?.value === '75' && enabled()[1]?.value === '4', 'the sliders showing 75 and 4', 3000);
      const after = await sliders(ctx, 'gtk3-widget-factory');
      assert.deepEqual(after.map((v) => v.current), [75, 4], 'the sliders\' values read on the accessibility bus');
    },
  },
  {
    name: 'gtk4-widget-factory-sliders',
    toolkit: 'GTK 4',
    title: 'In gtk4-widget-factory, drag the horizontal slider that reads 2 to its right end, and set the one that reads 50 to 75',
    timeout: 120,
    async run(ctx) {
      await ctx.launch('gtk4-widget-factory', [], { atspiName: 'gtk4-widget-factory' });
      // GTK 4 names its enabled state "sensitive" and has no "showing"
      const scales = async () => (await ctx.atspi('gtk4-widget-factory', 'slider'))
        .filter((s) => s.states.includes('horizontal') && s.states.includes('sensitive')).map((s) => s.value);
      // (the other pages' sliders are there too; two of them share one value)
      const count = (list, cur, max) => list.filter((v) => v.current === cur && v.max === max).length;
      const before = await scales();
      assert.ok(count(before, 2, 4) === 1 && count(before, 50, 100) >= 1 && count(before, 75, 100) === 0,
        `the enabled horizontal sliders at the start: ${JSON.stringify(before)}`);
      const a = await ctx.agent('gtk4-widget-factory');
      // horizontal: wider than tall in the frame the state reports
      const horizontal = (value) => a.findAll('slider').find((e) => !e.traits.includes('disabled') && e.value === value
        && (() => { try { const { frame } = a.pixelCentre(e); return frame.width > frame.height; } catch { return false; } })());
      await a.until(() => horizontal('2') && horizontal('50'), 'the horizontal sliders reading 2 and 50');
      const { x, y, frame, scale } = a.pixelCentre(horizontal('2'));
      await a.drag(x, y, (frame.x + frame.width + 20) * scale, y);
      await a.observe();
      await a.setValue(horizontal('50'), '75');
      await a.until(() => horizontal('4') && horizontal('75'), 'the sliders reading 4 and 75', 3000);
      const after = await scales();
      assert.ok(count(after, 2, 4) === 0 && count(after, 4, 4) === 1 && count(after, 50, 100) === 0 && count(after, 75, 100) >= 1,
        `the sliders' values read on the accessibility bus: ${JSON.stringify(after)}`);
    },
  },
];
