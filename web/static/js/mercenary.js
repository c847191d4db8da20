// The mercenary desk (chapter 6): the mercenary AI's setting; its plan for the open turn drawn
// on the map (arrows, reasons on hover) with each line to accept or edit, then posted as the
// mercenary judge's post; each line's outcome with the guideline it breaks (R46); and, while a
// locked turn waits for it, the after-lock edit (6.3.2): check it, post it, or waive it.
import { call, get } from './api.js';
import { h, fill, when } from './util.js';

let app, panel, els = {};
let plan = null, shown = '';

/** available says whether the mercenary tab is shown: to the campaign's mercenary judge. */
export function available(a) {
  const you = a && a.campaign && a.campaign.you;
  return !!(you && (you.roles || []).includes('mercenary-judge'));
}

export function mount(p, a) {
  app = a;
  panel = p;
  els = {
    mode: h('select', { id: 'merc-mode', name: 'mercenary_ai' }, ['off', 'suggest', 'auto'].map((m) => h('option', { value: m }, m))),
    modeMsg: h('div', { role: 'status', hidden: true }),
    plan: h('div', { id: 'merc-plan' }),
    planMsg: h('div', { id: 'merc-plan-msg', role: 'status', hidden: true }),
    outcome: h('ul', { id: 'merc-outcome', class: 'checks' }),
    edit: h('div', { id: 'merc-edit' }),
  };
  fill(panel,
    h('h2', {}, 'Mercenary desk'),
    h('section', { class: 'card', 'aria-labelledby': 'merc-ai' }, h('h3', { id: 'merc-ai' }, 'The mercenary AI'),
      h('p', { class: 'help' }, 'off: you order every mercenary by hand; suggest: the server plans, warns of guideline breaks and places spawned raiders; auto: and at the lock every mercenary you leave unordered gets the AI’s order, every mercenary in battle its strategy.'),
      h('form', { onsubmit: setMode }, h('label', { for: 'merc-mode' }, 'mercenary_ai'), els.mode, ' ', h('button', { type: 'submit' }, 'Set')), els.modeMsg),
    h('section', { class: 'card', 'aria-labelledby': 'merc-plan-title' }, h('h3', { id: 'merc-plan-title' }, 'The plan'), els.planMsg, els.plan, els.outcome),
    h('section', { class: 'card', 'aria-labelledby': 'merc-edit-title' }, h('h3', { id: 'merc-edit-title' }, 'After-lock edit (6.3.2)'), els.edit));
  shown = '';
  update();
}

export function unmount() {
  if (app && app.drawer) app.drawer.setOrders([]);
  els = {};
}

export function update() {
  if (!els.plan) return;
  const t = app.campaign.turn;
  const key = `${t.number}|${t.status}|${app.map ? app.map.version : ''}`;
  if (key === shown) return;
  if (!shown.startsWith(`${t.number}|${t.status}|`)) fill(els.outcome);
  shown = key;
  if (app.campaign.mercenary) els.mode.value = app.campaign.mercenary.mercenary_ai;
  if (t.status === 'open') loadPlan(t.number);
  else {
    plan = null;
    app.drawer.setOrders([]);
    fill(els.plan, h('p', {}, `Turn ${t.number} is ${t.status}: the plan is made for the open turn.`));
  }
  loadEdit(t);
}

async function setMode(e) {
  e.preventDefault();
  try {
    const st = (await call('PUT', `/api/campaigns/${app.cid}/mercenary`, { mercenary_ai: els.mode.value })).data;
    app.say(els.modeMsg, `mercenary_ai is ${st.mercenary_ai}.`);
    await app.refresh();
  } catch (err) {
    app.problem(els.modeMsg, err);
  }
}

/** arrowOf is an order of the plan as the map draws it: from the army's square to where it goes. */
function arrowOf(o, status) {
  const legs = (o.order && o.order.legs) || [];
  if (o.order.kind !== 'move' || !legs.length) return null;
  return { squares: [o.order.from, ...legs.map((l) => l.to)], status, title: `${o.line} — ${o.guideline}: ${o.reason}` };
}

