// The round setup page (2.5): the round's map as its member may see it, the leaders' requests
// beside it, every problem that keeps it from starting with its rule, and each member's steps —
// the judges' sites, counts, reviews, generator, publishing, placement and start; the leaders'
// requests, descriptions, win conditions and proxies; a player's own army.
import { call, get, login, logout, session, onSession } from './api.js';
import { h, $, fill, at, rankName, sideName } from './util.js';
import { MapDrawer } from './map.js';

const FACTIONS = ['white', 'blue', 'black', 'red', 'green', 'five-color', 'colorless'];
const RANKS = ['general', 'admiral', 'captain', 'commander', 'lt-commander', 'lieutenant'];

let round = null, rid = 0;
const drawer = new MapDrawer($('#map'), {
  army: () => false,
  square: () => false,
  hover: (text) => { $('#map-hover').textContent = text || 'Point at a square or an army to see where it is.'; },
});

/** problem shows the server's refusal, word for word, in a region. */
function problem(el, err) {
  el.hidden = false;
  el.className = 'notice error';
  fill(el, err && err.detail ? err.detail : String(err && err.message ? err.message : err));
}

function say(el, text) {
  el.hidden = false;
  el.className = 'notice ok';
  fill(el, text);
}

function alarm(err) {
  $('#alert').hidden = false;
  $('#alert-text').textContent = typeof err === 'string' ? err : err.detail || err.message;
}

/** mapView is the round as the map drawer draws it: terrain by row and column, sites, armies. */
function mapView(r) {
  const rows = [];
  for (let row = 1; row <= r.grid.rows; row++) {
    const line = [];
    for (let col = 1; col <= r.grid.cols; col++) {
      const sq = `${col}${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[row - 1]}`;
      line.push((r.terrain.squares || {})[sq] || r.terrain.default || 'plains');
    }
    rows.push(line);
  }
  const armies = [...r.armies.filter((a) => a.at).map((a) => ({ name: a.name, side: a.side, rank: a.rank, at: a.at, days: 0, controllers: a.player ? [a.player] : [] })),
    ...r.mercenaries.map((a) => ({ ...a, days: 0 }))];
  return { grid: r.grid, terrain: rows, sites: r.sites, armies, battles: [], moves: [] };
}

/** step sends one step of the setup and shows the round as it comes back, and the outcome in the message region msg (its element is made anew by render). */
async function step(method, path, body, msg, done) {
  const id = msg.id;
  msg.hidden = true;
  try {
    const r = await call(method, `/api/rounds/${rid}${path}`, body);
    if (r.data && r.data.id === rid) round = r.data;
    render();
    say(document.getElementById(id) || msg, done(r.data));
  } catch (err) {
    problem(document.getElementById(id) || msg, err);
  }
}

function section(title, id, ...body) {
  return h('section', { class: 'card', 'aria-labelledby': id, id: `${id}-section` }, h('h3', { id }, title), ...body);
}

function facts(r) {
  fill($('#round-facts'),
    h('dt', {}, 'State'), h('dd', { id: 'round-state' }, r.state),
    h('dt', {}, 'Positions'), h('dd', {}, r.published ? 'public (2.5.2.3)' : 'not public yet (2.5.1.3)'),
    h('dt', {}, 'Armies a side'), h('dd', {}, RANKS.map((k) => `${r.counts[k]} ${rankName(k, 'coalition')}`).join(', ')),
    r.campaign ? [h('dt', {}, 'Campaign'), h('dd', {}, h('a', { href: `/?c=${r.campaign}`, id: 'round-campaign' }, `campaign ${r.campaign}`))] : null);
  fill($('#round-requests'), r.requests.length ? r.requests.map((q) => h('li', {}, h('strong', {}, `${q.by} (${sideName(q.side)}): `), q.text))
    : h('li', {}, 'No request yet.'));
}

/** problems lists what keeps the round from starting (the judges'). */
function problems(r) {
  if (!r.you.run) return null;
  const list = r.problems || [];
  return section('What keeps the round from starting', 'round-problems-title',
    r.ready ? h('p', { class: 'notice ok', id: 'round-ready' }, 'Every check of 2.5 and chapter 6 passes: the round may start.') : null,
    list.length ? h('ul', { id: 'round-problems' }, list.map((p) => h('li', { 'data-rule': p.rule, 'data-code': p.code }, h('span', { class: 'rule' }, p.rule), ' ', p.message))) : null);
}

