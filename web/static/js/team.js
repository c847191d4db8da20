// The team page: members and ranks with who is active (5.1), the reader's own switch, the
// leaders' declarations of inactivity and the battle judge's rejection of them, screen-name
// changes (1.6) and requests for admission (1.1) — each reader seeing what his role allows.
import { get, session } from './api.js';
import { h, fill, at, rankName, sideName } from './util.js';
import { whoKey, me, has, plays, judge, admin, field, select, send, status } from './govern.js';

let app, mounted, els = {};

const RANKS = ['lieutenant', 'lt-commander', 'commander', 'captain', 'admiral', 'general', 'cadet'];
const FACTIONS = ['white', 'blue', 'black', 'red', 'green', 'five-color', 'colorless'];

export function mount(panel, a) {
  app = a;
  mounted = { panel, who: whoKey(a) };
  els = {
    members: h('tbody'), statements: h('ul', { id: 'statements', class: 'events' }), names: h('ul', { id: 'names', class: 'events' }),
    admissions: h('ul', { id: 'admissions', class: 'events' }),
    selfMsg: status('inactive-msg'), declareMsg: status('declare-msg'), statementsMsg: status('statements-msg'),
    nameMsg: status('name-msg'), admissionMsg: status('admission-msg'), own: h('p', { id: 'own-standing' }),
    declarePlayer: h('select', { id: 'declare-player', required: true }),
  };
  const m = me(app);
  const selfForm = plays(app) ? h('form', { id: 'inactive-form', onsubmit: setSelf },
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', id: 'inactive-on', name: 'inactive' }), ' I will be inactive'),
    ...field('inactive-until', 'Back on (optional; active again then)', { type: 'date' }),
    ...field('inactive-reason', 'Why (optional)', { maxlength: 500 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'inactive-save' }, 'Save')), els.selfMsg) : null;
  const declareForm = has(app, 'leader') && plays(app) ? h('form', { id: 'declare-form', onsubmit: declare },
    h('label', { for: 'declare-player' }, `Player of ${sideName(m.side)}`), els.declarePlayer,
    ...field('declare-reason', 'Why you believe he is inactive (the battle judge reads it)', { required: true, maxlength: 500 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'declare-save' }, 'Declare inactive')), els.declareMsg) : null;
  const nameForm = m ? h('form', { id: 'name-form', onsubmit: askName },
    ...field('name-new', 'New screen name', { required: true, maxlength: 40 }),
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', id: 'name-army' }), ' Rename my namesake army with me (from the next turn)'),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'name-ask' }, 'Ask the battle judge'))) : null;
  const admissionForm = session() && !plays(app) && !has(app, 'battle-judge') && !has(app, 'mercenary-judge') ? h('form', { id: 'admission-form', onsubmit: askAdmission },
    ...select('admission-side', 'Side', [['coalition', 'the Coalition'], ['phyrexia', 'Phyrexia']]),
    h('fieldset', { id: 'admission-factions' }, h('legend', {}, 'Coalition factions you claim (at most 3, 1.1.2)'),
      FACTIONS.map((f) => h('label', { class: 'choice' }, h('input', { type: 'checkbox', name: 'faction', value: f }), ' ', f))),
    ...field('admission-message', 'A word for the side’s leaders', { maxlength: 1000 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'admission-ask' }, 'Ask for admission'))) : null;
  fill(panel, h('h2', {}, 'Team'),
    h('p', { class: 'help' }, 'A player is active when he controls an army, posted within the last week and has not said he will be inactive (5.1). Active players keep their namesake and last armies (5.3).'),
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Members' },
      h('table', { id: 'members-table' }, h('caption', {}, 'Members and ranks'),
        h('thead', {}, h('tr', {}, ['Name', 'Side', 'Rank', 'Roles', 'Active (5.1)', 'Armies'].map((x) => h('th', { scope: 'col' }, x)))), els.members)),
    selfForm ? [h('h3', {}, 'Your standing'), els.own, selfForm] : null,
    declareForm ? [h('h3', {}, 'Declare a player inactive (leaders, 5.1)'), declareForm] : null,
    h('h3', {}, 'Statements of inactivity'), els.statementsMsg, els.statements,
    h('h3', {}, 'Screen names (1.6)'), nameForm, els.nameMsg, els.names,
    h('h3', {}, 'Admission (1.1)'), admissionForm, els.admissionMsg, els.admissions);
  load();
}

