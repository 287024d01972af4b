// The scripted policy of the task suite: it sees only what cua-mcp returns.
// It reads the state text of get_app_state (element lines: id, role,
// traits, title, labelled segments), finds elements by role and title, and
// decides the next call from that. Element ids are never hard-coded, and
// the only coordinates it uses come from the tool's own output.
//
// Every call is recorded in a transcript that the runner writes out when
// the task fails.
//
// SPDX-License-Identifier: MIT

const TRAITS = new Set(['selected', 'selectable', 'expanded', 'collapsed', 'disabled',
  'settable', 'string', 'float', 'boolean', 'integer']);
const LABELS = ['Description', 'Help', 'Value', 'Details', 'Placeholder', 'URL', 'ID',
  'Secondary Actions'];
const LABEL_RE = new RegExp(`, (${LABELS.join('|')}): `);
const LEADING_LABEL_RE = new RegExp(`^(${LABELS.join('|')}): `);

// Splits "title, Label: x, Label: y" into the head and the labelled
// segments. Secondary Actions is always last and keeps its commas.
function splitSegments(rest) {
  const seg = {};
  let head = rest;
  let m = LEADING_LABEL_RE.exec(rest);
  let label = null;
  if (m) {
    head = '';
    label = m[1];
    rest = rest.slice(m[0].length);
  } else {
    const i = rest.search(LABEL_RE);
    if (i < 0) return { head: rest, seg };
    head = rest.slice(0, i);
    m = LABEL_RE.exec(rest.slice(i));
    label = m[1];
    rest = rest.slice(i + m[0].length);
  }
  while (label) {
    if (label === 'Secondary Actions') {
      seg[label] = rest;
      break;
    }
    const j = rest.search(LABEL_RE);
    if (j < 0) {
      seg[label] = rest;
      break;
    }
    seg[label] = rest.slice(0, j);
    m = LABEL_RE.exec(rest.slice(j));
    rest = rest.slice(j + m[0].length);
    label = m[1];
  }
  return { head, seg };
}

// The parts of an element line after its role text: traits, the head
// (title, or a bare value) and the labelled segments.
export function describe(line, role) {
  let rest = role ? line.slice(role.length).replace(/^ /, '') : line;
  let traits = [];
  const t = /^\(([^()]*)\)(?: |$)/.exec(rest);
  if (t && t[1].split(', ').every((x) => TRAITS.has(x))) {
    traits = t[1].split(', ');
    rest = rest.slice(t[0].length);
  }
  const { head, seg } = splitSegments(rest);
  return {
    traits,
    title: head,
    description: seg.Description ?? '',
    value: seg.Value ?? (Object.keys(seg).length === 0 ? head : ''),
    url: seg.URL ?? '',
    actions: seg['Secondary Actions'] ? seg['Secondary Actions'].split(', ') : [],
    segments: seg,
  };
}

// Parses the text of a get_app_state result into its header and elements.
// Lines of a diff carry a leading "~" or "+"; both forms are accepted.
export function parseState(text) {
  const a = text.indexOf('<app_state>\n');
  const b = text.lastIndexOf('\n</app_state>');
  const body = a >= 0 && b > a ? text.slice(a + '<app_state>\n'.length, b) : text;
  const lines = body.split('\n');
  const state = { text: body, app: null, pid: null, window: null, elements: [], focused: null, selectedText: null };
  const head = /^App=(.*) \(pid (\d+)\)$/.exec(lines[0] ?? '');
  if (head) {
    state.app = head[1];
    state.pid = Number(head[2]);
  }
  const win = /^Window: "(.*)", App: (.*)\.$/.exec(lines[1] ?? '');
  if (win) state.window = win[1];
  for (const l of lines.slice(1)) {
    const m = /^[~+]?(\t*)(\d+) (.*)$/.exec(l);
    if (m) state.elements.push({ id: m[2], depth: m[1].length, line: m[3] });
    const f = /^The focused UI element is (\d+) /.exec(l);
    if (f) state.focused = f[1];
  }
  const sel = /\nSelected text: ```\n([\s\S]*?)\n```/.exec(body);
  if (sel) state.selectedText = sel[1];
  return state;
}