function judgeActions(r) {
  if (!r.you.run || r.state !== 'setup') return null;
  const msg = h('div', { id: 'round-msg', role: 'status', hidden: true });
  const btn = (id, label, path, done) => h('button', { type: 'button', id, onclick: () => step('POST', path, {}, msg, done) }, label);
  const start = h('button', {
    type: 'button', id: 'round-start',
    onclick: async () => {
      msg.hidden = true;
      try {
        const c = (await call('POST', `/api/rounds/${rid}/start`, {})).data;
        round = await get(`/api/rounds/${rid}`);
        render();
        const out = h('p', { class: 'notice ok', id: 'round-started', role: 'status' }, `The round started as campaign ${c.id}: its first turn is open.`);
        $('#round-panel').prepend(out);
      } catch (err) {
        problem(msg, err);
      }
    },
  }, 'Start the round');
  return section('The judges’ steps', 'round-judge-title',
    h('p', { class: 'help' }, 'Fill in what is missing by the round’s seed, publish the positions once the Coalition has chosen its win conditions, drop the armies by their bases, and start once nothing is left below.'),
    h('div', { class: 'buttons' },
      btn('round-generate', 'Fill in what is missing (generator)', '/generate', () => 'The generator filled in what was missing.'),
      r.published ? null : btn('round-publish', 'Publish the base positions', '/publish', () => 'The base positions are public.'),
      btn('round-place', 'Drop the armies by their bases', '/place', () => 'The armies are dropped by their bases.'),
      start),
    msg);
}

function sites(r) {
  const msg = h('div', { role: 'status', hidden: true, id: 'round-sites-msg' });
  const rows = r.sites.map((st) => {
    const mine = r.you.run || (r.you.leader && r.you.side === st.side);
    const cells = [h('td', {}, st.name), h('td', {}, st.kind), h('td', {}, st.at), h('td', {}, st.win_condition ? 'yes' : ''),
      h('td', { class: 'desc' }, st.description || '', st.review ? h('span', { class: `review ${st.review}` }, ` (${st.review}${st.reason ? ': ' + st.reason : ''})`) : '')];
    const actions = h('td', {});
    if (st.kind !== 'town' && mine && r.state === 'setup') {
      const id = `desc-${st.name.replace(/\W+/g, '-')}`;
      const ta = h('textarea', { id, rows: 2, cols: 28, maxlength: 8000 });
      actions.append(h('label', { for: id, class: 'visually-hidden' }, `Description of ${st.name}`), ta,
        h('button', { type: 'button', onclick: () => step('PUT', `/descriptions/${encodeURIComponent(st.name)}`, { text: ta.value }, msg, () => `The description of ${st.name} waits for the judge.`) }, 'Send'));
    }
    if (st.kind !== 'town' && r.you.run && st.description && r.state === 'setup') {
      const rid2 = `reason-${st.name.replace(/\W+/g, '-')}`;
      const reason = h('input', { id: rid2, maxlength: 2000, size: 18 });
      actions.append(
        h('button', { type: 'button', class: 'accept', onclick: () => step('POST', `/descriptions/${encodeURIComponent(st.name)}/review`, { accept: true }, msg, () => `The description of ${st.name} is accepted.`) }, 'Accept'),
        h('label', { for: rid2 }, 'Reason'), reason,
        h('button', { type: 'button', class: 'reject', onclick: () => step('POST', `/descriptions/${encodeURIComponent(st.name)}/review`, { accept: false, reason: reason.value }, msg, () => `The description of ${st.name} is rejected.`) }, 'Reject'));
    }
    return h('tr', { 'data-site': st.name }, cells, actions);
  });
  return section('Bases, portals and towns (2.5.1)', 'round-sites-title',
    r.sites.length ? h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Sites' }, h('table', { id: 'round-sites' },
      h('thead', {}, h('tr', {}, ['Site', 'Kind', 'Square', 'Win condition', 'Description', ''].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows))) : h('p', {}, 'No site you may see yet.'),
    msg);
}

