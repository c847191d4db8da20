// The order desk: the player's armies, orders made by clicking the map or typed in the
// classic format (3.2.2.5), each line checked as it is typed (the check-only endpoint) and
// drawn as an arrow, public or private posts (C2), the time left to the lock, and the
// player's posts of the turn with edit and withdraw.
import { call, get } from './api.js';
import { h, $, fill, when, at, span, debounce, sameName } from './util.js';
import { parseSquare } from './map.js';
import * as desk from './desk.js';
import * as thread from './thread.js';

let app, panel, timer = 0, seq = 0, selected = '', editing = null, posted = null, guide = null;
let els = {};

/** lineArmy is the army a line orders: the name before the colon, or the author's namesake. */
function lineArmy(line) {
  const i = line.indexOf(':');
  return i >= 0 ? line.slice(0, i).trim() : (app.campaign.you || {}).name || '';
}

/** lineSquares are the squares a move line passes: its start, each leg's route and destination. */
export function lineSquares(line) {
  const i = line.indexOf(':');
  const body = (i >= 0 ? line.slice(i + 1) : line).split(';')[0];
  const segs = body.split('>');
  if (segs.length < 2) return [];
  const out = [];
  for (const seg of segs) {
    const route = /\(([^)]*)\)/.exec(seg);
    const head = seg.replace(/\([^)]*\)/g, '').trim().split(/\s+/)[0] || '';
    if (route) for (const r of route[1].split(/[\s,–-]+/)) if (parseSquare(r)) out.push(r.toUpperCase());
    if (parseSquare(head)) out.push(head.toUpperCase());
  }
  return out.filter((x, k) => k === 0 || x !== out[k - 1]);
}

function armyOf(name) {
  return app.myArmies().find((a) => sameName(a.name, name));
}

export function mount(p, a) {
  app = a;
  panel = p;
  selected = '';
  editing = null;
  posted = null;
  const vis = (value, label, help) => h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'visibility', value, checked: value === 'public' }), ' ', label, h('span', { class: 'help' }, help));
  els = {
    title: h('h2', {}),
    lock: h('p', { id: 'lock-time', class: 'lock' }),
    armies: h('ul', { class: 'my-armies', id: 'my-armies', 'aria-label': 'Your armies' }),
    text: h('textarea', { id: 'order-text', rows: 5, spellcheck: 'false', autocomplete: 'off', placeholder: 'Sai Rei: 3D > 5E; replace Darkhand5', 'aria-describedby': 'order-help' }),
    window: h('p', { id: 'private-window', class: 'help' }),
    checks: h('ol', { id: 'order-check', class: 'checks', 'aria-live': 'polite', 'aria-label': 'What the server says of each line' }),
    problem: h('div', { id: 'order-problem', role: 'alert', hidden: true }),
    done: h('div', { id: 'order-done', role: 'status', hidden: true }),
    submit: h('button', { type: 'submit', id: 'order-post' }, 'Post orders'),
    cancel: h('button', { type: 'button', id: 'order-cancel', hidden: true, onclick: stopEditing }, 'Cancel the edit'),
    posts: h('ul', { id: 'my-posts', class: 'posts' }),
    summary: h('div', { id: 'desk-guide' }),
    reach: h('div', { id: 'reach-info', role: 'status' }),
  };
  const form = h('form', { id: 'order-form', onsubmit: submit },
    h('label', { for: 'order-text' }, 'Orders, one a line'),
    h('p', { id: 'order-help', class: 'help' }, 'Format (3.2.2.5): “Army: from > to; engage or replace Other”; long moves add “> next”; a route goes in parentheses. Each line is checked as you type.'),
    els.text,
    h('fieldset', {}, h('legend', {}, 'Who sees the post'),
      vis('public', 'Public', ' — everyone sees it at once.'),
      vis('private', 'Private', ' — only you and the judges see it until the lock (C2).'),
      els.window),
    els.checks, els.problem, els.done,
    h('div', { class: 'buttons' }, els.submit, ' ', els.cancel));
  fill(panel, els.title, els.lock,
    h('h3', {}, 'Your armies'),
    h('p', { class: 'help' }, 'Choose an army (here or on the map), then click where it goes on the map; Shift+click adds another leg of a long move. Press Enter on an army to start its order in the box below and type the destination.'),
    els.summary, els.armies, els.reach, form,
    h('h3', {}, 'Your posts this turn'), els.posts,
    thread.section(app));
  els.text.addEventListener('input', () => {
    posted = null;
    drawLines();
    checkSoon();
  });
  for (const r of form.elements.visibility) r.addEventListener('change', () => checkSoon());
  timer = setInterval(renderLock, 1000);
  update();
  loadPosts();
}