async function loadPlan(n) {
  els.planMsg.hidden = true;
  try {
    plan = await get(`/api/campaigns/${app.cid}/turns/${n}/mercenary/plan`);
  } catch (err) {
    app.problem(els.planMsg, err);
    return;
  }
  app.drawer.setOrders(plan.orders.map((o) => arrowOf(o, 'draft')).filter(Boolean));
  if (!plan.orders.length) {
    fill(els.plan, h('p', {}, 'No mercenary army is yours to order this turn.'));
    return;
  }
  const rows = plan.orders.map((o, i) => {
    const id = `merc-line-${i}`;
    const input = h('input', { id, class: 'merc-line', 'data-army': o.army, value: o.line, 'aria-describedby': `${id}-why` });
    const mark = h('span', { class: 'badge merc-edited', hidden: true }, ' edited');
    input.addEventListener('input', () => { mark.hidden = input.value.trim() === o.line; });
    return h('tr', { 'data-army': o.army, title: o.reason },
      h('td', {}, h('input', { type: 'checkbox', class: 'merc-pick', 'aria-label': `Post ${o.army}’s line`, checked: true })),
      h('th', { scope: 'row' }, o.army),
      h('td', {}, h('label', { for: id, class: 'visually-hidden' }, `${o.army}’s order`), input, mark),
      h('td', {}, o.guideline),
      h('td', { id: `${id}-why` }, o.reason, o.draw ? h('span', { class: 'help' }, ` (drawn: ${o.draw.label}, d${o.draw.die} = ${o.draw.value}; passed over: ${(o.choices || []).join(' | ')})`) : null));
  });
  fill(els.plan,
    h('p', { class: 'help' }, `The AI’s order for every mercenary you order in turn ${n}, by its guidelines; point at an arrow or a line for its reason. It is the same on every call for the turn.`),
    h('div', { class: 'scroll' }, h('table', { class: 'plan' }, h('caption', {}, `Plan for turn ${n} (mercenary_ai ${plan.mercenary_ai})`),
      h('thead', {}, h('tr', {}, ['Post', 'Army', 'Order', 'Guideline', 'Why'].map((x) => h('th', { scope: 'col' }, x)))), h('tbody', {}, rows))),
    h('div', { class: 'buttons' },
      h('button', { type: 'button', id: 'merc-accept-all', onclick: () => post([]) }, 'Accept all and post'), ' ',
      h('button', { type: 'button', id: 'merc-post', onclick: postPicked }, 'Post the lines ticked, as edited')));
}

/** picked are the lines ticked, each with its text as the judge left it. */
function picked() {
  return [...els.plan.querySelectorAll('tbody tr')].filter((tr) => tr.querySelector('.merc-pick').checked)
    .map((tr) => ({ army: tr.dataset.army, line: tr.querySelector('.merc-line').value.trim() }));
}

function postPicked() {
  const orders = picked();
  if (!orders.length) {
    app.problem(els.planMsg, 'Tick at least one line to post.');
    return;
  }
  post(orders);
}

/** post posts the plan (orders: [] for all of it, as the AI wrote it) and shows each line's outcome. */
async function post(orders) {
  els.planMsg.hidden = true;
  try {
    const out = (await call('POST', `/api/campaigns/${app.cid}/turns/${plan.turn}/mercenary/plan`, orders.length ? { orders } : {})).data;
    const edited = out.plan.filter((l) => l.edited).length;
    app.say(els.planMsg, `Posted as post ${out.post.id}: ${out.plan.length} line${out.plan.length === 1 ? '' : 's'}, ${edited} edited by you.`);
    fill(els.outcome, out.lines.map((l) => h('li', { class: `check ${l.status}`, 'data-army': l.army },
      h('span', { class: 'badge' }, l.status), ' ', l.text, l.message ? ` — ${l.code}: ${l.message}` : '',
      (l.guidelines || []).map((g) => h('div', { class: 'guideline', 'data-rule': g.rule }, `Against ${g.rule} (${g.code}): ${g.message}`)))));
    app.drawer.setOrders(out.lines.map((l) => {
      const o = plan.orders.find((x) => x.army === l.army);
      return o && arrowOf(o, l.status);
    }).filter(Boolean));
  } catch (err) {
    app.problem(els.planMsg, err);
  }
}

/** loadEdit shows the after-lock edit window of the latest turn when it is open. */
async function loadEdit(t) {
  if (t.status !== 'editing') {
    fill(els.edit, h('p', { class: 'help' }, 'Once a turn, after the lock and before the update is published, you may change one raider’s order to an engagement through no army’s square. The window opens when a lock finds a raider you order.'));
    return;
  }
  let w;
  try {
    w = await get(`/api/campaigns/${app.cid}/turns/${t.number}/mercenary/edit`);
  } catch (err) {
    app.problem(els.edit, err);
    return;
  }
  const msg = h('div', { id: 'merc-edit-msg', role: 'status', hidden: true });
  const text = h('textarea', { id: 'merc-edit-text', rows: 2, maxlength: 20000, placeholder: `${w.raiders[0] || 'Raider'}: 12F > 14F; engage …` });
  const send = async (path, body, done) => {
    msg.hidden = true;
    try {
      const r = (await call('POST', `/api/campaigns/${app.cid}/turns/${t.number}/mercenary/${path}`, body)).data;
      const o = r.outcome;
      app[o && !o.carried_out ? 'problem' : 'say'](msg, o ? o.note : 'The edit is waived: the update is published as locked.');
      if (done) await app.refresh();
    } catch (err) {
      app.problem(msg, err);
    }
  };
  fill(els.edit,
    h('p', { class: 'notice warn' }, `Turn ${t.number} is locked; its update waits for your edit until ${when(w.until)}. Your raiders: ${w.raiders.join(', ') || 'none'}.`),
    h('label', { for: 'merc-edit-text' }, 'One raider’s new order'), text,
    h('div', { class: 'buttons' },
      h('button', { type: 'button', id: 'merc-edit-check', onclick: () => send('edit/check', { text: text.value }) }, 'Check'), ' ',
      h('button', { type: 'button', id: 'merc-edit-post', onclick: () => send('edit', { text: text.value }, true) }, 'Post the edit and publish'), ' ',
      h('button', { type: 'button', id: 'merc-edit-waive', onclick: () => send('edit', { waive: true }, true) }, 'Waive and publish')),
    msg);
}
