// The control page: the control list with its history and who may change it (5.2.1, 5.2.2.1),
// the change itself (refused naming the rule of 5.3 it breaks; a namesake's consent asked,
// 5.3.2), the contingencies (5.2.3), consent requests, handing on the change power, and the
// emergency configurations with what is still illegal and the armies owed (5.2.2.2, 5.3.4).
import { get } from './api.js';
import { h, fill, at, sideName } from './util.js';
import { whoKey, me, has, plays, judge, admin, field, select, send, status, names } from './govern.js';

let app, mounted, els = {}, last = {};

export function mount(panel, a) {
  app = a;
  mounted = { panel, who: whoKey(a) };
  els = {
    holders: h('dl', { id: 'holders', class: 'facts' }), current: h('tbody'), history: h('tbody'), contingencies: h('ul', { id: 'contingencies', class: 'events' }),
    requests: h('ul', { id: 'requests', class: 'events' }), emergencies: h('ul', { id: 'emergencies', class: 'events' }), owed: h('ul', { id: 'owed', class: 'events' }),
    notices: h('ul', { id: 'notices', class: 'events' }), controlMsg: status('control-msg'), powerMsg: status('power-msg'),
    requestsMsg: status('requests-msg'), emergencyMsg: status('emergency-msg'), army: h('select', { id: 'control-army', required: true }),
    ask: h('button', { type: 'button', id: 'control-ask-consent', hidden: true, onclick: askConsent }, 'Ask the namesake player’s consent (5.3.2)'),
  };
  const controlForm = h('form', { id: 'control-form', onsubmit: change, hidden: true },
    h('label', { for: 'control-army' }, 'Army'), els.army,
    ...field('control-to', 'New controllers (names, separated by commas; none frees it)', { maxlength: 200 }),
    ...field('control-reason', 'Reason', { maxlength: 500 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'control-save' }, 'Change the control'), ' ', els.ask), els.controlMsg);
  const powerForm = h('form', { id: 'power-form', onsubmit: hand, hidden: true },
    ...select('power-side', 'Side', [['coalition', 'the Coalition'], ['phyrexia', 'Phyrexia']]),
    ...field('power-from', 'From the holder', { maxlength: 40 }), ...field('power-to', 'To the player', { required: true, maxlength: 40 }),
    ...field('power-reason', 'Reason', { maxlength: 500 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'power-save' }, 'Hand on the change power')), els.powerMsg);
  const emergencyForm = judge(app) ? h('form', { id: 'emergency-form', onsubmit: emergency },
    ...select('emergency-kind', 'Kind', [['authorize', 'Authorize two other people to change a side’s list'], ['accept', 'Accept a change that breaks 5.3']]),
    ...select('emergency-side', 'Side', [['coalition', 'the Coalition'], ['phyrexia', 'Phyrexia']]),
    ...field('emergency-people', 'The two people (authorize: names, separated by a comma)', { maxlength: 100 }),
    ...field('emergency-army', 'The army (accept)', { maxlength: 100 }),
    ...field('emergency-controllers', 'Its controllers (accept: names, separated by commas)', { maxlength: 200 }),
    ...field('emergency-reason', 'Reason (required, 5.2.2.2)', { required: true, maxlength: 500 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'emergency-save' }, 'Allow the emergency configuration')), els.emergencyMsg) : null;
  fill(panel, h('h2', {}, 'Control list'),
    h('h3', {}, 'Who may change it (5.2.2.1)'), els.holders, powerForm,
    controlForm,
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'The control list' },
      h('table', { id: 'control-table' }, h('caption', {}, 'Who controls each army now'),
        h('thead', {}, h('tr', {}, ['Army', 'Side', 'Controllers'].map((x) => h('th', { scope: 'col' }, x)))), els.current)),
    h('details', { id: 'control-history' }, h('summary', {}, 'History of the list'),
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'History of the control list' },
        h('table', {}, h('thead', {}, h('tr', {}, ['From', 'Army', 'Controllers', 'By', 'Why'].map((x) => h('th', { scope: 'col' }, x)))), els.history))),
    h('h3', {}, 'Contingencies (5.2.3)'), els.contingencies,
    h('h3', {}, 'Consent requests (5.3.2)'), els.requestsMsg, els.requests,
    h('h3', {}, 'Emergency configurations (5.2.2.2)'), els.emergencies, emergencyForm,
    h('h3', {}, 'Armies owed to players (5.3.4)'), els.owed,
    h('h3', {}, 'Notices to the sides'), els.notices);
  load();
}

/** update draws the page again when the reader changed (a login or logout since it was drawn). */
export function update() {
  if (mounted && mounted.who !== whoKey(app)) mount(mounted.panel, app);
}