export function unmount() {
  clearInterval(timer);
  app.drawer.setOrders([]);
  app.drawer.select('');
  desk.showReach(app, '');
  thread.unmount();
}

/** loadDesk asks which armies have an order, and shows it beside them. */
async function loadDesk() {
  try {
    guide = await desk.load(app);
    fill(els.summary, desk.summary(guide), desk.legend());
    renderArmies();
  } catch (err) {
    app.problem(els.problem, err);
  }
}

let lastTurn = 0, lastVersion = 0;

export function update() {
  if (!els.title) return;
  const t = app.campaign.turn;
  els.title.textContent = `Orders for turn ${t.number}`;
  renderLock();
  renderArmies();
  if (lastTurn && lastTurn !== t.number) {
    loadPosts();
    check();
  }
  if (lastTurn !== t.number || app.map.version !== lastVersion) loadDesk();
  lastTurn = t.number;
  lastVersion = app.map.version;
}

function renderLock() {
  const c = app.campaign, t = c.turn;
  const left = new Date(t.lock_at).getTime() - app.serverNow();
  if (c.status === 'paused') {
    fill(els.lock, `${c.name} is paused (${c.pause_reason || 'no reason given'}): no orders are taken until a judge resumes it.`);
  } else {
    fill(els.lock, 'Orders are taken until the lock, ', at(t.lock_at),
      left > 0 ? `: ${span(left)} left.` : ': the lock time has passed, posts now are too late (C2).');
  }
  if (!t.check_window) {
    fill(els.window, 'This turn does not check the posting window: private posts are taken at any time.');
    return;
  }
  const opens = new Date(new Date(t.lock_at).getTime() - 28 * 3600e3);
  const wait = opens.getTime() - app.serverNow();
  fill(els.window, `Private orders are taken only in the last 28 hours before the lock: from ${when(opens)} to ${when(t.lock_at)}`,
    wait > 0 ? ` (opens in ${span(wait)}); until then post publicly.` : left > 0 ? ' (open now).' : '.');
}

function renderArmies() {
  const mine = app.myArmies();
  if (!mine.length) {
    fill(els.armies, h('li', {}, 'You control no army on this map (5.2.1).'));
    return;
  }
  fill(els.armies, mine.map((a) => h('li', {},
    h('button', {
      type: 'button', class: 'army-pick', 'aria-pressed': String(a.name === selected), 'data-army': a.name,
      onclick: (e) => choose(a.name, e.detail === 0),
    }, `${a.name} — ${a.at}`), ' ', desk.badge(guide, a.name))));
}

/** choose selects an army; from the keyboard it also starts its line in the box. */
function choose(name, keyboard) {
  const a = armyOf(name);
  if (!a) return;
  selected = selected === a.name && !keyboard ? '' : a.name;
  app.drawer.select(selected);
  renderArmies();
  reach(selected);
  if (!keyboard || !selected) return;
  const lines = els.text.value.split('\n');
  let i = lines.findIndex((l) => sameName(lineArmy(l), a.name) && l.includes(':'));
  if (i < 0) {
    const start = `${a.name}: ${a.at} > `;
    if (lines[lines.length - 1].trim() === '') lines[lines.length - 1] = start;
    else lines.push(start);
    i = lines.length - 1;
    els.text.value = lines.join('\n');
  }
  els.text.focus();
  const end = lines.slice(0, i + 1).join('\n').length;
  els.text.setSelectionRange(end, end);
}

