// The sanctions of the open turn (5.4.1), in the judge console: a battle judge sanctions an
// army for an order or strategy sent by someone who does not control it and sees the d20 the
// turn's seed drew and the troops the army lost (severity × d20 × 100, 50, 25, 10 from slots
// 1–4); the turn's sanctions are listed under the form.
import { call, get } from './api.js';
import { h, fill, at, sideName } from './util.js';
import { armyLabel } from './map.js';

let app, els = {}, names = '', loaded = '', asked = 0;

/** mount builds the section's body: the form, its message and the list. */
export function mount(a) {
  app = a;
  names = '';
  loaded = '';
  els = {
    army: h('select', { id: 'sanction-army', name: 'army', required: true }),
    msg: h('div', { id: 'sanction-msg', role: 'status', hidden: true }),
    list: h('div', { id: 'sanction-list' }),
    listMsg: h('div', { role: 'status', hidden: true }),
  };
  const form = h('form', { id: 'sanction-form', onsubmit: send },
    h('p', { class: 'help' }, 'For an order or strategy sent for an army by someone who does not control it: the army loses severity × d20 × (100, 50, 25, 10) troops from slots 1–4 at once, the d20 drawn from the turn’s seed and published with its dice. In the last 24 hours before the battle deadline its side’s strategies are due 24 hours later.'),
    h('label', { for: 'sanction-army' }, 'Army'), els.army,
    h('label', { for: 'sanction-severity' }, 'Severity, 1 to 10'),
    h('input', { id: 'sanction-severity', name: 'severity', type: 'number', min: 1, max: 10, step: 1, value: 1, required: true }),
    h('label', { for: 'sanction-reason' }, 'Reason (recorded with the sanction and in the audit log)'),
    h('input', { id: 'sanction-reason', name: 'reason', required: true, maxlength: 500, autocomplete: 'off' }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'sanction-send' }, 'Sanction the army')), els.msg);
  update();
  return [form, h('h4', { id: 'sanction-list-title' }, 'Sanctions of the open turn'), els.listMsg, els.list];
}

/** update follows the map: its armies in the form, the list read again when the map changed. */
export function update() {
  if (!els.army || !app.map) return;
  const armies = app.map.armies || [];
  const key = armies.map((a) => `${a.name}@${a.at}`).join('|');
  if (key !== names) {
    names = key;
    const keep = els.army.value;
    const sides = [...new Set(armies.map((a) => a.side))];
    fill(els.army, h('option', { value: '' }, '— choose the army —'),
      sides.map((side) => h('optgroup', { label: `Armies of ${sideName(side)}` },
        armies.filter((a) => a.side === side).map((a) => h('option', { value: a.name, selected: a.name === keep }, armyLabel(a))))));
  }
  const at = `${app.campaign.turn.number}|${app.etag}`;
  if (at !== loaded) {
    loaded = at;
    load();
  }
}

/** lost writes a sanction's losses: "1250 troops (Llanowar Elves 1000, Grizzly Bears 250)". */
function lost(losses) {
  const parts = Object.entries(losses || {}).filter(([, n]) => n > 0);
  const total = parts.reduce((s, [, n]) => s + n, 0);
  return parts.length ? `${total} troops (${parts.map(([c, n]) => `${c} ${n}`).join(', ')})` : 'no troops';
}

/** draw writes the die a sanction rolled and its label, which verify-dice checks (B6). */
function draw(roll) {
  return roll ? `${roll.value} on a d${roll.die || 20} (${roll.label})` : '—';
}

async function send(e) {
  e.preventDefault();
  const f = e.target.elements;
  const n = app.campaign.turn.number;
  const req = { army: f.army.value, severity: Number(f.severity.value), reason: f.reason.value.trim() };
  els.msg.hidden = true;
  let data;
  try {
    data = (await call('POST', `/api/campaigns/${app.cid}/turns/${n}/sanctions`, req)).data;
  } catch (err) {
    app.problem(els.msg, err);
    return;
  }
  f.reason.value = '';
  app.say(els.msg, `Sanction ${data.k} on ${data.army} in turn ${n}, severity ${data.severity}: the d20 drew ${data.roll.value}; ${data.army} lost ${lost(data.losses)}.`);
  load();
  // The losses apply at once: the map (and the army's troops everywhere) follows.
  app.refresh().catch((err) => app.problem(els.listMsg, err));
}

/** load lists the open turn's sanctions, newest last, as the server keeps them. */
async function load() {
  const n = app.campaign.turn.number;
  const mine = ++asked;
  let list;
  try {
    list = await get(`/api/campaigns/${app.cid}/turns/${n}/sanctions`);
  } catch (err) {
    if (mine === asked) app.problem(els.listMsg, err);
    return;
  }
  if (mine !== asked) return;
  els.listMsg.hidden = true;
  if (!list.length) {
    fill(els.list, h('p', {}, `No army has been sanctioned in turn ${n}.`));
    return;
  }
  fill(els.list, h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Sanctions of the open turn' }, h('table', { class: 'sanctions' },
    h('caption', {}, `Turn ${n}: ${list.length} sanction${list.length === 1 ? '' : 's'}`),
    h('thead', {}, h('tr', {}, ['Army', 'Its sanction', 'Severity', 'Draw', 'Lost', 'Reason', 'By', 'When'].map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, list.map((x) => h('tr', { 'data-id': x.id },
      h('td', {}, x.army), h('td', {}, x.k), h('td', {}, x.severity), h('td', {}, draw(x.roll)), h('td', {}, lost(x.losses)),
      h('td', {}, x.reason), h('td', {}, x.by), h('td', {}, at(x.at))))))));
}
