// Web browsers on a local site served by the test (lib/web.mjs): fill and
// submit an order form (text fields, a drop-down, a range input, a
// checkbox, a submit button) in Chromium and Firefox ESR, open one answer
// on a questions page with its Expand action, and scroll a long article
// page by page to a link below the fold and follow it. The site checks
// what the browser sent.
//
// SPDX-License-Identifier: MIT
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { startSite } from './lib/web.mjs';
import { TaskFailure } from './lib/context.mjs';

const ORDER = {
  fullname: 'Ada Lovelace', email: 'ada@example.org', colour: 'blue', gears: '21',
  giftwrap: 'yes', notes: 'Leave it at the door',
};

async function site(ctx) {
  const s = await startSite();
  ctx.onCleanup(() => s.close());
  return s;
}

function chromium(ctx, url) {
  return ctx.launch('chromium', ['--force-renderer-accessibility', '--no-sandbox', '--disable-gpu',
    '--no-first-run', '--no-default-browser-check', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--password-store=basic',
    '--window-size=1100,900', `--user-data-dir=${ctx.path('chromium-profile')}`, url],
  { atspiName: 'Chromium', timeout: 40 });
}

// A fresh profile that opens no first-run, welcome or update pages.
function firefox(ctx, url) {
  const profile = ctx.path('firefox-profile');
  mkdirSync(profile, { recursive: true });
  const prefs = {
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.homepage_override.mstone': '"ignore"',
    'startup.homepage_welcome_url': '""',
    'startup.homepage_welcome_url.additional': '""',
    'browser.aboutwelcome.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.reportingpolicy.firstRun': false,
    'browser.sessionstore.resume_from_crash': false,
    'app.update.auto': false,
  };
  writeFileSync(`${profile}/user.js`, Object.entries(prefs).map(([k, v]) => `user_pref("${k}", ${v});\n`).join(''));
  return ctx.launch('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, url],
    { atspiName: 'Firefox', timeout: 40 });
}

// The page's document line (`HTML content <title>`).
function doc(a, title) {
  return a.find('HTML content', title);
}

// Fills the order form as a person would and submits it.
async function fillForm(a, s) {
  await a.until(() => doc(a, /^Order a bicycle/) && a.find('button', /^Place order/), 'the order form', 20000);
  await a.click(a.need('text field', /^Full name/));
  await a.type(ORDER.fullname);
  await a.observe();
  await a.click(a.need('text field', /^Email address/));
  await a.type(ORDER.email);
  await a.observe();
  await a.click(a.need('pop up button', /^Frame colour/));
  const blue = await a.untilFind('menu item', /^Blue$/, 'the open Frame colour drop-down listing Blue', 5000);
  await a.click(blue);
  await a.until(() => a.find('pop up button', /^Frame colour/)?.value === 'Blue', 'the drop-down showing Blue', 5000);
  await a.setValue(a.need('slider', /^Number of gears/), ORDER.gears);
  await a.observe();
  await a.click(a.need('checkbox', /^Gift wrap/));
  await a.observe();
  // the last field in one batch: click into it, then type
  await a.sequence([['click', { element_index: a.need('text field', /^Delivery notes/).id }],
    ['type_text', { text: ORDER.notes }]]);
  // look at the form before sending it
  await a.until(() => a.find('checkbox', /^Gift wrap/)?.value === 'on'
    && a.find('slider', /^Number of gears/)?.value === ORDER.gears
    && a.find('text field', /^Full name/)?.value === ORDER.fullname
    && a.find('text field', /^Email address/)?.value === ORDER.email
    && a.find('text field', /^Delivery notes/)?.value === ORDER.notes,
  'the filled form (every value shown as entered)', 5000);
  await a.click(a.need('button', /^Place order/));
  const post = await s.waitFor((r) => r.method === 'POST' && r.path === '/submit', 10000, 'POST /submit');
  await a.until((st) => /^Order received/.test(st.window ?? ''), 'the confirmation page', 10000);
  const got = Object.fromEntries(new URLSearchParams(post.body));
  assert.deepEqual(got, ORDER, 'the form fields the site received');
}

// The frame (window-relative, in points) of an element of the last
// observation, from the structured content.
function frameOf(a, e) {
  const el = a.state.structured?.elements?.find((x) => String(x.id) === e.id);
  return el?.frame ?? null;
}