/** update draws the page again when the reader changed (a login or logout since it was drawn). */
export function update() {
  if (mounted && mounted.who !== whoKey(app)) mount(mounted.panel, app);
}

async function load() {
  const base = `/api/campaigns/${app.cid}`;
  try {
    const [members, activity, names, admissions] = await Promise.all([get(`${base}/members`), get(`${base}/activity`), get(`${base}/names`), get(`${base}/admissions`)]);
    showMembers(members, activity);
    showStatements(activity.statements);
    showNames(names);
    showAdmissions(admissions);
  } catch (err) {
    app.problem(els.statementsMsg, err);
  }
}

function showMembers(members, activity) {
  const standing = new Map(activity.players.map((p) => [p.player, p]));
  fill(els.members, members.map((m) => {
    const s = standing.get(m.name);
    return h('tr', { 'data-member': m.name },
      h('th', { scope: 'row' }, m.name, m.assists ? ` (assists ${m.assists})` : ''),
      h('td', {}, m.side ? sideName(m.side) : '—'), h('td', {}, m.rank ? rankName(m.rank, m.side) : '—'), h('td', {}, (m.roles || []).join(', ')),
      h('td', { class: s ? (s.active ? 'active' : 'inactive') : '' }, s ? [s.active ? 'Active' : 'Not active', s.why && s.why.length ? h('span', { class: 'help' }, `: ${s.why.join('; ')}`) : '',
        s.last_posted ? h('span', { class: 'help' }, ' — last posted ', at(s.last_posted)) : ''] : '—'),
      h('td', {}, s ? s.armies.join(', ') || 'none' : ''));
  }));
  const mine = me(app);
  if (mine && plays(app)) {
    const s = standing.get(mine.name);
    fill(els.own, s ? `You are ${s.active ? 'active' : 'not active'}${s.why && s.why.length ? ': ' + s.why.join('; ') : ''}.` : '');
    const box = document.getElementById('inactive-on');
    if (box && s) box.checked = !!s.statement;
    fill(els.declarePlayer, activity.players.filter((p) => p.side === mine.side).map((p) => h('option', { value: p.player }, p.player)));
  }
}

function showStatements(list) {
  if (!list.length) {
    fill(els.statements, h('li', {}, 'None.'));
    return;
  }
  fill(els.statements, list.map((s) => h('li', { 'data-statement': s.id },
    h('strong', {}, s.player), s.self ? ' said he will be inactive' : ` was declared inactive by ${s.by}`, ' — ', at(s.at),
    s.until ? [' until ', at(s.until)] : '', s.reason ? `: ${s.reason}` : '',
    s.ended_at ? [' (ended ', at(s.ended_at), ')'] : '',
    s.rejected_at ? ` (rejected by ${s.rejected_by}: ${s.rejection})` : '',
    !s.self && !s.rejected_at && !s.ended_at && has(app, 'battle-judge') ? rejectForm(s) : null)));
}

function rejectForm(s) {
  const id = `reject-${s.id}`;
  const reason = h('input', { id, required: true, maxlength: 500, autocomplete: 'off' });
  return h('form', { class: 'hide-form', onsubmit: async (e) => {
    e.preventDefault();
    if (await send(app, els.statementsMsg, 'POST', `/api/campaigns/${app.cid}/inactivity/${s.id}/reject`, { reason: reason.value.trim() },
      () => `The declaration that ${s.player} is inactive is rejected.`)) load();
  } }, h('label', { for: id }, 'Reason to reject it'), reason, ' ', h('button', { type: 'submit', 'aria-label': `Reject the declaration about ${s.player}` }, 'Reject'));
}

async function setSelf(e) {
  e.preventDefault();
  const on = document.getElementById('inactive-on').checked;
  const until = document.getElementById('inactive-until').value;
  const body = { inactive: on };
  if (on && until) body.until = new Date(`${until}T00:00:00Z`).toISOString();
  const reason = document.getElementById('inactive-reason').value.trim();
  if (on && reason) body.reason = reason;
  if (await send(app, els.selfMsg, 'PUT', `/api/campaigns/${app.cid}/activity`, body, (s) => `Saved: you are ${s.active ? 'active' : 'not active'}.`)) load();
}

