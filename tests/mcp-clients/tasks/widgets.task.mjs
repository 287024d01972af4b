// Sliders in gtk3-widget-factory (GTK 3): one set to a value with
// set_value, another dragged to its end with the pointer (drag, from the
// screenshot coordinates of its frame). The values are read through
// pyatspi.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';

// The app's enabled horizontal sliders, in tree order, with their values.
async function sliders(ctx) {
  const all = await ctx.atspi('gtk3-widget-factory', 'slider');
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
      const before = await sliders(ctx);
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
      const after = await sliders(ctx);
      assert.deepEqual(after.map((v) => v.current), [75, 4], 'the sliders\' values read on the accessibility bus');
    },
  },
];
