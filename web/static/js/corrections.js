// The battle judge's corrections of a locked turn in the judge console (3.3.3): each line of the
// turn's posts with its outcome, to accept or refuse with a reason, day counts to set, the
// preview of what changes turn by turn, and its confirmation.
import { call, get } from './api.js';
import { h, fill } from './util.js';
import { resultFields, describeResult } from './results.js';

let app, els = {}, results = [];

/** available says whether the viewer corrects turns: a battle judge of the campaign (3.3.3). */
export function available(a) {
  const you = a.campaign && a.campaign.you;
  return !!(you && (you.roles || []).includes('battle-judge'));
}

/** mount builds the section's body. */
export function mount(a) {
  app = a;
  els = {
    turn: h('select', { id: 'correct-turn' }),
    lines: h('tbody', { id: 'correct-lines' }),
    msg: h('div', { id: 'correct-msg', role: 'status', hidden: true }),
    preview: h('div', { id: 'correct-preview' }),
    results: h('div', { id: 'correct-results' }),
  };
  const locked = Math.max(0, (a.campaign.turn ? a.campaign.turn.number : 1) - 1);
  fill(els.turn, Array.from({ length: locked }, (_, i) => h('option', { value: i + 1 }, `Turn ${i + 1}`)));
  els.turn.value = locked;
  els.turn.addEventListener('change', () => loadLines());
  const form = h('form', { id: 'correct-form', onsubmit: (e) => { e.preventDefault(); preview(); } },
    h('label', { for: 'correct-turn' }, 'The locked turn to correct'), els.turn,
    h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'The turn’s lines' },
      h('table', {}, h('caption', {}, 'Each line as the lock judged it; overrule it here'),
        h('thead', {}, h('tr', {}, ['Post', 'Line', 'Outcome', 'Correction', 'Reason'].map((x) => h('th', { scope: 'col' }, x)))), els.lines)),
    els.results,
    h('label', { for: 'correct-days' }, 'Day counts to set, one a line: “Sai Rei 2” (R76)'),
    h('textarea', { id: 'correct-days', rows: 2, cols: 30 }),
    h('label', { for: 'correct-reason' }, 'Why the turn is corrected (recorded with it)'),
    h('input', { id: 'correct-reason', required: true, maxlength: 2000, autocomplete: 'off' }),
    h('button', { type: 'submit', id: 'correct-preview-button' }, 'Preview what changes'));
  if (locked) loadLines();
  return [h('p', { class: 'help' }, 'Only the battle judge overrules the movement judge’s calls (3.3.3). The turn and every later one are adjudicated again from what is stored; nothing changes until you confirm the preview.'),
    locked ? form : h('p', {}, 'No turn is locked yet.'), els.msg, els.preview];
}

/** loadLines lists the turn's lines with the lock's outcome of each. */
async function loadLines() {
  const n = Number(els.turn.value);
  try {
    const [posts, rep, res, map] = await Promise.all([get(`/api/campaigns/${app.cid}/turns/${n}/posts`), get(`/api/campaigns/${app.cid}/turns/${n}/report`),
      get(`/api/campaigns/${app.cid}/turns/${n}/results`), get(`/api/campaigns/${app.cid}/turns/${n}/map`)]);
    battleResults(res, map);
    const refused = new Map((rep.report.rejected || []).map((r) => [`${r.post}:${r.line}`, r]));
    const rows = [];
    for (const p of posts.posts || posts) {
      if (p.withdrawn_at || !p.text) continue;
      p.text.split('\n').forEach((text, i) => {
        if (!text.trim()) return;
        const key = `${p.id}:${i + 1}`, r = refused.get(key);
        const id = `correct-${p.id}-${i + 1}`;
        rows.push(h('tr', { 'data-post': p.id, 'data-line': i + 1 },
          h('td', {}, `${p.id} (${p.author})`), h('td', {}, h('code', {}, text)),
          h('td', {}, r ? `refused: ${r.code}` : 'accepted'),
          h('td', {}, h('label', { for: id, class: 'visually-hidden' }, `Correction of line ${i + 1} of post ${p.id}`),
            h('select', { id, class: 'correct-ruling' }, h('option', { value: '' }, 'as judged'), h('option', { value: 'accept' }, 'accept'), h('option', { value: 'refuse' }, 'refuse'))),
          h('td', {}, h('label', { for: `${id}-why`, class: 'visually-hidden' }, `Reason for line ${i + 1} of post ${p.id}`), h('input', { id: `${id}-why`, class: 'correct-why', maxlength: 2000, size: 16 }))));
      });
    }
    fill(els.lines, rows.length ? rows : h('tr', {}, h('td', { colspan: 5 }, 'The turn has no lines.')));
  } catch (err) {
    app.problem(els.msg, err);
  }
}

