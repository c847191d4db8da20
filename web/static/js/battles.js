// The battle pages: every battle of the open turn with its sides side by side; a player's
// strategy form (B1, 4.1–4.5) for his side's armies; the battle judge's desk: the strategy
// bonus (B2), the server's proposal with its size and colour bonuses (B3, B4), dice (B5) and
// casualties (B7), then the result adjusted and confirmed.
import { call, get } from './api.js';
import { h, fill, when, at } from './util.js';
import { resultFields, describeResult } from './results.js';

let app, panel, els = {};
let shownTurn = '';

/** available says whether the battle tab is shown: to anyone, once a campaign is open. */
export function available(a) {
  return !!(a && a.campaign);
}

function you() {
  return (app.campaign && app.campaign.you) || null;
}

function battleJudge() {
  const m = you();
  return !!(m && (m.roles || []).includes('battle-judge'));
}

export function mount(p, a) {
  app = a;
  panel = p;
  els = { list: h('div', { id: 'battle-list' }), msg: h('div', { role: 'status', hidden: true }) };
  fill(panel, h('h2', { id: 'battles-title' }, 'Battles'), els.msg, els.list);
  shownTurn = '';
  update();
}

export function update() {
  if (!els.list) return;
  // A new turn, or a new viewer (a login), shows other battles or other parts of them.
  const key = `${app.campaign.turn.number}|${app.campaign.class}|${(you() || {}).name || ''}`;
  if (key !== shownTurn) {
    shownTurn = key;
    load();
  }
}

/** load reads the open turn's battles as the caller may see them. */
async function load() {
  const n = app.campaign.turn.number;
  let data;
  try {
    data = await get(`/api/campaigns/${app.cid}/turns/${n}/battles`);
  } catch (err) {
    app.problem(els.msg, err);
    return;
  }
  $title().textContent = `Battles of turn ${n}`;
  if (!data.battles.length) {
    fill(els.list, h('p', {}, `No battle is fought in turn ${n}.`), h('p', { class: 'help' }, `The battle deadline is ${when(data.deadline)}.`));
    return;
  }
  fill(els.list, h('p', { class: 'help' }, `Strategies are due before the battle deadline, ${when(data.deadline)} (B1); a side sees only its own.`),
    data.battles.map((b) => battleCard(b, data.status)));
}

const $title = () => panel.querySelector('#battles-title');

function armyOnMap(name) {
  return ((app.map && app.map.armies) || []).find((a) => a.name === name) || { name, troops: [] };
}

function choices(c) {
  const out = [];
  if (c.kill) out.push(`kill ${c.kill} (4.3.2)`);
  if (c.capture) out.push(`capture ${c.capture} (4.5)`);
  if (c.run_away) out.push('run away (4.2.6)');
  if (c.leaves) out.push(`${c.leaves.army} leaves${c.leaves.to ? ' to ' + c.leaves.to : ''} (4.4)`);
  return out.length ? out.join('; ') : 'no special choice';
}

function troopsTable(a) {
  if (!a.troops || !a.troops.length) return h('p', {}, `${a.name}: troops not shown.`);
  return h('table', { class: 'troops' }, h('caption', {}, a.name),
    h('tbody', {}, a.troops.map((t) => h('tr', {}, h('td', {}, t.creature), h('td', {}, t.size), h('td', {}, `${t.alive} / ${t.full}`)))));
}

/** battleCard is one battle: its sides side by side, then what the caller may do about it. */
function battleCard(b, status) {
  const strategies = b.strategies || [];
  const sides = (b.sides || []).map((s) => h('section', { class: 'side', 'data-side': s.side },
    h('h4', {}, `${s.side[0].toUpperCase()}${s.side.slice(1)}: ${s.armies.join(' and ')}`),
    h('p', { class: 'help' }, 'Strategy due ', at(s.strategy_deadline), s.sent ? ` — sent for ${s.sent.length ? s.sent.join(', ') : 'nobody yet'}` : ''),
    s.armies.map((n) => troopsTable(armyOnMap(n))),
    strategies.filter((x) => x.side === s.side).map((x) => h('div', { class: 'strategy', 'data-army': x.army },
      h('p', {}, h('strong', {}, `${x.army}’s strategy`), ` by ${x.author}${x.contingency ? ' (contingency, 5.2.3)' : ''}, ${when(x.submitted_at)}`),
      h('pre', {}, x.text), h('p', {}, choices(x.choices || {}))))));
  const card = h('article', { class: 'battle card', 'data-square': b.square },
    h('h3', {}, `Battle at ${b.square}: ${(b.armies || []).join(' vs ')} (${b.kind}${b.attacker ? `, ${b.attacker} attacks` : ''})`),
    setting(b.setting),
    h('div', { class: 'side-by-side' }, sides));
  const me = you();
  const mine = me && me.side && (b.sides || []).find((s) => s.side === me.side);
  if (mine && status === 'open') card.append(strategyForm(b, mine));
  if (battleJudge() && status === 'open') card.append(desk(b));
  if (b.result) card.append(h('p', { class: 'notice ok' }, `Result: ${describeResult(b.result)}`), b.text ? h('pre', {}, b.text) : null);
  return card;
}