// Scrolls the article one page at a time until the link is in view, then
// follows it. A reader expects one page per scroll: the text must move by
// one viewport (±20 %), or the page skipped or repeated what was read.
async function scrollToLink(a, s) {
  const ready = () => {
    const d = doc(a, /^Walking the canal/);
    const link = a.find('link', /timetable/);
    return d && link && frameOf(a, d) && frameOf(a, link) ? { d, link } : null;
  };
  await a.until(ready, 'the article with its link', 20000);
  for (let i = 0; ; i++) {
    const { d, link } = ready() ?? {};
    if (!d) throw new TaskFailure('the article or its link left the state');
    const view = frameOf(a, d);
    const lf = frameOf(a, link);
    if (lf.y >= view.y && lf.y + lf.height <= view.y + view.height) break;
    if (lf.y + lf.height < view.y) throw new TaskFailure(`the link is above the visible part of the page (y ${lf.y}, page ${JSON.stringify(view)}): the scrolling went past it`);
    if (i >= 12) throw new TaskFailure('12 pages down and the link is still below the visible part of the page');
    // a heading in view, to see how far the text moved
    const ref = a.findAll('heading').find((h) => {
      const f = frameOf(a, h);
      return f && f.y >= view.y && f.y + f.height <= view.y + view.height;
    });
    if (!ref) throw new TaskFailure('no heading in view to follow');
    const y0 = frameOf(a, ref).y;
    await a.scroll(d, 'down', 1);
    let last = null;
    // the page moves in an animation: wait until two looks agree
    const y1 = await a.until(() => {
      const h = a.findAll('heading').find((x) => x.id === ref.id);
      const f = h && frameOf(a, h);
      if (!f || f.y === y0) return null;
      if (last !== null && last === f.y) return { y: f.y };
      last = f.y;
      return null;
    }, 'the page moving after the scroll', 6000, 150);
    const moved = (y0 - y1.y) / view.height;
    a.note(`scroll 1 page: "${ref.title}" moved from y ${y0} to ${y1.y}, ${moved.toFixed(2)} of the ${view.height}-point page`);
    if (moved < 0.8 || moved > 1.2) throw new TaskFailure(`scrolling 1 page moved the text ${moved.toFixed(2)} pages (${y0 - y1.y} of ${view.height} points)`);
  }
  await a.click(a.need('link', /timetable/));
  await s.waitFor((r) => r.method === 'GET' && r.path === '/target', 10000, 'GET /target');
  await a.until((st) => /^Ferry timetable/.test(st.window ?? ''), 'the timetable page', 10000);
}

// Opens the answer to one question with the Expand action its line offers
// and reads the answer from the state.
async function readAnswer(a, s) {
  const question = /^How long does delivery take\?/;
  const find = () => a.find('toggle button', question) ?? a.find('button', question);
  await a.until(() => doc(a, /^Questions and answers/) && find(), 'the questions', 20000);
  const q = find();
  if (!q.actions.includes('Expand')) throw new TaskFailure(`the question offers no Expand action: ${q.line}`);
  await a.secondary(q, 'Expand');
  const text = await a.untilFind('text', /^Delivery takes/, 'the answer under the question', 5000);
  const days = /(\d+) working days/.exec(text.title)?.[1];
  await s.waitFor((r) => r.path === '/opened?faq=delivery', 5000, 'report of the opened answer');
  assert.equal(days, '3', `the answer the policy read: "${text.title}"`);
  const opened = s.requests.filter((r) => r.path.startsWith('/opened?')).map((r) => r.path);
  assert.deepEqual(opened, ['/opened?faq=delivery'], 'the answers opened on the page');
}

export default [
  {
    name: 'chromium-form',
    toolkit: 'Chromium',
    title: 'Order a bicycle on a local web form in Chromium: text, drop-down, range, checkbox, submit',
    timeout: 80,
    async run(ctx) {
      const s = await site(ctx);
      await chromium(ctx, `${s.url}/form`);
      await fillForm(await ctx.agent('chromium'), s);
    },
  },
  {
    name: 'firefox-form',
    toolkit: 'Firefox ESR',
    title: 'Order a bicycle on a local web form in Firefox ESR: text, drop-down, range, checkbox, submit',
    timeout: 80,
    async run(ctx) {
      const s = await site(ctx);
      await firefox(ctx, `${s.url}/form`);
      await fillForm(await ctx.agent('firefox-esr'), s);
    },
  },
  {
    name: 'chromium-expand',
    toolkit: 'Chromium',
    title: 'Open one answer on a questions page in Chromium with its Expand action and read it',
    timeout: 60,
    async run(ctx) {
      const s = await site(ctx);
      await chromium(ctx, `${s.url}/faq`);
      await readAnswer(await ctx.agent('chromium'), s);
    },
  },
  {
    name: 'firefox-expand',
    toolkit: 'Firefox ESR',
    title: 'Open one answer on a questions page in Firefox ESR with its Expand action and read it',
    timeout: 60,
    async run(ctx) {
      const s = await site(ctx);
      await firefox(ctx, `${s.url}/faq`);
      await readAnswer(await ctx.agent('firefox-esr'), s);
    },
  },
  {
    name: 'chromium-scroll-link',
    toolkit: 'Chromium',
    title: 'Scroll a long article in Chromium page by page to a link below the fold and follow it',
    timeout: 80,
    async run(ctx) {
      const s = await site(ctx);
      await chromium(ctx, `${s.url}/article`);
      await scrollToLink(await ctx.agent('chromium'), s);
    },
  },
  {
    name: 'firefox-scroll-link',
    toolkit: 'Firefox ESR',
    title: 'Scroll a long article in Firefox ESR page by page to a link below the fold and follow it',
    timeout: 80,
    async run(ctx) {
      const s = await site(ctx);
      await firefox(ctx, `${s.url}/article`);
      await scrollToLink(await ctx.agent('firefox-esr'), s);
    },
  },
];
