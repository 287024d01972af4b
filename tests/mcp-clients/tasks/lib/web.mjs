// A local web site for the browser tasks, served on 127.0.0.1 by the test
// itself: an order form that posts to /submit, a long article whose link
// below the fold leads to /target, and questions whose answers open on
// demand (each reports /opened?faq=ID when opened). The server records every request,
// so a task is checked by what the browser really sent.
//
// SPDX-License-Identifier: MIT
import { createServer } from 'node:http';

const FORM = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order a bicycle</title>
<style>body { font: 16px sans-serif; margin: 24px; } label { display: block; margin: 10px 0; }</style>
</head><body>
<h1>Order a bicycle</h1>
<form method="post" action="/submit">
<label>Full name <input type="text" name="fullname"></label>
<label>Email address <input type="text" name="email"></label>
<label>Frame colour
<select name="colour">
<option value="red">Red</option>
<option value="green">Green</option>
<option value="blue">Blue</option>
<option value="black">Black</option>
</select></label>
<label>Number of gears <input type="range" name="gears" min="1" max="30" step="1" value="10"></label>
<label><input type="checkbox" name="giftwrap" value="yes"> Gift wrap</label>
<label>Delivery notes <input type="text" name="notes"></label>
<button type="submit">Place order</button>
</form>
</body></html>
`;

const THANKS = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order received</title></head>
<body><h1>Thank you, your order was received</h1></body></html>
`;

function article() {
  const words = 'The river path follows the old canal from the mill to the harbour, past gardens, '
    + 'workshops and a row of small boats that are painted every spring.';
  let body = '';
  for (let i = 1; i <= 24; i++) body += `<h2>Stage ${i}</h2>\n<p>${words} ${words}</p>\n`;
  // the link sits between stages 24 and 25: some four pages down
  body += '<p id="more"><a href="/target">Read the timetable for the harbour ferry</a></p>\n';
  for (let i = 25; i <= 36; i++) body += `<h2>Stage ${i}</h2>\n<p>${words}</p>\n`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Walking the canal</title>
<style>body { font: 16px sans-serif; margin: 24px; } h2 { margin-top: 40px; }</style>
</head><body>
<h1>Walking the canal</h1>
${body}</body></html>
`;
}

const FAQ = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Questions and answers</title>
<style>body { font: 16px sans-serif; margin: 24px; } details { margin: 12px 0; }</style>
</head><body>
<h1>Questions and answers</h1>
<details id="sizes"><summary>Which frame sizes are there?</summary><p>Frames come in sizes 48, 52 and 56.</p></details>
<details id="delivery"><summary>How long does delivery take?</summary><p>Delivery takes 3 working days.</p></details>
<details id="returns"><summary>Can I return a bicycle?</summary><p>Returns are free within 30 days.</p></details>
<script>
for (const d of document.querySelectorAll('details')) {
  d.addEventListener('toggle', () => { if (d.open) fetch('/opened?faq=' + d.id); });
}
</script>
</body></html>
`;

const TARGET = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ferry timetable</title></head>
<body><h1>Ferry timetable</h1><p>Every hour from 8 to 20.</p></body></html>
`;

// Starts the site; resolves with { url, requests, waitFor, close }.
export async function startSite() {
  const requests = [];
  const waiters = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      const r = { method: req.method, path: req.url, body, at: Date.now() };
      requests.push(r);
      for (const w of waiters.splice(0)) if (!w(r)) waiters.push(w);
      const page = { '/form': FORM, '/article': article(), '/target': TARGET, '/faq': FAQ }[req.url.split('?')[0]];
      if (req.method === 'POST' && req.url === '/submit') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(THANKS);
      } else if (req.method === 'GET' && req.url.startsWith('/opened?')) {
        res.writeHead(204);
        res.end();
      } else if (req.method === 'GET' && page) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests,
    // Resolves with the first request (seen or future) that matches.
    waitFor(pred, timeout, what) {
      const seen = requests.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the browser sent no ${what} within ${timeout} ms; `
          + `requests: ${JSON.stringify(requests.map((r) => `${r.method} ${r.path}`))}`)), timeout);
        waiters.push((r) => {
          if (!pred(r)) return false;
          clearTimeout(timer);
          resolve(r);
          return true;
        });
      });
    },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
