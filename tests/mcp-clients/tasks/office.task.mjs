// LibreOffice (gtk3 VCL): format a word in Writer and save the document as
// .odt through the file dialog; fill cells and a formula in Calc, move
// between cells with Tab, Return and the Name Box, and save as CSV with the
// formulas; select cells by dragging and scroll the sheet with the wheel
// and the scroll bar's action. The saved files, the selected cells and
// the scroll bar (pyatspi) are the checks.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TaskFailure } from './lib/context.mjs';

const run = promisify(execFile);
const SENTENCE = 'The quarterly report is ready for review.';

function soffice(ctx, module) {
  return ctx.launch('soffice', [`--${module}`, '--norestore', '--nologo',
    `-env:UserInstallation=file://${ctx.path('lo-profile')}`], {
    atspiName: 'soffice', env: { SAL_USE_VCLPLUGIN: 'gtk3' }, timeout: 60,
  });
}

// Starts a LibreOffice module ('writer', 'calc') with a fresh profile and
// returns an agent on its document window.
async function openModule(ctx, module) {
  await soffice(ctx, module);
  const a = await ctx.agent(`libreoffice-${module}`);
  await dismissGreeting(a, module === 'writer' ? /LibreOffice Writer$/ : /LibreOffice Calc$/);
  return a;
}

// LibreOffice may greet a new profile with a dialog; a person closes it.
async function dismissGreeting(a, windowRe) {
  const s = await a.until((st) => st.window && st.window !== '' && st.elements.length > 3 && st, 'the LibreOffice window', 30000);
  if (!windowRe.test(s.window)) {
    const ok = a.find('button', /^(OK|Close)$/);
    if (!ok) throw new TaskFailure(`LibreOffice shows "${s.window}" instead of the document, with no OK or Close button`);
    await a.click(ok);
    await a.until((st) => windowRe.test(st.window ?? ''), 'the document window', 10000);
  }
}

// Saves through the file dialog (ctrl+shift+s) under `file`.
async function saveAs(a, file) {
  await a.key('ctrl+shift+s');
  await a.until((s) => /^Save/.test(s.window ?? ''), 'the Save dialog');
  const name = a.findAll('text field').find((e) => /^Name/.test(e.title));
  if (!name) throw new TaskFailure('the Save dialog has no Name field');
  await a.setValue(name, file);
  await a.observe();
  await a.click(a.need('button', /^Save$/));
}

// The X11 facts of the active window (title, class, state, frame extents), for
// the evidence of a failed task.
async function activeWindow(ctx) {
  const env = ctx.appEnv();
  const root = (await run('xprop', ['-root', '_NET_ACTIVE_WINDOW'], { env })).stdout;
  const id = /0x[0-9a-f]+/.exec(root)?.[0];
  if (!id) return 'none';
  const props = (await run('xprop', ['-id', id, 'WM_NAME', 'WM_CLASS', '_NET_WM_STATE', '_NET_FRAME_EXTENTS'], { env })).stdout;
  const geom = (await run('xwininfo', ['-id', id], { env })).stdout;
  const at = /Absolute upper-left X:\s+(-?\d+)[\s\S]*Absolute upper-left Y:\s+(-?\d+)[\s\S]*Width:\s+(\d+)[\s\S]*Height:\s+(\d+)/.exec(geom);
  return `${props.trim().replace(/\n/g, '; ')}; client at ${at ? `(${at[1]}, ${at[2]}) ${at[3]}x${at[4]}` : '?'}`;
}

// The evidence of a failed task: the active window and LibreOffice's
// windows on the accessibility bus.
async function windows(ctx) {
  return `the active window: ${await activeWindow(ctx)}; LibreOffice's windows: ${
    (await ctx.atspi('soffice', '', '', 1)).filter((x) => x.path.length === 1).map((x) => `${x.role} "${x.name}"`).join(', ')}`;
}

// The ODF text of a zipped document member.
async function member(file, name) {
  const { stdout } = await run('unzip', ['-p', file, name], { maxBuffer: 32 << 20 });
  return stdout;
}