function winConditions(r) {
  if (!r.you.win_chooser || r.published || r.state !== 'setup') return null;
  const bases = r.sites.filter((st) => st.kind === 'base');
  if (!bases.length) return null;
  const msg = h('div', { role: 'status', hidden: true, id: 'round-win-msg' });
  const boxes = bases.map((b, i) => [h('input', { type: 'checkbox', id: `win-${i}`, value: b.name, checked: b.win_condition }), h('label', { for: `win-${i}` }, b.name), ' ']);
  const form = h('form', {
    id: 'round-win-form',
    onsubmit: (e) => {
      e.preventDefault();
      const chosen = [...form.querySelectorAll('input:checked')].map((x) => x.value);
      step('PUT', '/win-conditions', { bases: chosen }, msg, () => `The Coalition’s win conditions: ${chosen.join(', ')}.`);
    },
  }, h('fieldset', {}, h('legend', {}, 'Exactly 5 of the Coalition’s bases'), boxes), h('button', { type: 'submit' }, 'Choose them'));
  return section('The Coalition’s win conditions (2.5.1.3)', 'round-win-title', form, msg);
}

function requestForm(r) {
  if (!r.you.leader || r.state !== 'setup') return null;
  const msg = h('div', { role: 'status', hidden: true, id: 'round-request-msg' });
  const ta = h('textarea', { id: 'round-request', rows: 3, cols: 40, maxlength: 8000, required: true });
  const form = h('form', {
    id: 'round-request-form',
    onsubmit: (e) => {
      e.preventDefault();
      step('POST', '/requests', { text: ta.value }, msg, () => 'The judges have your request.');
    },
  }, h('label', { for: 'round-request' }, 'Your request'), ta, h('button', { type: 'submit' }, 'Send it to the judges'));
  return section('A request to the judges', 'round-request-title', form, msg);
}

function counts(r) {
  if (!r.you.run || r.state !== 'setup') return null;
  const msg = h('div', { role: 'status', hidden: true, id: 'round-counts-msg' });
  const inputs = RANKS.map((k) => [h('label', { for: `count-${k}` }, rankName(k, 'coalition')), h('input', { id: `count-${k}`, type: 'number', min: 0, max: 100, value: r.counts[k], size: 3 })]);
  const form = h('form', {
    id: 'round-counts-form',
    onsubmit: (e) => {
      e.preventDefault();
      const body = Object.fromEntries(RANKS.map((k) => [k, Number($(`#count-${k}`).value)]));
      step('PUT', '/counts', body, msg, () => 'Both sides start with these armies.');
    },
  }, inputs, h('button', { type: 'submit' }, 'Set the counts'));
  return section('Armies of each rank (2.5.2.1)', 'round-counts-title', form, msg);
}

/** parseTroops reads a troop list written one creature a line: "5000 Air Elemental", "slot 2" and "as 4/4" after it optional. */
function parseTroops(text) {
  return text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    const m = /^(\d+)\s+(.+?)(?:\s+as\s+(\d+\/\d+))?(?:\s+slot\s+([1-4]))?$/i.exec(l);
    if (!m) return { creature: l, count: 0 };
    const e = { creature: m[2], count: Number(m[1]) };
    if (m[3]) e.size = m[3];
    if (m[4]) e.slot = Number(m[4]);
    return e;
  });
}