// Element lines whose role text is `role` and whose title matches
// `title` (a RegExp, or a string that must equal the title). An empty role
// matches lines with no role text (menu-bar items) and any other line.
export function findAll(state, role, title = /.*/) {
  const out = [];
  for (const e of state.elements) {
    if (role && e.line !== role && !e.line.startsWith(`${role} `)) continue;
    const d = describe(e.line, role);
    const ok = title instanceof RegExp ? title.test(d.title) : d.title === title;
    if (ok) out.push({ ...e, role, ...d });
  }
  return out;
}

const short = (s, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

export class TaskFailure extends Error {}

// One agent working on one app through one cua-mcp connection.
export class Agent {
  // `used` collects the names of the tools that answered without an
  // error (the runner reports them as what a passed task verified).
  constructor({ client, app, transcript, t0 = Date.now(), used = new Set() }) {
    this.client = client;
    this.app = app;
    this.transcript = transcript;
    this.t0 = t0;
    this.used = used;
    this.state = null;
  }

  // seconds since the task started, for the transcript
  get clock() {
    return `[${((Date.now() - this.t0) / 1000).toFixed(1)} s]`;
  }

  note(text) {
    this.transcript.push(`${this.clock} # ${text}`);
  }

  async call(name, args = {}, { app = true } = {}) {
    const full = app ? { app: this.app, ...args } : args;
    const t0 = Date.now();
    let r;
    try {
      r = await this.client.callTool({ name, arguments: full }, undefined, { timeout: 90000 });
    } catch (e) {
      this.transcript.push(`${this.clock} → ${name} ${JSON.stringify(full)}\n  ✗ ${e.message}`);
      throw new TaskFailure(`${name} failed in the client: ${e.message}`);
    }
    const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (!r.isError) this.used.add(name);
    const route = r.structuredContent?.route ? ` route=${r.structuredContent.route}` : '';
    const summary = name === 'get_app_state' && !r.isError
      ? `${text.split('\n').filter((l) => l.startsWith('App=') || l.startsWith('Window:')).join(' | ')}`
      : short(text.replace(/^Computer Use state \(CUA App Version: [^)]*\)\n/, '').replace(/\n/g, ' ⏎ '), 400);
    this.transcript.push(`${this.clock} → ${name} ${short(JSON.stringify(full), 400)}\n  ${r.isError ? '✗' : '✓'} ${Date.now() - t0} ms${route} ${summary}`);
    if (name === 'get_app_state' && !r.isError) this.transcript.push(text.replace(/^/gm, '    | '));
    return { r, text };
  }

  // Fails the task when a tool answers with an error: an action that
  // does not do what it was asked is the defect these tasks look for.
  // An action whose result the server calls unknown (the app stopped
  // answering while it ran) is followed by a look, as the answer says;
  // the task's own checks then tell whether it happened.
  async act(name, args = {}) {
    let { r, text } = await this.call(name, args);
    // An element the app changed since the last look (a page still
    // settling after its load): look again, as the answer says, and act
    // once more on the element with the same role and title.
    if (r.isError && args.element_index && /element ID is no longer valid/.test(text)) {
      const head = (line) => line.split(', Secondary Actions: ')[0];
      const old = this.state?.elements.find((e) => e.id === String(args.element_index));
      this.note(`element ${args.element_index} is no longer valid; looking again, as the answer says`);
      await this.observe();
      const same = old && this.state.elements.filter((e) => head(e.line) === head(old.line));
      if (same?.length === 1) ({ r, text } = await this.call(name, { ...args, element_index: same[0].id }));
    }
    if (r.isError && /timeoutReached .*the result of the action is unknown/s.test(text)) {
      this.note(`the result of ${name} is unknown; looking before going on, as the answer says`);
      await this.observe();
      return r;
    }
    if (r.isError) throw new TaskFailure(`${name} ${JSON.stringify(args)} answered: ${short(text, 600)}`);
    return r;
  }

  // An app too busy to answer in time gets the server's advice followed,
  // as a model follows it: look again in a moment, up to three times.
  async observe() {
    let { r, text } = await this.call('get_app_state', { disable_diff: true });
    for (let i = 0; i < 3 && r.isError && /timeoutReached .*again in a moment/s.test(text); i++) {
      this.note('the app was busy; looking again in a moment, as the answer says');
      await new Promise((res) => setTimeout(res, 1000));
      ({ r, text } = await this.call('get_app_state', { disable_diff: true }));
    }
    if (r.isError) throw new TaskFailure(`get_app_state answered: ${short(text, 600)}`);
    this.state = parseState(text);
    this.state.structured = r.structuredContent;
    if (!this.listed && this.state.app) await this.checkListed(this.state.app);
    return this.state;
  }

  // After the first look at its app, the agent looks at the list of apps,
  // as a person's agent would to find it again later: the app id the state
  // names must be there, running.
  async checkListed(id) {
    this.listed = true;
    const app = (await this.listApps()).find((x) => x.id === id);
    if (!app || !app.flags.includes('running')) {
      throw new TaskFailure(`list_apps does not list ${id} (the id of the observed app) as running: ${JSON.stringify(app ?? null)}`);
    }
  }

  // The apps list_apps names: "<name> — <id> [<flags>]" per line.
  async listApps() {
    const { r, text } = await this.call('list_apps', {}, { app: false });
    if (r.isError) throw new TaskFailure(`list_apps answered: ${short(text, 600)}`);
    return text.split('\n').map((l) => /^(.*) — (\S+) \[(.*)\]$/.exec(l))
      .filter(Boolean).map(([, name, id, flags]) => ({ name, id, flags: flags.split(', ') }));
  }

  find(role, title) {
    return findAll(this.state, role, title)[0] ?? null;
  }

  findAll(role, title) {
    return findAll(this.state, role, title);
  }

  need(role, title) {
    const e = this.find(role, title);
    if (!e) throw new TaskFailure(`no "${role}" element with title ${title} in the state of "${this.state.window}"`);
    return e;
  }

  // Observes until `pred(state)` returns something truthy, as a person
  // waits for an app to start or a dialog to open; gives up after
  // `timeout` ms with `what` in the message.
  async until(pred, what, timeout = 10000, interval = 400) {
    const end = Date.now() + timeout;
    for (;;) {
      const s = await this.observe();
      const v = await pred(s);
      if (v) return v;
      if (Date.now() > end) throw new TaskFailure(`${what} did not happen within ${timeout} ms; the window is "${s.window}"`);
      await new Promise((r) => setTimeout(r, interval));
    }
  }

  // Observes until an element with that role and title appears.
  untilFind(role, title, what, timeout) {
    return this.until(() => this.find(role, title), what ?? `a "${role}" element ${title}`, timeout);
  }

  click(e, extra = {}) { return this.act('click', { element_index: e.id, ...extra }); }
  type(text) { return this.act('type_text', { text }); }
  key(key) { return this.act('press_key', { key }); }
  setValue(e, value) { return this.act('set_value', { element_index: e.id, value }); }
  selectText(e, text, selection) {
    return this.act('select_text', { element_index: e.id, text, ...(selection ? { selection } : {}) });
  }
  scroll(e, direction, pages) { return this.act('scroll', { element_index: e.id, direction, pages }); }
  secondary(e, action) { return this.act('perform_secondary_action', { element_index: e.id, action }); }
  drag(fromX, fromY, toX, toY) { return this.act('drag', { from_x: fromX, from_y: fromY, to_x: toX, to_y: toY }); }

  // A batch of steps in one `sequence` call; each step is [tool, args].
  async sequence(steps) {
    const r = await this.act('sequence', { steps: steps.map(([tool, args]) => ({ tool, arguments: args })) });
    return r;
  }

  // The centre of an element in screenshot pixels, from the structured
  // content of the last observation (the frame the tool reported).
  pixelCentre(e) {
    const s = this.state.structured;
    const el = s?.elements?.find((x) => String(x.id) === e.id);
    if (!el?.frame) throw new TaskFailure(`element ${e.id} has no frame in the last observation`);
    const p = s.screenshot?.pixels_per_point ?? 1;
    return { x: (el.frame.x + el.frame.width / 2) * p, y: (el.frame.y + el.frame.height / 2) * p,
      frame: el.frame, scale: p };
  }
}
