// Text editors: find and replace, then save (FeatherPad, Qt 5: its
// replacement dock; mousepad, GTK 3: its Find and Replace dialog); a
// heading typed over a line selected with the pointer and saved through
// the File menu (FeatherPad); save a new document through the file
// chooser (mousepad: GTK 3; gnome-text-editor: GTK 4); open a file by
// selecting its row in a GTK 3 file chooser. Files on disk, the chooser's
// selection and the editor's (pyatspi) are the checks.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { TaskFailure } from './lib/context.mjs';

const LETTER = 'Dear team,\nthe colour of the logo is blue.\nOur colour scheme uses blue and grey.\n';
const MINUTES = 'Meeting notes\nThe meeting is on Monday.\nBring the Monday report.\n';

// The app's toplevel windows: role and name.
async function toplevels(ctx, app) {
  return (await ctx.atspi(app, '', '', 1)).filter((x) => x.path.length === 1).map((x) => `${x.role} "${x.name}"`);
}

// Observes until the window's title matches `re`.
function untilWindow(a, re, what, timeout) {
  return a.until((s) => re.test(s.window ?? ''), what, timeout);
}

// The meeting minutes written to a file and opened in FeatherPad, with an
// agent on it.
async function minutesInFeatherPad(ctx) {
  const file = ctx.path('minutes.txt');
  writeFileSync(file, MINUTES);
  await ctx.launch('featherpad', [file], { atspiName: 'featherpad' });
  return { file, a: await ctx.agent('featherpad') };
}