/** formerNames maps each former screen name to the name held now (1.6). */
function formerNames(changes) {
  const m = new Map();
  for (const n of changes) if (n.status === 'approved') m.set(n.old_name, n.new_name);
  for (const [k, v] of m) {
    let now = v;
    for (let i = 0; i < 10 && m.has(now); i++) now = m.get(now);
    m.set(k, now);
  }
  return m;
}

async function load() {
  const base = `/api/campaigns/${app.cid}`;
  try {
    const [list, power, members, requests, emergencies, changes] = await Promise.all([get(`${base}/control`), get(`${base}/power`), get(`${base}/members`),
      get(`${base}/control/requests`), get(`${base}/emergencies`), get(`${base}/names`)]);
    last = { list, power, members };
    const former = formerNames(changes);
    const name = (n) => (former.has(n) ? `${n} (now ${former.get(n)})` : n);
    showPower(power);
    const sides = new Map(((app.map && app.map.armies) || []).map((x) => [x.name, x.side]));
    const mayChange = (side) => has(app, 'movement-judge') || admin() || ((power.holders[side] || []).concat(power.authorized[side] || [])).includes((me(app) || {}).name);
    const armies = Object.keys(list.current).sort().filter((x) => mayChange(sides.get(x)));
    fill(els.army, armies.map((x) => h('option', { value: x }, x)));
    document.getElementById('control-form').hidden = armies.length === 0;
    fill(els.current, Object.keys(list.current).sort().map((x) => h('tr', { 'data-army': x },
      h('th', { scope: 'row' }, x), h('td', {}, sideName(sides.get(x) || '')), h('td', {}, list.current[x].length ? list.current[x].join(', ') : 'no player'))));
    fill(els.history, list.history.slice().reverse().map((e) => h('tr', {},
      h('td', {}, at(e.effective_at)), h('td', {}, e.army), h('td', {}, e.controllers.map(name).join(', ') || 'no player'), h('td', {}, name(e.by)), h('td', {}, e.reason || ''))));
    const cont = members.filter((m) => m.contingency);
    fill(els.contingencies, cont.length ? cont.map((m) => h('li', {}, `${m.contingency} may send the strategies of ${m.name} in the last 24 hours`)) : h('li', {}, 'None.'));
    showRequests(requests);
    showEmergencies(emergencies);
  } catch (err) {
    app.problem(els.controlMsg, err);
  }
}

function showPower(power) {
  fill(els.holders, ['coalition', 'phyrexia'].map((s) => [h('dt', {}, sideName(s)),
    h('dd', { 'data-side': s }, (power.holders[s] || []).join(' and ') || 'nobody',
      (power.authorized[s] || []).length ? ` — in an emergency also ${power.authorized[s].join(' and ')} (5.2.2.2)` : '')]));
  const mine = me(app);
  const general = mine && mine.rank === 'general' && plays(app);
  const holder = mine && ((power.holders[mine.side] || []).includes(mine.name));
  document.getElementById('power-form').hidden = !(general || holder || has(app, 'battle-judge'));
  if (mine && mine.side) document.getElementById('power-side').value = mine.side;
  if (holder && !general) document.getElementById('power-from').value = mine.name;
}

function showRequests(list) {
  const mine = me(app);
  fill(els.requests, list.length ? list.map((r) => h('li', { 'data-request': r.id },
    `${r.by} asks ${r.namesake}’s consent to give ${r.army} to ${r.controllers.join(', ') || 'no player'}`, ' — ', at(r.at), `: ${r.status}`,
    r.status === 'pending' && mine && mine.name === r.namesake ? h('span', { class: 'buttons' }, ' ',
      h('button', { type: 'button', id: `consent-${r.id}`, onclick: () => answer(r, 'accept') }, 'Consent'), ' ',
      h('button', { type: 'button', id: `refuse-consent-${r.id}`, onclick: () => answer(r, 'decline') }, 'Refuse')) : null)) : h('li', {}, 'None.'));
}