export default [
  {
    name: 'writer-bold',
    toolkit: 'LibreOffice',
    title: 'Type a sentence in Writer, make "quarterly" bold, save as report.odt',
    timeout: 100,
    async run(ctx) {
      const a = await openModule(ctx, 'writer');
      const para = a.findAll('text').find((e) => e.traits.includes('settable'));
      if (!para) throw new TaskFailure('no editable paragraph in the document');
      await a.click(para);
      await a.type(SENTENCE);
      await a.observe();
      const typed = a.findAll('text').find((e) => e.traits.includes('settable') && e.title.includes('quarterly'));
      if (!typed) throw new TaskFailure('the typed sentence is not in the document');
      await a.selectText(typed, 'quarterly');
      await a.observe();
      await a.click(a.need('toggle button', /^Bold$/));
      const file = ctx.path('report.odt');
      await saveAs(a, file);
      await a.until((s) => /^report\.odt - LibreOffice Writer$/.test(s.window ?? ''), 'the saved document', 15000);
      await ctx.fileWritten(file);
      const xml = await member(file, 'content.xml');
      const bold = [...xml.matchAll(/<style:style style:name="([^"]+)" style:family="text"><style:text-properties[^>]*fo:font-weight="bold"/g)].map((m) => m[1]);
      const spans = [...xml.matchAll(/<text:span text:style-name="([^"]+)">([^<]*)<\/text:span>/g)];
      const boldText = spans.filter((m) => bold.includes(m[1])).map((m) => m[2]);
      const para2 = /<text:p [^>]*>(.*?)<\/text:p>/s.exec(xml.slice(xml.indexOf('<office:text')));
      const plain = para2 ? para2[1].replace(/<[^>]+>/g, '') : null;
      assert.equal(plain, SENTENCE, 'the paragraph in content.xml');
      assert.deepEqual(boldText, ['quarterly'], 'the bold runs in content.xml');
    },
    evidence: windows,
  },
  {
    name: 'calc-cells',
    toolkit: 'LibreOffice',
    title: 'Fill a small budget in Calc with a SUM formula, mark E1 through the Name Box, save as budget.csv with formulas',
    timeout: 100,
    async run(ctx) {
      const a = await openModule(ctx, 'calc');
      // the cell cursor starts in A1
      const rows = [['Item', 'Cost'], ['Rent', '1200'], ['Food', '300'], ['Total', '=SUM(B2:B3)']];
      for (const [x, y] of rows) {
        await a.type(x);
        await a.key('Tab');
        await a.type(y);
        await a.key('Return');
      }
      // jump to E1 through the Name Box
      await a.observe();
      const box = a.findAll('text field').find((e) => /^[A-Z]+[0-9]+$/.test(e.value));
      if (!box) throw new TaskFailure('no Name Box (a text field holding a cell name) in the state');
      // a click leaves the caret at the end of the field's text
      // (docs/actions.md §3.1), so the old cell name is selected first
      await a.click(box);
      await a.key('ctrl+a');
      await a.type('E1');
      await a.key('Return');
      // look before typing: the Name Box names the cell the cursor is in
      await a.until(() => a.findAll('text field').some((e) => e.id === box.id && e.value === 'E1'),
        'the cell cursor in E1 (the Name Box reading E1)', 3000);
      await a.type('Reviewed');
      await a.key('Return');
      // save as CSV, keeping the formulas
      const file = ctx.path('budget.csv');
      await saveAs(a, file);
      const keep = await a.untilFind('button', /^Use Text CSV Format/, 'the question about the CSV format');
      await a.click(keep);
      await a.untilFind('checkbox', /^Save cell formulas/, 'the Export Text File options');
      const formulas = a.need('checkbox', /^Save cell formulas/);
      if (formulas.value !== 'on') await a.click(formulas);
      await a.observe();
      await a.click(a.need('button', /^OK$/));
      const csv = (await ctx.fileWritten(file)).toString('utf8');
      const cells = csv.trim().split(/\r?\n/).map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
      const trimmed = cells.map((r) => { while (r.length && r[r.length - 1] === '') r.pop(); return r; });
      assert.deepEqual(trimmed, [['Item', 'Cost', '', '', 'Reviewed'], ['Rent', '1200'], ['Food', '300'], ['Total', '=SUM(B2:B3)']],
        `the CSV file: ${JSON.stringify(csv)}`);
    },
    evidence: windows,
  },
  {
    name: 'calc-range-scroll',
    toolkit: 'LibreOffice',
    title: 'In Calc, type three headings in one batch, page down the sheet and a block back up with the scroll bar, then select the headings by dragging across them',
    timeout: 150,
    async run(ctx) {
      const a = await openModule(ctx, 'calc');
      // the cell cursor starts in A1
      await a.sequence([['type_text', { text: 'Region' }], ['press_key', { key: 'Tab' }],
        ['type_text', { text: 'Sales' }], ['press_key', { key: 'Tab' }],
        ['type_text', { text: 'Target' }], ['press_key', { key: 'Return' }]]);
      // two pages down with the wheel over the sheet, one block up with the
      // scroll bar's own action
      const bar = async () => (await ctx.atspi('soffice', 'scroll bar', '^Vertical scroll bar$'))
        .find((b) => b.states.includes('showing'))?.value?.current;
      const top = await bar();
      await a.scroll(a.need('scroll area', /.*/), 'down', 2);
      const down = await a.until(async () => { const v = await bar(); return v > top ? { v } : null; }, 'the sheet scrolled down', 5000);
      await a.observe();
      await a.secondary(a.need('scroll bar', /^Vertical scroll bar/), 'Decrement block');
      await a.until(async () => { const v = await bar(); return v < down.v ? v : null; }, 'the sheet a block back up', 5000);
      assert.ok((await bar()) < down.v, 'the vertical scroll bar after Decrement block');
      // back to the top (ctrl+Home) to select the headings
      await a.key('ctrl+Home');
      await a.until(async () => (await bar()) === top, 'the sheet back at its top', 5000);
      await a.observe();
      const from = a.pixelCentre(a.need('cell', /^A1\b/));
      const to = a.pixelCentre(a.need('cell', /^C1\b/));
      await a.drag(from.x, from.y, to.x, to.y);
      await a.until(() => a.findAll('text field').some((e) => e.value === 'A1:C1'), 'the Name Box reading A1:C1', 3000);
      const cells = await ctx.atspi('soffice', 'table cell');
      const selected = cells.filter((c) => c.states.includes('selected')).map((c) => `${c.name}=${c.text ?? ''}`);
      assert.deepEqual(selected, ['A1=Region', 'B1=Sales', 'C1=Target'], 'the selected cells read on the accessibility bus');
    },
    evidence: windows,
  },
];