async function declare(e) {
  e.preventDefault();
  const player = els.declarePlayer.value;
  if (await send(app, els.declareMsg, 'POST', `/api/campaigns/${app.cid}/inactivity`, { player, reason: document.getElementById('declare-reason').value.trim() },
    () => `${player} is declared inactive; the battle judge may reject it.`)) load();
}

function showNames(list) {
  if (!list.length) {
    fill(els.names, h('li', {}, 'No name changes.'));
    return;
  }
  fill(els.names, list.map((n) => h('li', { 'data-name-change': n.id },
    `${n.old_name} → ${n.new_name}`, n.army ? ` (namesake army ${n.army} renamed ${n.army_name}${n.army_renamed ? '' : ' when the next turn opens'})` : '',
    `: ${n.status}`, n.decided_by ? ` by ${n.decided_by}` : '', n.reason ? ` (${n.reason})` : '',
    n.status === 'pending' && has(app, 'battle-judge') ? h('span', { class: 'buttons' }, ' ',
      h('button', { type: 'button', id: `approve-name-${n.id}`, onclick: () => decideName(n, 'approve') }, 'Approve'), ' ',
      h('button', { type: 'button', id: `decline-name-${n.id}`, onclick: () => decideName(n, 'decline') }, 'Decline')) : null)));
}

async function decideName(n, how) {
  if (await send(app, els.nameMsg, 'POST', `/api/campaigns/${app.cid}/names/${n.id}/${how}`, {},
    (d) => `${d.old_name} → ${d.new_name}: ${d.status}.`)) load();
}

async function askName(e) {
  e.preventDefault();
  const body = { name: document.getElementById('name-new').value.trim(), rename_army: document.getElementById('name-army').checked };
  if (await send(app, els.nameMsg, 'POST', `/api/campaigns/${app.cid}/names`, body, (d) => `Asked: ${d.old_name} → ${d.new_name}, for the battle judge.`)) load();
}

function showAdmissions(list) {
  if (!list.length) {
    fill(els.admissions, h('li', {}, 'No requests for admission.'));
    return;
  }
  const m = me(app);
  fill(els.admissions, list.map((ad) => {
    const decides = ad.status === 'pending' && (judge(app) || admin() || (has(app, 'leader') && m && m.side === ad.side));
    return h('li', { 'data-admission': ad.id },
      h('strong', {}, ad.name), ` asks to join ${sideName(ad.side)}`, ' — ', at(ad.asked_at), ad.message ? `: “${ad.message}”` : '',
      ad.factions && ad.factions.length ? ` (factions ${ad.factions.join(', ')})` : '',
      ad.status !== 'pending' ? ` — ${ad.status}${ad.decided_by ? ' by ' + ad.decided_by : ''}${ad.rank ? ' as ' + rankName(ad.rank, ad.side) : ''}${ad.reason ? ' (' + ad.reason + ')' : ''}` : '',
      decides ? admitForm(ad) : null);
  }));
}

function admitForm(ad) {
  const rank = h('select', { id: `admit-rank-${ad.id}` }, RANKS.map((r) => h('option', { value: r }, rankName(r, ad.side))));
  return h('span', { class: 'hide-form' },
    h('label', { for: `admit-rank-${ad.id}` }, 'Rank'), rank, ' ',
    h('button', { type: 'button', id: `admit-${ad.id}`, onclick: async () => {
      if (await send(app, els.admissionMsg, 'POST', `/api/campaigns/${app.cid}/admissions/${ad.id}/accept`, { rank: rank.value },
        (d) => `${d.name} joins ${sideName(d.side)} as ${rankName(d.rank, d.side)}.`)) load();
    } }, 'Admit'), ' ',
    h('button', { type: 'button', id: `refuse-${ad.id}`, onclick: async () => {
      if (await send(app, els.admissionMsg, 'POST', `/api/campaigns/${app.cid}/admissions/${ad.id}/decline`, {}, (d) => `${d.name} is declined.`)) load();
    } }, 'Decline'));
}

async function askAdmission(e) {
  e.preventDefault();
  const factions = [...document.querySelectorAll('#admission-factions input:checked')].map((x) => x.value);
  const side = document.getElementById('admission-side').value;
  const body = { side, message: document.getElementById('admission-message').value.trim() };
  if (side === 'coalition') body.factions = factions;
  if (await send(app, els.admissionMsg, 'POST', `/api/campaigns/${app.cid}/admissions`, body, (d) => `Asked to join ${sideName(d.side)}: its leaders answer.`)) load();
}