function showEmergencies(v) {
  fill(els.emergencies, v.emergencies.length ? v.emergencies.map((e) => h('li', { 'data-emergency': e.id },
    `${sideName(e.side)}: `, e.kind === 'authorize' ? `${e.people.join(' and ')} authorized to change its control list` : `${e.army} given to ${(e.controllers || []).join(', ') || 'no player'} although it breaks ${e.breaches.map((b) => b.rule).join(', ')}`,
    ` — by ${e.by} in turn ${e.turn} (${e.reason}). `,
    e.closed_turn ? `Closed at the lock of turn ${e.closed_turn}: ${e.outcome}.` : h('strong', {}, `Legal again by the lock of turn ${e.due}.`),
    !e.closed_turn && e.illegal.length ? h('ul', {}, e.illegal.map((b) => h('li', { class: 'error' }, b.message))) : null)) : h('li', {}, 'None.'));
  const owed = Object.entries(v.owed).flatMap(([s, list]) => list.map((b) => h('li', {}, `${sideName(s)}: ${b.message}`)));
  fill(els.owed, owed.length ? owed : h('li', {}, 'None.'));
  fill(els.notices, v.notices.length ? v.notices.slice().reverse().map((n) => h('li', {}, at(n.at), ` (turn ${n.turn}, ${sideName(n.side)}) ${n.text}`)) : h('li', {}, 'None.'));
}

function changeBody() {
  return { army: els.army.value, controllers: names(document.getElementById('control-to').value), reason: document.getElementById('control-reason').value.trim() };
}

async function change(e) {
  e.preventDefault();
  els.ask.hidden = true;
  const body = changeBody();
  const done = await send(app, els.controlMsg, 'POST', `/api/campaigns/${app.cid}/control`, body,
    (d) => `${d.army} is controlled by ${d.controllers.join(', ') || 'no player'} from now on.`);
  if (done) {
    load();
    return;
  }
  els.ask.hidden = !/\(5\.3\.2\)/.test(els.controlMsg.textContent);
}

async function askConsent() {
  if (await send(app, els.controlMsg, 'POST', `/api/campaigns/${app.cid}/control/requests`, changeBody(), (d) => `Asked ${d.namesake}’s consent (5.3.2).`)) {
    els.ask.hidden = true;
    load();
  }
}

async function answer(r, how) {
  if (await send(app, els.requestsMsg, 'POST', `/api/campaigns/${app.cid}/control/requests/${r.id}/${how}`, {},
    (d) => (d.status === 'accepted' ? `${d.army} goes to ${d.controllers.join(', ') || 'no player'} with your consent.` : `You refused to give up ${d.army}.`))) load();
}

async function hand(e) {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value.trim();
  const body = { side: v('power-side'), to: v('power-to'), reason: v('power-reason') };
  if (v('power-from')) body.from = v('power-from');
  if (await send(app, els.powerMsg, 'POST', `/api/campaigns/${app.cid}/power`, body, (p) => `${sideName(body.side)}’s change power: ${p.holders[body.side].join(' and ')}.`)) load();
}

async function emergency(e) {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value.trim();
  const body = { kind: v('emergency-kind'), reason: v('emergency-reason') };
  if (body.kind === 'authorize') {
    body.side = v('emergency-side');
    body.people = names(v('emergency-people'));
  } else {
    body.army = v('emergency-army');
    body.controllers = names(v('emergency-controllers'));
  }
  if (await send(app, els.emergencyMsg, 'POST', `/api/campaigns/${app.cid}/emergencies`, body,
    (d) => `Allowed: ${sideName(d.side)} must be legal again by the lock of turn ${d.turn + 1}.`)) load();
}

/** summary is the judge console's part: the open emergencies, their deadlines and what they still leave illegal. */
export function summary(a) {
  const box = h('div', { id: 'judge-emergencies' }, 'Loading…');
  get(`/api/campaigns/${a.cid}/emergencies`).then((v) => {
    const open = v.emergencies.filter((e) => !e.closed_turn);
    const owed = Object.entries(v.owed).flatMap(([s, list]) => list.map((b) => `${sideName(s)}: ${b.message}`));
    fill(box, open.length || owed.length ? h('ul', { class: 'events' },
      open.map((e) => h('li', {}, `${sideName(e.side)} must return to a legal configuration by the lock of turn ${e.due} (5.2.2.2): `,
        e.illegal.length ? e.illegal.map((b) => b.message).join('; ') : (e.kind === 'authorize' ? `${e.people.join(' and ')} are authorized until then` : 'nothing is illegal any more'))),
      owed.map((t) => h('li', {}, t))) : h('p', {}, 'No emergency configuration is open and no army is owed.'));
    // the section starts folded when all is legal; something to do opens it, unless the judge folded it himself
    const sec = box.closest('section.fold');
    if ((open.length || owed.length) && sec && sec.classList.contains('folded') && localStorage.getItem(`coalition.fold.${sec.id.replace(/-section$/, '')}`) === null) {
      sec.classList.remove('folded');
      sec.querySelector('.fold-toggle').setAttribute('aria-expanded', 'true');
    }
  }).catch((err) => fill(box, err.detail || String(err)));
  return box;
}
