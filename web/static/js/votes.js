// The votes page (1.4): the votes the reader may see with their points per option (a secret
// vote's once it closed) and who voted what in an open vote; his ballot, changed until the
// close; and, for a side's team leaders and the judges, a form to call one.
import { get } from './api.js';
import { h, fill, at, sideName } from './util.js';
import { whoKey, has, plays, judge, field, select, send, status } from './govern.js';

let app, mounted, els = {};

const KINDS = { normal: 'Normal: every player, 3/2/1 voting points by rank (1.4.1)', leader: 'Leaders only, 1 point each (1.4.2)', special: 'Special: the voters and points you name (1.4.3)' };

export function mount(panel, a) {
  app = a;
  mounted = { panel, who: whoKey(a) };
  els = { list: h('div', { id: 'vote-list' }), msg: status('vote-msg'), callMsg: status('vote-call-msg') };
  const mayCall = judge(app) || (has(app, 'leader') && plays(app));
  const you = app.campaign.you || {};
  const sides = judge(app) ? [['coalition', 'the Coalition'], ['phyrexia', 'Phyrexia'], ['', 'both sides']] : [[you.side || '', sideName(you.side || '')]];
  const closes = new Date(app.serverNow() + 2 * 86400000).toISOString().slice(0, 16);
  const form = mayCall ? h('form', { id: 'vote-form', onsubmit: callVote },
    ...select('vote-kind', 'Voting system', Object.entries(KINDS)),
    ...select('vote-side', 'Put to', sides),
    ...field('vote-question', 'Question', { required: true, maxlength: 500 }),
    h('label', { for: 'vote-options' }, 'Options, one a line'), h('textarea', { id: 'vote-options', rows: 3, required: true }),
    ...field('vote-closes', 'Closes (your time)', { type: 'datetime-local', required: true, value: closes }),
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', id: 'vote-secret' }), ' Secret: nobody sees who voted what'),
    h('label', { for: 'vote-voters' }, 'Special vote: voters, one a line, “name: points”'), h('textarea', { id: 'vote-voters', rows: 3 }),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'vote-call' }, 'Call the vote')), els.callMsg) : null;
  fill(panel, h('h2', {}, 'Votes'), els.msg, els.list, form ? [h('h3', {}, 'Call a vote (1.4)'), form] : null);
  load();
}

/** update draws the page again when the reader changed (a login or logout since it was drawn). */
export function update() {
  if (mounted && mounted.who !== whoKey(app)) mount(mounted.panel, app);
}

async function load() {
  try {
    const votes = await get(`/api/campaigns/${app.cid}/votes`);
    fill(els.list, votes.length ? votes.map(show) : h('p', {}, 'No vote yet.'));
  } catch (err) {
    app.problem(els.msg, err);
  }
}

function show(v) {
  const form = v.may_vote ? h('form', { id: `ballot-${v.id}`, class: 'ballot', onsubmit: (e) => cast(e, v) },
    h('fieldset', {}, h('legend', {}, `Your ballot (${v.my_points} point${v.my_points === 1 ? '' : 's'})`),
      v.options.map((o, i) => h('label', { class: 'choice' }, h('input', { type: 'radio', name: `choice-${v.id}`, value: o, id: `choice-${v.id}-${i}`, checked: !!(v.mine && v.mine.choice === o), required: true }), ' ', o))),
    h('button', { type: 'submit', id: `cast-${v.id}` }, v.mine ? 'Change my ballot' : 'Vote')) : null;
  return h('article', { class: 'card vote', 'data-vote': v.id, 'aria-labelledby': `vote-${v.id}-q` },
    h('h3', { id: `vote-${v.id}-q` }, v.question),
    h('p', { class: 'help' }, `${KINDS[v.kind]}; ${v.side ? sideName(v.side) : 'both sides'}; called by ${v.called_by}; `, v.closed ? 'closed ' : 'closes ', at(v.closes_at),
      v.secret ? '; secret' : '; open', `; ${v.cast} ballot${v.cast === 1 ? '' : 's'} cast`),
    v.results ? h('table', { class: 'results', id: `results-${v.id}` }, h('caption', {}, 'Points per option'),
      h('thead', {}, h('tr', {}, ['Option', 'Points', 'Ballots'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, v.results.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.option), h('td', {}, r.points), h('td', {}, r.ballots))))) : h('p', {}, 'The results of a secret vote show once it closes.'),
    v.ballots && v.ballots.length ? h('details', {}, h('summary', {}, 'Who voted what'),
      h('ul', {}, v.ballots.map((b) => h('li', {}, `${b.voter}: ${b.choice} (${b.points})`)))) : null,
    h('details', {}, h('summary', {}, 'Who may vote'), h('ul', {}, v.electorate.map((w) => h('li', {}, `${w.name}: ${w.points} point${w.points === 1 ? '' : 's'}`)))),
    v.mine ? h('p', {}, `You voted ${v.mine.choice}.`) : null, form);
}

async function cast(e, v) {
  e.preventDefault();
  const choice = new FormData(e.target).get(`choice-${v.id}`);
  if (await send(app, els.msg, 'PUT', `/api/campaigns/${app.cid}/votes/${v.id}/ballot`, { choice }, () => `Your ballot is cast: ${choice}.`)) load();
}

async function callVote(e) {
  e.preventDefault();
  const val = (id) => document.getElementById(id).value;
  const body = {
    kind: val('vote-kind'), side: val('vote-side'), question: val('vote-question').trim(),
    options: val('vote-options').split('\n').map((s) => s.trim()).filter(Boolean),
    closes_at: new Date(val('vote-closes')).toISOString(), secret: document.getElementById('vote-secret').checked,
  };
  if (body.kind === 'special') {
    body.voters = val('vote-voters').split('\n').map((s) => s.trim()).filter(Boolean).map((line) => {
      const [name, pts] = line.split(':');
      return pts ? { name: name.trim(), points: Number(pts) } : { name: name.trim() };
    });
  }
  if (await send(app, els.callMsg, 'POST', `/api/campaigns/${app.cid}/votes`, body, (v) => `The vote “${v.question}” is called.`)) load();
}