/** setting is where a battle is fought: its terrain (4.1.2.4), its weather (4.1.2.5) and the base's description. */
function setting(st) {
  if (!st) return null;
  return h('dl', { class: 'facts setting' },
    h('dt', {}, 'Terrain (4.1.2.4)'), h('dd', {}, st.terrain),
    h('dt', {}, 'Weather (4.1.2.5)'), h('dd', { class: 'weather', title: `d20 ${st.weather.roll}, ${st.weather.label}` }, st.weather.text),
    st.site ? [h('dt', {}, st.site), h('dd', { class: 'base-description' }, st.description || 'A town: no description.')] : null);
}

/** strategyForm sends a strategy for one of the caller's side's armies in the battle. */
function strategyForm(b, side) {
  const id = (x) => `strat-${b.square}-${x}`;
  const enemies = (b.armies || []).filter((n) => !side.armies.includes(n));
  const opt = (names, none) => [h('option', { value: '' }, none), names.map((n) => h('option', { value: n }, n))];
  const msg = h('div', { role: 'status', hidden: true });
  const form = h('form', { class: 'strategy-form' },
    h('h4', {}, 'Send a strategy'),
    h('label', { for: id('army') }, 'For the army'), h('select', { id: id('army'), name: 'army' }, side.armies.map((n) => h('option', { value: n }, n))),
    h('label', { for: id('text') }, 'The strategy, in words, for the battle judge (4.1.2)'),
    h('textarea', { id: id('text'), name: 'text', rows: 4, required: true, maxlength: 20000 }),
    h('label', { for: id('kill') }, 'Try to kill (risks 500 of the top slot, 4.3.2)'), h('select', { id: id('kill'), name: 'kill' }, opt(enemies, '— no kill attempt —')),
    h('label', { for: id('capture') }, 'Try to capture (risks up to 2000 of the lowest slot, 4.5)'), h('select', { id: id('capture'), name: 'capture' }, opt(enemies, '— no capture attempt —')),
    h('label', {}, h('input', { type: 'checkbox', name: 'run_away' }), ' Run away (4.2.6)'),
    side.armies.length > 1 ? [h('label', { for: id('leaves') }, 'If we win, this army leaves (4.4, B10)'), h('select', { id: id('leaves'), name: 'leaves' }, opt(side.armies, '— none —')),
      h('label', { for: id('leaves-to') }, 'To the square'), h('input', { id: id('leaves-to'), name: 'leaves_to', size: 5, autocomplete: 'off' })] : null,
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, `Send the strategy for ${b.square}`)), msg);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const req = { army: f.army.value, text: f.text.value };
    if (f.kill.value) req.kill = f.kill.value;
    if (f.capture.value) req.capture = f.capture.value;
    if (f.run_away.checked) req.run_away = true;
    if (f.leaves && f.leaves.value) req.leaves = { army: f.leaves.value, ...(f.leaves_to.value.trim() ? { to: f.leaves_to.value.trim().toUpperCase() } : {}) };
    try {
      const { data } = await call('POST', `/api/campaigns/${app.cid}/turns/${app.campaign.turn.number}/battles/${b.square}/strategies`, req);
      app.say(msg, `The strategy for ${data.army} is recorded (${when(data.submitted_at)}).`);
      setTimeout(load, 1200);
    } catch (err) {
      app.problem(msg, err);
    }
  });
  return form;
}

/** desk is the battle judge's part: bonus, proposal, adjustment and confirmation. */
function desk(b) {
  const id = (x) => `desk-${b.square}-${x}`;
  const armies = b.armies || [];
  const msg = h('div', { role: 'status', hidden: true });
  const out = h('div', { class: 'proposal' });
  const pairs = (b.sides || []).filter((s) => s.armies.length > 1).flatMap((s) => s.armies);
  const form = h('form', { class: 'judgement' },
    h('h4', {}, 'Battle judge’s desk'),
    h('label', { for: id('bonus_to') }, 'Strategy bonus to the side of (B2)'),
    h('select', { id: id('bonus_to'), name: 'bonus_to' }, h('option', { value: '' }, '— no bonus —'), armies.map((n) => h('option', { value: n }, n))),
    h('label', { for: id('bonus') }, 'Strategy bonus, 0 to 10'), h('input', { id: id('bonus'), name: 'bonus', type: 'number', min: 0, max: 10, value: 0 }),
    pairs.map((n) => [h('label', { for: id(`fought-${n}`) }, `How much ${n} fought (shares its side’s casualties, B10)`),
      h('input', { id: id(`fought-${n}`), name: `fought-${n}`, 'data-army': n, class: 'fought', type: 'number', min: 0, step: 0.1, value: 1 })]),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, `Propose the result at ${b.square}`)), msg);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    const req = {};
    if (f.bonus_to.value) {
      req.bonus_to = f.bonus_to.value;
      req.bonus = Number(f.bonus.value) || 0;
    }
    const fought = [...form.querySelectorAll('input.fought')];
    if (fought.length) req.fought = Object.fromEntries(fought.map((x) => [x.dataset.army, Number(x.value) || 0]));
    try {
      const { data } = await call('POST', `/api/campaigns/${app.cid}/turns/${app.campaign.turn.number}/battles/${b.square}/proposal`, req);
      msg.hidden = true;
      fill(out, proposalView(b, data));
    } catch (err) {
      app.problem(msg, err);
    }
  });
  if (b.proposal) fill(out, proposalView(b, b.proposal));
  return h('div', { class: 'desk' }, form, out);
}