/** reach shades where the chosen army can go and says so in words. */
async function reach(name) {
  try {
    const r = await desk.showReach(app, name);
    if (!r || name !== selected) {
      if (!name) fill(els.reach);
      return;
    }
    const one = r.squares.filter((x) => x.legs === 1);
    const ok = one.filter((x) => x.status === 'accepted' || x.status === 'warning').length;
    const kw = one.filter((x) => x.status === 'keyword').length, bad = one.filter((x) => x.status === 'rejected').length;
    fill(els.reach, h('p', { class: 'help', id: 'reach-summary' }, r.fighting ? `${name} fights a battle this turn: it takes no order (M1).`
      : `${name} can reach ${ok} square${ok === 1 ? '' : 's'} this turn (shaded), ${kw} more only with engage or replace, which a click writes for you; an order to ${bad} would be refused (marked). Point at a square for the reason.`));
  } catch (err) {
    app.problem(els.problem, err);
  }
}

/** army is a marker activated from the keyboard: the player's own armies are chosen. */
export function army(name) {
  if (!armyOf(name)) return false;
  choose(name, true);
  return true;
}

/** square is a click on the map: it chooses the player's army or gives the chosen one its destination. */
export function square(sq, armyName, e) {
  const a = selected && armyOf(selected);
  if (!a) {
    if (armyName && armyOf(armyName)) {
      choose(armyName, false);
      return true;
    }
    return false;
  }
  if (sq === a.at) {
    if (armyName && armyName !== a.name && armyOf(armyName)) choose(armyName, false);
    else choose(a.name, false); // a second click lets go
    return true;
  }
  destination(a, sq, e && e.shiftKey);
  return true;
}

/** destination writes the chosen army's move to sq into the box, naming whom it meets (3.2.2.2). */
function destination(a, sq, extend) {
  const there = app.map.armies.filter((x) => x.at === sq && x.name !== a.name);
  const suffix = there.length ? `; ${there[0].side === a.side ? 'replace' : 'engage'} ${there[0].name}` : '';
  const lines = els.text.value.split('\n');
  const i = lines.findIndex((l) => l.includes(':') && sameName(lineArmy(l), a.name));
  const head = i >= 0 ? lines[i].split(';')[0].trimEnd() : '';
  let line;
  if (i >= 0 && extend && lineSquares(head).length >= 2) line = `${head} > ${sq}${suffix}`;
  else line = `${a.name}: ${a.at} > ${sq}${suffix}`;
  if (i >= 0) lines[i] = line;
  else if (lines[lines.length - 1].trim() === '') lines[lines.length - 1] = line;
  else lines.push(line);
  els.text.value = lines.join('\n');
  posted = null;
  drawLines();
  check();
}

let outcomes = [];

function drawLines() {
  if (posted) {
    app.drawer.setOrders(posted.map((o) => ({ squares: lineSquares(o.text), status: o.status })));
    return;
  }
  const lines = els.text.value.split('\n');
  app.drawer.setOrders(lines.map((l, k) => {
    const o = outcomes.find((x) => x.line === k + 1 && x.text.trim() === l.trim());
    return { squares: lineSquares(l), status: o ? o.status : 'draft' };
  }).filter((x) => x.squares.length >= 2));
}

const checkSoon = debounce(() => check(), 350);

function request() {
  const form = $('#order-form');
  return { text: els.text.value, private: form.elements.visibility.value === 'private' };
}

/** check asks the server what it would make of the box's lines, without saving anything. */
async function check() {
  const body = request();
  const mine = ++seq;
  if (!body.text.trim()) {
    outcomes = [];
    fill(els.checks);
    els.problem.hidden = true;
    drawLines();
    return;
  }
  try {
    const { data } = await call('POST', `/api/campaigns/${app.cid}/posts/check`, body);
    if (mine !== seq) return;
    els.problem.hidden = true;
    outcomes = data.lines || [];
    renderChecks(outcomes);
  } catch (err) {
    if (mine !== seq) return;
    outcomes = [];
    fill(els.checks);
    app.problem(els.problem, err);
  }
  drawLines();
}

const MARK = { accepted: '✓ accepted', warning: '! accepted with a warning', rejected: '✗ rejected' };

function renderChecks(lines) {
  fill(els.checks, lines.map((o) => h('li', { class: `check ${o.status}`, 'data-status': o.status },
    h('span', { class: 'badge' }, MARK[o.status] || o.status), ' ',
    h('code', {}, o.text),
    o.message ? h('span', { class: 'why' }, ` — ${o.message}${o.code ? ` (${o.code})` : ''}`) : null,
    (o.warnings || []).map((w) => h('span', { class: 'why' }, ` — ${w}`)))));
}