export default [
  {
    name: 'featherpad-replace',
    toolkit: 'Qt 5',
    title: 'Replace every "Monday" by "Friday" in a file with FeatherPad\'s replacement dock, then save',
    timeout: 45,
    async run(ctx) {
      const { file, a } = await minutesInFeatherPad(ctx);
      const replace = await a.untilFind('button', /^Replace$/, 'the Replace toolbar button');
      await a.click(replace);
      const field = (d) => a.findAll('text field').find((e) => e.description === d);
      await a.until(() => field('To be replaced') && field('Replacing text'),
        'the replacement dock with its "To be replaced" and "Replacing text" fields');
      const find = field('To be replaced');
      const by = field('Replacing text');
      await a.click(find);
      await a.type('Monday');
      await a.click(by);
      await a.type('Friday');
      await a.observe();
      const all = a.findAll('button').find((e) => /^Replace all/.test(e.description));
      if (!all) throw new TaskFailure('no "Replace all" button in the dock');
      await a.click(all);
      await a.key('ctrl+s');
      await untilWindow(a, /^[^*]*minutes\.txt/, 'saving (the title without its "*")');
      const text = readFileSync(file, 'utf8');
      assert.equal(text, MINUTES.replaceAll('Monday', 'Friday'), 'the file on disk');
    },
  },
  {
    name: 'featherpad-heading',
    toolkit: 'Qt 5',
    title: 'In FeatherPad, select the first line of a file by dragging across it, type a new heading over it, and save through the File menu',
    timeout: 45,
    async run(ctx) {
      const { file, a } = await minutesInFeatherPad(ctx);
      const editor = await a.untilFind('text entry area', /.*/, 'the editor');
      // the first line, from its left edge to past its end (a drag that
      // goes on to the right selects up to the line's end)
      const { frame, scale } = a.pixelCentre(editor);
      const y = (frame.y + 8) * scale;
      await a.drag((frame.x + 2) * scale, y, (frame.x + frame.width * 0.7) * scale, y);
      await a.until((st) => st.selectedText === 'Meeting notes', 'the first line selected ("Selected text" in the state)', 3000);
      const [area] = (await ctx.atspi('featherpad', 'text', '')).filter((o) => o.text === MINUTES);
      assert.deepEqual(area?.selections, [[0, 'Meeting notes'.length]], 'the selection read on the accessibility bus');
      await a.type('Agenda');
      // the File menu through the secondary action of its menu-bar title
      await a.observe();
      await a.secondary(a.need('', /^File$/), 'Show Menu');
      const save = await a.untilFind('menu item', 'Save', 'the open File menu with its Save item', 5000);
      await a.click(save);
      await untilWindow(a, /^[^*]*minutes\.txt/, 'saving (the title without its "*")');
      assert.equal(readFileSync(file, 'utf8'), MINUTES.replace('Meeting notes', 'Agenda'), 'the file on disk');
    },
  },
  {
    name: 'mousepad-replace',
    toolkit: 'GTK 3',
    title: 'Replace every "colour" by "color" through mousepad\'s Find and Replace dialog, then save',
    timeout: 45,
    async run(ctx) {
      const file = ctx.path('letter.txt');
      writeFileSync(file, LETTER);
      await ctx.launch('mousepad', [file], { atspiName: 'mousepad' });
      const a = await ctx.agent('mousepad');
      const search = await a.untilFind('', /^Search$/, 'the Search menu title');
      await a.click(search);
      const item = await a.untilFind('menu item', /^Find and Replace/, 'the open Search menu');
      await a.click(item);
      await untilWindow(a, /^Find and Replace$/, 'the Find and Replace dialog');
      const boxes = a.findAll('combo box');
      const fieldAfter = (label) => {
        const box = boxes.find((b) => b.title === label);
        const i = box ? a.state.elements.findIndex((e) => e.id === box.id) : -1;
        const f = i >= 0 ? a.findAll('text field').find((e) => a.state.elements.findIndex((x) => x.id === e.id) > i) : null;
        if (!f) throw new TaskFailure(`no text field under the "${label}" combo box`);
        return f;
      };
      await a.click(fieldAfter('Search for:'));
      await a.type('colour');
      await a.click(fieldAfter('Replace with:'));
      await a.type('color');
      await a.observe();
      await a.click(a.need('checkbox', /^Replace all in:?$/));
      const button = await a.untilFind('button', /^Replace All$/, 'the Replace All button');
      await a.click(button);
      await a.observe();
      await a.click(a.need('button', /^Close$/));
      await untilWindow(a, /letter\.txt - Mousepad$/, 'the editor window');
      await a.key('ctrl+s');
      await untilWindow(a, /^[^*]*letter\.txt - Mousepad$/, 'saving (the title without its "*")');
      assert.equal(readFileSync(file, 'utf8'), LETTER.replaceAll('colour', 'color'), 'the file on disk');
    },
  },
  {
    name: 'mousepad-save-as',
    toolkit: 'GTK 3',
    title: 'Find the running editor with list_apps, write a new document in it and save it as shopping.txt through the GTK 3 file chooser',
    timeout: 45,
    async run(ctx) {
      await ctx.launch('mousepad', [], { atspiName: 'mousepad' });
      // which app is the running editor: ask list_apps
      const a = await ctx.agent(null);
      const editor = (await a.listApps()).find((x) => x.name === 'Mousepad' && x.flags.includes('running'));
      if (!editor) throw new TaskFailure('list_apps names no running Mousepad');
      a.app = editor.id;
      const area = await a.untilFind('text entry area', /.*/, 'the document');
      await a.click(area);
      await a.type('eggs, milk, bread');
      await a.key('ctrl+s');
      await untilWindow(a, /^Save As$/, 'the Save As dialog');
      const name = a.findAll('text field').find((e) => e.title === 'Name:');
      if (!name) throw new TaskFailure('the Save As dialog has no Name field');
      const file = ctx.path('shopping.txt');
      await a.click(name);
      await a.key('ctrl+a');
      await a.type(file);
      await a.observe();
      await a.click(a.need('button', /^Save$/));
      await untilWindow(a, /shopping\.txt - Mousepad$/, 'the saved document');
      assert.equal(readFileSync(file, 'utf8').replace(/\n$/, ''), 'eggs, milk, bread', 'the file on disk');
    },
  },
  {
    name: 'text-editor-save-as',
    toolkit: 'GTK 4',
    title: 'Write a new document in gnome-text-editor and save it as packing.txt through the GTK 4 file chooser',
    timeout: 45,
    async run(ctx) {
      await ctx.launch('gnome-text-editor', ['--standalone'], { atspiName: 'gnome-text-editor' });
      const a = await ctx.agent('gnome-text-editor');
      const area = await a.untilFind('text entry area', /.*/, 'the document');
      await a.click(area);
      await a.type('tent, stove, map');
      await a.key('ctrl+s');
      await untilWindow(a, /^Save/, 'the Save As dialog', 6000);
      const name = a.findAll('text field').find((e) => /^Name/.test(e.title));
      if (!name) throw new TaskFailure('the save dialog has no Name field');
      const file = ctx.path('packing.txt');
      await a.click(name);
      await a.key('ctrl+a');
      await a.type(file);
      await a.observe();
      await a.click(a.need('button', /^Save$/));
      await untilWindow(a, /packing/, 'the saved document');
      const text = (await ctx.fileWritten(file)).toString('utf8');
      assert.equal(text.replace(/\n$/, ''), 'tent, stove, map', 'the file on disk');
    },
    async evidence(ctx) {
      return `gnome-text-editor's windows: ${(await toplevels(ctx, 'gnome-text-editor')).join(', ')}`;
    },
  },
  {
    name: 'file-chooser-row',
    toolkit: 'GTK 3',
    title: 'Open notes.txt next to the open todo.txt in mousepad: select its row in the Open dialog, press Open',
    timeout: 45,
    async run(ctx) {
      const files = { 'budget-2025.txt': 'budget\n', 'notes.txt': 'call the plumber\n', 'report.txt': 'draft\n', 'todo.txt': 'water the plants\n' };
      for (const [n, t] of Object.entries(files)) writeFileSync(ctx.path(n), t);
      // todo.txt is open; notes.txt from the same folder is wanted too
      await ctx.launch('mousepad', [ctx.path('todo.txt')], { atspiName: 'mousepad' });
      const a = await ctx.agent('mousepad');
      await a.untilFind('text entry area', /.*/, 'the document');
      await a.key('ctrl+o');
      await untilWindow(a, /^Open File$/, 'the Open File dialog');
      if (!a.find('cell', /^notes\.txt$/)) {
        // the dialog starts elsewhere (Recent): go to the folder in Places
        const place = a.findAll('row').find((r) => r.description === ctx.dir);
        if (!place) throw new TaskFailure(`the Open dialog lists neither notes.txt nor the folder ${ctx.dir} in its places`);
        await a.click(place);
      }
      const cell = await a.untilFind('cell', /^notes\.txt$/, 'the Open dialog listing notes.txt');
      await a.click(cell);
      // the row is selected and the dialog still open: read it on the bus
      const tables = await ctx.atspi('mousepad', 'table');
      const files2 = tables.find((t) => t.name === 'Files' || t.selected_rows);
      if (!files2) throw new TaskFailure(`after the click the Open dialog is gone; mousepad's windows: ${(await toplevels(ctx, 'mousepad')).join(', ')}`);
      const rows = await ctx.atspi('mousepad', 'table cell', '\\.txt$');
      const selected = rows.filter((c) => c.states.includes('selected')).map((c) => c.name);
      assert.deepEqual(selected, ['notes.txt'], 'exactly the row of notes.txt is selected');
      await a.observe();
      await a.click(a.need('button', /^Open$/));
      await untilWindow(a, /notes\.txt - Mousepad$/, 'notes.txt open in the editor');
      const windows = await toplevels(ctx, 'mousepad');
      assert.ok(windows.some((w) => /notes\.txt - Mousepad/.test(w)), `mousepad's windows: ${windows.join(', ')}`);
      const docs = (await ctx.atspi('mousepad', 'text')).filter((t) => t.states.includes('editable')).map((t) => t.text);
      assert.ok(docs.includes(files['notes.txt']), `the open documents: ${JSON.stringify(docs)}`);
    },
    async evidence(ctx) {
      return `mousepad's windows: ${(await toplevels(ctx, 'mousepad')).join(', ')}`;
    },
  },
];