function armies(r) {
  const msg = h('div', { role: 'status', hidden: true, id: 'round-army-msg' });
  const table = r.armies.length ? h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Armies' }, h('table', { id: 'round-armies' },
    h('thead', {}, h('tr', {}, ['Army', 'Rank', 'Player', 'Colours', 'Base', 'Square', 'Troops'].map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, r.armies.map((a) => h('tr', { 'data-army': a.name }, h('td', {}, a.name), h('td', {}, `${rankName(a.rank, a.side)} of ${sideName(a.side)}`), h('td', {}, a.player || 'proxy'),
      h('td', {}, (a.colors || []).join(', ')), h('td', {}, a.base || ''), h('td', {}, a.at || ''),
      h('td', {}, (a.troops || []).map((t) => `${t.count} ${t.creature}`).join('; '))))))) : h('p', {}, 'No army you may see yet.');
  const me = session();
  const mayWrite = r.state === 'setup' && (r.you.run || r.you.leader || (me && r.members.some((m) => m.name === me.name && m.side)));
  if (!mayWrite) return section('Armies (2.5.2)', 'round-armies-title', table);
  const bases = r.sites.filter((st) => st.kind !== 'town');
  const form = h('form', {
    id: 'round-army-form',
    onsubmit: (e) => {
      e.preventDefault();
      const f = e.target.elements, body = {};
      if (f.rank.value) body.rank = f.rank.value;
      const colors = FACTIONS.filter((c) => f[`color-${c}`].checked);
      if (colors.length) body.colors = colors;
      if (f.troops.value.trim()) body.troops = parseTroops(f.troops.value);
      if (f.base.value) body.base = f.base.value;
      if (f.at && f.at.value.trim()) body.at = f.at.value.trim();
      const name = f.army.value.trim();
      step('PUT', `/armies/${encodeURIComponent(name)}`, body, msg, () => `${name} is sent.`);
    },
  },
  h('label', { for: 'army-name' }, 'Army (your own is your name)'), h('input', { id: 'army-name', name: 'army', required: true, maxlength: 40, value: me && !r.you.run ? me.name : '' }),
  h('label', { for: 'army-rank' }, 'Rank (a proxy’s)'), h('select', { id: 'army-rank', name: 'rank' }, h('option', { value: '' }, '—'), RANKS.map((k) => h('option', { value: k }, rankName(k, r.you.side || 'coalition')))),
  h('fieldset', {}, h('legend', {}, 'Colours (a Coalition army’s factions)'), FACTIONS.map((c) => [h('input', { type: 'checkbox', id: `color-${c}`, name: `color-${c}` }), h('label', { for: `color-${c}` }, c), ' '])),
  h('label', { for: 'army-troops' }, 'Troop list, one creature a line: “5000 Air Elemental”, optionally “slot 1” or “as 4/4”'), h('textarea', { id: 'army-troops', name: 'troops', rows: 4, cols: 40 }),
  h('label', { for: 'army-base' }, 'Starts by (once the positions are public)'), h('select', { id: 'army-base', name: 'base' }, h('option', { value: '' }, '—'), bases.map((b) => h('option', { value: b.name }, b.name))),
  r.you.run ? [h('label', { for: 'army-at' }, 'Square (the judges’)'), h('input', { id: 'army-at', name: 'at', maxlength: 4, size: 4 })] : null,
  h('button', { type: 'submit' }, 'Send the army'));
  return section('Armies (2.5.2)', 'round-armies-title', table, form, msg);
}

const MERC_FACTIONS = ['town-defender', 'theme', 'raider'];

/** troopText writes a troop list back as the troop field reads it. */
function troopText(troops) {
  return (troops || []).map((t) => `${t.full || t.count} ${t.creature}${t.size ? ` as ${t.size}` : ''}${t.slot ? ` slot ${t.slot}` : ''}`).join('\n');
}

