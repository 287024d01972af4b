// Menus: open a menu by its title in the menu bar and choose an item, in
// GTK 3 (galculator: View → Scientific Mode) and Qt 5 (SpeedCrunch:
// Settings → Angle Unit → Degree). The effect is read through pyatspi:
// the item's checked state, and for galculator the scientific keypad.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';

// The checked state of every item of `role` named by `names`.
async function checked(ctx, app, names) {
  const items = await ctx.atspi(app, '', `^(${names.join('|')})$`);
  const out = {};
  for (const i of items.filter((x) => /menu item/.test(x.role))) out[i.name] = i.states.includes('checked');
  return out;
}

// The app's toplevel windows: role and name.
async function toplevels(ctx, app) {
  return (await ctx.atspi(app, '', '', 1)).filter((x) => x.path.length === 1).map((x) => `${x.role} "${x.name}"`);
}

export default [
  {
    name: 'galculator-menu',
    toolkit: 'GTK 3',
    title: 'Switch galculator to scientific mode through View → Scientific Mode',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('galculator', [], { atspiName: 'galculator' });
      const before = await checked(ctx, 'galculator', ['Basic Mode', 'Scientific Mode']);
      assert.deepEqual(before, { 'Basic Mode': true, 'Scientific Mode': false }, 'galculator starts in basic mode');
      const a = await ctx.agent('galculator');
      const view = await a.untilFind('', /^View$/, 'the View menu title');
      await a.click(view);
      const item = await a.untilFind('menu item', /^Scientific Mode$/, 'the open View menu');
      await a.click(item);
      await a.untilFind('toggle button', /^sin$/, 'the scientific keypad');
      const after = await checked(ctx, 'galculator', ['Basic Mode', 'Scientific Mode']);
      assert.deepEqual(after, { 'Basic Mode': false, 'Scientific Mode': true }, 'the mode items after the choice');
      const sin = (await ctx.atspi('galculator', 'toggle button', '^sin$')).filter((b) => b.states.includes('showing'));
      assert.equal(sin.length, 1, 'the "sin" key of the scientific keypad is on screen');
    },
  },
  {
    name: 'speedcrunch-menu',
    toolkit: 'Qt 5',
    title: 'Set SpeedCrunch\'s angle unit to degrees through Settings → Angle Unit → Degree',
    timeout: 40,
    async run(ctx) {
      await ctx.launch('speedcrunch', [], { atspiName: 'SpeedCrunch' });
      const units = ['Radian', 'Degree'];
      const before = await checked(ctx, 'SpeedCrunch', units);
      assert.equal(before.Degree, false, `the angle unit is not degrees at the start: ${JSON.stringify(before)}`);
      const windows = await toplevels(ctx, 'SpeedCrunch');
      const a = await ctx.agent('speedcrunch');
      const settings = await a.untilFind('', /^Settings$/, 'the Settings menu title');
      await a.click(settings);
      const angle = await a.untilFind('menu item', /^Angle Unit$/, 'the open Settings menu');
      await a.click(angle);
      const degree = await a.untilFind('menu item', /^Degree$/, 'the open Angle Unit submenu');
      await a.click(degree);
      const after = await checked(ctx, 'SpeedCrunch', units);
      assert.deepEqual(after, { Radian: false, Degree: true }, 'the angle-unit items after the choice');
      const later = (await toplevels(ctx, 'SpeedCrunch')).filter((w) => !/popup menu|menu"/.test(w));
      assert.deepEqual(later, windows, 'no other window (dialog) opened');
    },
    async evidence(ctx) {
      return `SpeedCrunch's windows: ${(await toplevels(ctx, 'SpeedCrunch')).join(', ')}; `
        + `angle units checked: ${JSON.stringify(await checked(ctx, 'SpeedCrunch', ['Radian', 'Degree']))}`;
    },
  },
];