/** battleResults lists the battles the turn's lock settled, each with its result and the fields to replace it (3.3.3: the battle judge corrects a result too). */
function battleResults(res, map) {
  const armyOf = (name) => ((map && map.armies) || []).find((a) => a.name === name) || { name, troops: [] };
  results = (res.battles || []).map((b) => {
    const old = (res.results || []).find((r) => r.square === b.square);
    const { fields, read } = resultFields(b, old, (b.armies || []).map(armyOf), `cr-${b.square}`);
    const id = `correct-result-${b.square}`;
    const replace = h('input', { type: 'checkbox', id, class: 'correct-result' });
    return { read, replace, el: h('fieldset', { class: 'correct-battle', 'data-square': b.square },
      h('legend', {}, `Battle at ${b.square}: ${(b.armies || []).join(' vs ')}`),
      h('p', {}, old ? `Recorded: ${describeResult(old)}` : 'No result was recorded: nobody won (B2).'),
      replace, h('label', { for: id }, ` Replace the result at ${b.square} with this one`), fields) };
  });
  fill(els.results, results.length ? [h('h4', {}, 'The battles the lock settled'), results.map((x) => x.el)] : null);
}

/** request is the correction the form describes. */
function request() {
  const req = { reason: document.getElementById('correct-reason').value.trim() };
  const orders = [];
  for (const tr of els.lines.querySelectorAll('tr[data-post]')) {
    const v = tr.querySelector('.correct-ruling').value;
    if (!v) continue;
    orders.push({ post: Number(tr.dataset.post), line: Number(tr.dataset.line), accept: v === 'accept', reason: tr.querySelector('.correct-why').value.trim() });
  }
  if (orders.length) req.orders = orders;
  const replaced = results.filter((x) => x.replace.checked).map((x) => x.read());
  if (replaced.length) req.results = replaced;
  const days = document.getElementById('correct-days').value.split('\n').map((l) => /^(.+?)\s+(\d+)$/.exec(l.trim())).filter(Boolean)
    .map((m) => ({ army: m[1], days: Number(m[2]) }));
  if (days.length) req.days = days;
  return req;
}

const state = (s) => (s ? `${s.at}, ${s.days} day${s.days === 1 ? '' : 's'}, ${s.alive} alive` : 'not on the map');

/** preview asks what the correction changes and shows it turn by turn, with its confirmation. */
async function preview() {
  const n = Number(els.turn.value), req = request();
  els.msg.hidden = true;
  fill(els.preview);
  try {
    const p = (await call('POST', `/api/campaigns/${app.cid}/turns/${n}/corrections/preview`, req)).data;
    const confirm = h('button', {
      type: 'button', id: 'correct-confirm',
      onclick: async () => {
        try {
          await call('POST', `/api/campaigns/${app.cid}/turns/${n}/corrections`, { ...req, preview: p.digest });
          fill(els.preview);
          app.say(els.msg, `Turn ${n} is corrected: turns ${n}–${n + p.changes.length - 1} were adjudicated again; the originals are kept in the record.`);
          await app.refresh();
        } catch (err) {
          app.problem(els.msg, err);
        }
      },
    }, 'Confirm the correction');
    fill(els.preview, h('h4', {}, `What the correction of turn ${n} changes`),
      p.changes.map((tc) => h('section', { class: 'turn-change', 'data-turn': tc.turn, 'aria-label': `Turn ${tc.turn}` },
        h('h5', {}, `Turn ${tc.turn}${tc.same ? ': nothing changes' : ''}`),
        tc.armies.length ? h('table', { class: 'changes' }, h('caption', {}, `Armies after the lock of turn ${tc.turn}`),
          h('thead', {}, h('tr', {}, ['Army', 'Before', 'After'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, tc.armies.map((a) => h('tr', { 'data-army': a.army }, h('td', {}, a.army), h('td', {}, state(a.before)), h('td', {}, state(a.after)))))) : null,
        tc.lines.length ? h('ul', { class: 'lines' }, tc.lines.map((l) => h('li', {}, `Post ${l.post}, line ${l.line} (${l.army}): ${l.before} → ${l.after}`))) : null,
        tc.battles ? h('p', {}, `Battles made: ${tc.battles.before.join('; ') || 'none'} → ${tc.battles.after.join('; ') || 'none'}`) : null,
        (tc.results || []).length ? h('ul', {}, tc.results.map((x) => h('li', {}, x))) : null)),
      confirm);
  } catch (err) {
    app.problem(els.msg, err);
  }
}