/** mercenaries lists the round's mercenaries; the judges and the mercenary judge edit, add and remove them while the round is set up (2.5.3, chapter 6: the server checks each with the round's other checks). */
function mercenaries(r) {
  const mayEdit = r.you.mercenary && r.state === 'setup';
  if (!r.mercenaries.length && !mayEdit) return null;
  const msg = h('div', { role: 'status', hidden: true, id: 'round-merc-msg' });
  const edit = (m) => {
    const f = $('#round-merc-form').elements;
    f.name.value = m.name;
    f.faction.value = m.faction;
    f.rank.value = m.rank;
    f.at.value = m.at;
    f.ocean.checked = !!m.ocean;
    f.troops.value = troopText(m.troops);
    f.at.focus();
  };
  const list = r.mercenaries.length ? h('ul', { id: 'round-mercs' }, r.mercenaries.map((m) => h('li', { 'data-merc': m.name },
    `${m.name}: ${m.faction}${m.ocean ? ' (ocean)' : ''}, ${rankName(m.rank, 'coalition')} class, on ${m.at}`,
    mayEdit ? [' ', h('button', { type: 'button', class: 'edit', onclick: () => edit(m) }, `Edit ${m.name}`), ' ',
      h('button', { type: 'button', class: 'remove', onclick: () => step('DELETE', `/mercenaries/${encodeURIComponent(m.name)}`, undefined, msg, () => `${m.name} is taken out of the round.`) }, `Remove ${m.name}`)] : null)))
    : h('p', {}, 'No mercenary yet: the generator makes them, or write one below.');
  if (!mayEdit) return section('Mercenaries (2.5.3, chapter 6)', 'round-mercs-title', list);
  const form = h('form', {
    id: 'round-merc-form',
    onsubmit: (e) => {
      e.preventDefault();
      const f = e.target.elements, name = f.name.value.trim();
      const body = { faction: f.faction.value, rank: f.rank.value, at: f.at.value.trim(), troops: parseTroops(f.troops.value) };
      if (f.ocean.checked) body.ocean = true;
      step('PUT', `/mercenaries/${encodeURIComponent(name)}`, body, msg, () => `${name} is written.`);
    },
  },
  h('label', { for: 'merc-name' }, 'Mercenary army'), h('input', { id: 'merc-name', name: 'name', required: true, maxlength: 40 }),
  h('label', { for: 'merc-faction' }, 'Kind (6.1–6.3)'), h('select', { id: 'merc-faction', name: 'faction' }, MERC_FACTIONS.map((k) => h('option', { value: k }, k))),
  h('label', { for: 'merc-rank' }, 'Class'), h('select', { id: 'merc-rank', name: 'rank' }, RANKS.map((k) => h('option', { value: k }, rankName(k, 'coalition')))),
  h('label', { for: 'merc-at' }, 'Square'), h('input', { id: 'merc-at', name: 'at', required: true, maxlength: 4, size: 4 }),
  h('input', { type: 'checkbox', id: 'merc-ocean', name: 'ocean' }), h('label', { for: 'merc-ocean' }, 'the ocean army (6.2)'),
  h('label', { for: 'merc-troops' }, 'Troop list, one creature a line: “5000 Air Elemental”'), h('textarea', { id: 'merc-troops', name: 'troops', rows: 4, cols: 40, required: true }),
  h('button', { type: 'submit' }, 'Write the mercenary'));
  return section('Mercenaries (2.5.3, chapter 6)', 'round-mercs-title', list, form, msg);
}

function audit(r) {
  if (!r.audit || !r.audit.length) return null;
  return section('The round’s steps (audit log)', 'round-audit-title', h('ul', { class: 'scroll', tabindex: 0, 'aria-label': 'Audit log' }, r.audit.map((e) => h('li', {}, `${at(e.at)} ${e.actor}: ${e.detail}`))));
}

function render() {
  if (!round) return;
  $('#round-title').textContent = round.name;
  facts(round);
  drawer.draw(mapView(round));
  fill($('#round-panel'), problems(round), judgeActions(round), sites(round), winConditions(round), requestForm(round), counts(round), armies(round), mercenaries(round), audit(round));
  document.body.dataset.state = round.state;
}

async function load() {
  const list = await get('/api/rounds');
  const sel = $('#round-pick');
  fill(sel, list.map((x) => h('option', { value: x.id }, `${x.name} (${x.state})`)));
  const want = Number(new URLSearchParams(location.search).get('r')) || 0;
  const pick = list.find((x) => x.id === want) || list[list.length - 1];
  if (!pick) {
    fill($('#round-panel'), h('p', { class: 'notice warn' }, 'No round is being set up: an admin creates one (POST /api/rounds), or a judge starts a decided campaign’s next round.'));
    return;
  }
  sel.value = pick.id;
  rid = pick.id;
  round = await get(`/api/rounds/${rid}`);
  render();
}

function renderSession() {
  const who = session();
  $('#login').hidden = !!who;
  $('#who').hidden = !who;
  if (who) $('#who-name').textContent = who.name;
}

function wire() {
  $('#login').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target, msg = $('#login-problem');
    msg.hidden = true;
    try {
      await login(f.elements.name.value.trim(), f.elements.password.value);
      f.reset();
    } catch (err) {
      problem(msg, err);
    }
  });
  $('#logout').addEventListener('click', () => logout());
  $('#alert-close').addEventListener('click', () => { $('#alert').hidden = true; });
  $('#round-pick').addEventListener('change', async (e) => {
    rid = Number(e.target.value);
    history.replaceState(null, '', `?r=${rid}`);
    round = await get(`/api/rounds/${rid}`);
    render();
  });
  onSession(async () => {
    renderSession();
    try {
      await load();
    } catch (err) {
      alarm(err);
    }
  });
}

async function main() {
  fill($('#round-nav'), h('a', { href: '/' }, 'The campaigns'));
  wire();
  renderSession();
  try {
    await load();
  } catch (err) {
    alarm(err);
  }
  document.body.dataset.ready = 'true';
}

main();