async function submit(e) {
  e.preventDefault();
  const body = request();
  els.problem.hidden = true;
  els.done.hidden = true;
  if (!body.text.trim()) {
    app.problem(els.problem, 'Write at least one order first.');
    return;
  }
  // The button keeps the focus (a disabled button would drop it): a second press waits.
  if (els.submit.getAttribute('aria-busy') === 'true') return;
  els.submit.setAttribute('aria-busy', 'true');
  try {
    const { data } = editing
      ? await call('PUT', `/api/campaigns/${app.cid}/posts/${editing}`, body)
      : await call('POST', `/api/campaigns/${app.cid}/posts`, body);
    const lines = data.lines || [];
    const ok = lines.filter((l) => l.status !== 'rejected').length;
    app.say(els.done, `${editing ? `Post ${editing} replaced by post ${data.post.id}` : `Posted as post ${data.post.id}`} (${data.post.private ? 'private' : 'public'}): ${ok} of ${lines.length} line${lines.length === 1 ? '' : 's'} accepted.`);
    renderChecks(lines);
    posted = lines;
    outcomes = [];
    els.text.value = '';
    stopEditing(true);
    drawLines();
    await loadPosts();
    await loadDesk();
  } catch (err) {
    app.problem(els.problem, err);
  } finally {
    els.submit.removeAttribute('aria-busy');
  }
}

function stopEditing(keep) {
  editing = null;
  els.submit.textContent = 'Post orders';
  els.cancel.hidden = true;
  if (keep !== true) {
    els.text.value = '';
    outcomes = [];
    fill(els.checks);
    drawLines();
  }
}

async function loadPosts() {
  const you = app.campaign.you;
  let posts;
  try {
    posts = await get(`/api/campaigns/${app.cid}/turns/${app.campaign.turn.number}/posts`);
  } catch (err) {
    app.problem(els.problem, err);
    return;
  }
  const mine = posts.filter((p) => (sameName(p.author, you.name) || (you.roles || []).includes('mercenary-judge') && p.author === 'mercenary-judge') && !p.withdrawn_at);
  // a keyboard user inside the list keeps the focus on the same button when it is redrawn
  const focused = els.posts.contains(document.activeElement) ? document.activeElement.getAttribute('aria-label') : null;
  if (!mine.length) {
    fill(els.posts, h('li', {}, 'No posts yet this turn.'));
    return;
  }
  fill(els.posts, mine.map((p) => h('li', { class: 'post', 'data-post': p.id },
    h('p', {}, h('strong', {}, `Post ${p.id}`), ' — ', at(p.at), `, ${p.private ? 'private' : 'public'}${p.replaces ? `, replaces post ${p.replaces}` : ''}`),
    h('pre', {}, p.text),
    h('div', { class: 'buttons' },
      h('button', { type: 'button', 'aria-label': `Edit post ${p.id}`, onclick: () => edit(p) }, 'Edit'), ' ',
      h('button', { type: 'button', 'aria-label': `Withdraw post ${p.id}`, onclick: () => withdraw(p) }, 'Withdraw')))));
  if (focused) {
    for (const b of els.posts.querySelectorAll('button')) {
      if (b.getAttribute('aria-label') === focused) b.focus();
    }
  }
}

function edit(p) {
  editing = p.id;
  els.text.value = p.text;
  const form = $('#order-form');
  form.elements.visibility.value = p.private ? 'private' : 'public';
  els.submit.textContent = `Save the changes to post ${p.id}`;
  els.cancel.hidden = false;
  els.done.hidden = true;
  posted = null;
  els.text.focus();
  drawLines();
  check();
}

async function withdraw(p) {
  els.problem.hidden = true;
  try {
    await call('DELETE', `/api/campaigns/${app.cid}/posts/${p.id}`);
    app.say(els.done, `Post ${p.id} withdrawn: it counts for nothing.`);
    if (editing === p.id) stopEditing();
    await loadPosts();
    await loadDesk();
    els.text.focus(); // the button that had the focus is gone
  } catch (err) {
    app.problem(els.problem, err);
  }
}