/** proposalView shows a proposal — bonuses, dice, casualties, attempts — and the result to confirm. */
function proposalView(b, p) {
  const pr = p.proposal || {};
  const sides = pr.sides || [];
  const dice = pr.dice || {};
  const row = (label, f) => h('tr', {}, h('th', { scope: 'row' }, label), sides.map((s) => h('td', {}, String(f(s)))));
  const table = h('table', { class: 'proposal-sides' },
    h('caption', {}, 'The sides as proposed'),
    h('thead', {}, h('tr', {}, h('td', {}), sides.map((s) => h('th', { scope: 'col' }, s.side)))),
    h('tbody', {},
      row('Armies', (s) => (s.armies || []).join(', ')),
      row('Fighting', (s) => (s.fighting || []).join(', ') + (s.stratless ? ' (no strategy)' : '') + (s.runs_away ? ' (runs away)' : '')),
      row('Troops', (s) => (s.stats || {}).troops),
      row('Strategy bonus (B2)', (s) => s.strategy_bonus),
      row('Size bonus (B3)', (s) => s.size_bonus),
      row('Colour bonus (B4)', (s) => s.color_bonus),
      row('Bonus on each die', (s) => s.bonus),
      row('Troops lost (B7)', (s) => s.lost)));
  const sets = (dice.sets || []).map((set, i) => h('li', {}, `${i ? 'Fresh set' : 'First set'}: `,
    sides.map((s, k) => `${s.side} ${((set.hands || [])[k] || []).join(', ')}`).join(' against '),
    ` — pairs won ${(set.pairs || []).join(':')}, sums ${(set.sums || []).join(':')}`));
  const winner = dice.winner >= 0 && sides[dice.winner] ? `${sides[dice.winner].side} wins` : 'nobody wins';
  const { fields, read } = resultFields(b, pr.result, (b.armies || []).map(armyOnMap), `confirm-${b.square}`);
  const text = h('textarea', { id: `confirm-${b.square}-text`, rows: 3, maxlength: 20000 }, p.text || '');
  const msg = h('div', { role: 'status', hidden: true });
  const confirm = h('form', { class: 'confirm' },
    h('h4', {}, 'Adjust and confirm'),
    h('p', { class: 'help' }, 'The proposal fills the fields; change what the strategies call for, then confirm: the confirmed result is what the lock uses.'),
    fields,
    h('label', { for: `confirm-${b.square}-text` }, 'The result text (public after the lock)'), text,
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, `Confirm the result at ${b.square}`)), msg);
  confirm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { result: read() };
    if (text.value.trim()) body.text = text.value;
    try {
      const { data } = await call('POST', `/api/campaigns/${app.cid}/turns/${app.campaign.turn.number}/battles/${b.square}/confirm`, body);
      app.say(msg, `The result at ${b.square} is confirmed: ${describeResult(data.result)}`);
    } catch (err) {
      app.problem(msg, err);
    }
  });
  return [
    h('h4', {}, `Proposal ${p.id}, made by ${p.made_by} ${when(p.made_at)}`),
    p.confirmed_by ? h('p', { class: 'notice ok' }, `Confirmed by ${p.confirmed_by} ${when(p.confirmed_at)}.`) : null,
    table,
    h('p', {}, `Dice (B5): ${winner}, decided by ${dice.decided_by || '—'}.`),
    h('ul', { class: 'dice' }, sets),
    (pr.attempts || []).length ? h('ul', {}, pr.attempts.map((x) => h('li', {},
      `${x.kind} by ${x.by} on ${x.target}: ${x.rolled ? `rolled ${x.roll} against ${x.enemy_roll}, ` : 'not rolled, '}${x.success ? 'succeeds' : 'fails'}; ${x.risked_lost} risked troops lost`))) : null,
    (pr.notes || []).length ? h('ul', { class: 'notes' }, pr.notes.map((n) => h('li', {}, n))) : null,
    h('p', { class: 'help' }, `Proposed: ${describeResult(pr.result)} Formulas: ${(pr.formulas || []).join(', ')}.`),
    confirm,
  ];
}
