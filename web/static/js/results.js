// A battle result's fields (B1, B7–B10, 4.3, 4.5): the winner, each army's losses by troop,
// where the loser goes, which winning army leaves and where, kill and capture attempts. The
// judge console enters results with them directly; the battle desk adjusts a proposal with them.
import { h } from './util.js';

/**
 * resultFields builds the fields for a battle, filled from an earlier result, and returns
 * {fields, read}: read() gives the result as the API takes it (domain.BattleResult).
 * armies are the battle's armies as the map shows them (with their troops).
 */
export function resultFields(b, old, armies, prefix) {
  const id = (x) => `${prefix}-${x}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const pick = (name, label, value, none) => [h('label', { for: id(name) }, label),
    h('select', { id: id(name), 'data-field': name }, h('option', { value: '' }, none), armies.map((a) => h('option', { value: a.name, selected: a.name === value }, a.name)))];
  const attempt = (key, label) => {
    const o = (old && old[key]) || {};
    return h('fieldset', {}, h('legend', {}, label),
      pick(`${key}-by`, 'By', o.by, '— no attempt —'), pick(`${key}-target`, 'Target', o.target, '—'),
      h('label', {}, h('input', { type: 'checkbox', 'data-field': `${key}-success`, checked: !!o.success }), ' It succeeded'),
      h('label', { for: id(`${key}-risked`) }, 'Troops risked and lost'),
      h('input', { id: id(`${key}-risked`), 'data-field': `${key}-risked`, type: 'number', min: 0, value: o.risked_lost || 0 }));
  };
  const lost = (a, t) => (old && old.losses && old.losses[a.name] && old.losses[a.name][t.creature]) || 0;
  const losses = armies.map((a, i) => h('fieldset', {}, h('legend', {}, `Losses of ${a.name}`),
    (a.troops || []).length ? a.troops.map((t, k) => [h('label', { for: id(`loss-${i}-${k}`) }, `${t.creature} (${t.alive} alive)`),
      h('input', { id: id(`loss-${i}-${k}`), type: 'number', min: 0, max: t.alive, value: lost(a, t), 'data-army': a.name, 'data-creature': t.creature, class: 'loss' })])
      : h('p', {}, 'Troops not known.')));
  const leaves = (old && old.leaves) || {};
  const box = h('div', { class: 'result-fields' },
    pick('winner', 'Winner (any army of the winning side)', old && old.winner, 'Nobody won (B2)'),
    losses,
    h('label', { for: id('loser_to') }, 'Where the loser goes (a square; empty for the default, B8–B10)'),
    h('input', { id: id('loser_to'), 'data-field': 'loser_to', value: (old && old.loser_to) || '', size: 5, autocomplete: 'off' }),
    h('fieldset', {}, h('legend', {}, 'A winning army leaves (4.4, B10)'),
      pick('leaves-army', 'Army', leaves.army, '— none —'),
      h('label', { for: id('leaves-to') }, 'To'), h('input', { id: id('leaves-to'), 'data-field': 'leaves-to', value: leaves.to || '', size: 5, autocomplete: 'off' })),
    attempt('kill', 'Kill attempt (4.3.2)'), attempt('capture', 'Capture attempt (4.5)'));
  const f = (name) => box.querySelector(`[data-field="${name}"]`);
  const read = () => {
    const r = { square: b.square };
    if (f('winner').value) r.winner = f('winner').value;
    for (const inp of box.querySelectorAll('input.loss')) {
      const n = Number(inp.value);
      if (!n) continue;
      r.losses = r.losses || {};
      (r.losses[inp.dataset.army] = r.losses[inp.dataset.army] || {})[inp.dataset.creature] = n;
    }
    if (f('loser_to').value.trim()) r.loser_to = f('loser_to').value.trim().toUpperCase();
    if (f('leaves-army').value) {
      r.leaves = { army: f('leaves-army').value };
      if (f('leaves-to').value.trim()) r.leaves.to = f('leaves-to').value.trim().toUpperCase();
    }
    for (const key of ['kill', 'capture']) {
      if (!f(`${key}-by`).value) continue;
      r[key] = { by: f(`${key}-by`).value, target: f(`${key}-target`).value, success: f(`${key}-success`).checked, risked_lost: Number(f(`${key}-risked`).value) || 0 };
    }
    return r;
  };
  return { fields: box, read };
}

/** describeResult says a result in a line: who won, what each army lost. */
export function describeResult(r) {
  if (!r) return 'No result yet.';
  const parts = [r.winner ? `${r.winner}’s side won` : 'Nobody won'];
  for (const [army, by] of Object.entries(r.losses || {})) {
    const n = Object.values(by).reduce((a, b) => a + b, 0);
    if (n) parts.push(`${army} lost ${n}`);
  }
  if (r.loser_to) parts.push(`the loser goes to ${r.loser_to}`);
  if (r.kill) parts.push(`kill attempt by ${r.kill.by} on ${r.kill.target} ${r.kill.success ? 'succeeded' : 'failed'}`);
  if (r.capture) parts.push(`capture attempt by ${r.capture.by} on ${r.capture.target} ${r.capture.success ? 'succeeded' : 'failed'}`);
  if (r.leaves) parts.push(`${r.leaves.army} leaves${r.leaves.to ? ' to ' + r.leaves.to : ''}`);
  return parts.join('; ') + '.';
}
