// The judge console: lock now, extend, pause and resume (each with a reason, C1–C3), battle
// results for the open turn, for the battle judges the sanctions (5.4.1) and the battle
// formulas (B3, B7) and the corrections of locked turns (3.3.3), the lock reports (readable text and
// details) and the audit log.
import { call, get, session } from './api.js';
import { h, fill, when, at } from './util.js';
import { resultFields, describeResult } from './results.js';
import * as sanctions from './sanctions.js';
import * as formulas from './formulas.js';
import * as turn from './judgeturn.js';
import * as corrections from './corrections.js';

let app, panel, els = {};

/** closedAtFirst are the sections that start folded (the control lists open themselves when an emergency is open); the judge's own choice is remembered. */
const closedAtFirst = ['judge-control', 'judge-sanctions', 'judge-formulas', 'judge-corrections', 'judge-reports'];

/** section is a part of the console whose heading folds and unfolds it. */
function section(title, id, ...body) {
  const key = `coalition.fold.${id}`;
  const stored = localStorage.getItem(key);
  const open = stored === null ? !closedAtFirst.includes(id) : stored === 'open';
  const sec = { class: `card fold${open ? '' : ' folded'}`, 'aria-labelledby': id, id: `${id}-section` };
  const toggle = h('button', { type: 'button', class: 'fold-toggle', 'aria-expanded': String(open), 'aria-controls': `${id}-section` }, title);
  toggle.addEventListener('click', () => {
    const now = toggle.closest('section').classList.toggle('folded');
    toggle.setAttribute('aria-expanded', String(!now));
    localStorage.setItem(key, now ? 'closed' : 'open');
  });
  return h('section', sec, h('h3', { id }, toggle), ...body);
}

function reasonField(id) {
  return [h('label', { for: id }, 'Reason (recorded in the audit log)'), h('input', { id, name: 'reason', required: true, maxlength: 500, autocomplete: 'off' })];
}

/** battleJudge says whether the viewer may sanction and edit the formulas, as the server decides: a battle judge of the campaign, or an admin. */
function battleJudge() {
  const you = app.campaign && app.campaign.you, who = session();
  return !!((you && (you.roles || []).includes('battle-judge')) || (who && who.admin));
}

export function mount(p, a) {
  app = a;
  panel = p;
  els = {
    state: h('dl', { class: 'facts' }),
    actionsMsg: h('div', { role: 'status', hidden: true }),
    results: h('div', { id: 'judge-results' }),
    resultsMsg: h('div', { role: 'status', hidden: true }),
    reportTurn: h('select', { id: 'report-turn' }),
    report: h('div', { id: 'judge-report' }),
    audit: h('tbody', {}),
    auditMsg: h('div', { role: 'status', hidden: true }),
    timing: h('div'),
    posts: turn.posts(),
  };
  const lockForm = h('form', { id: 'lock-form', onsubmit: (e) => act(e, 'lock') }, reasonField('lock-reason'), h('button', { type: 'submit', id: 'lock-now' }, 'Lock the turn now'));
  const extendForm = h('form', { id: 'extend-form', onsubmit: (e) => act(e, 'extend') },
    h('label', { for: 'extend-hours' }, 'Hours to add (the campaign caps a turn’s extensions)'),
    h('input', { id: 'extend-hours', name: 'hours', type: 'number', min: 0.5, max: 720, step: 0.5, value: 24, required: true }),
    reasonField('extend-reason'), h('button', { type: 'submit' }, 'Extend the deadline and the lock'));
  const pauseForm = h('form', { id: 'pause-form', onsubmit: (e) => act(e, 'pause') }, reasonField('pause-reason'), h('button', { type: 'submit', id: 'pause-button' }, 'Pause'));
  els.pauseButton = pauseForm.querySelector('button');
  els.reportTurn.addEventListener('change', () => showReport(els.reportTurn.value));
  els.battleJudge = battleJudge();
  fill(panel,
    h('h2', {}, 'Judge console'),
    section('The open turn', 'judge-turn', els.state, els.timing,
      h('h4', {}, 'Lock now'), lockForm,
      h('h4', {}, 'Extend'), extendForm,
      h('h4', { id: 'pause-title' }, 'Pause or resume the campaign'), pauseForm, els.actionsMsg),
    section('Posts of the open turn', 'judge-posts-title', h('button', { type: 'button', id: 'judge-posts-refresh', onclick: () => turn.loadPosts(app, els.posts, app.campaign.turn.number) }, 'Read the posts again'), ...els.posts.els),
    section('Control lists (5.2.2.2)', 'judge-control', h('p', { class: 'help' }, 'Emergency configurations must be legal again within one turn; the lock report lists what is still illegal. The Control tab holds the details.'), controlSummary()),
    section('Battle results', 'judge-battles', h('p', { class: 'help', id: 'results-help' }, resultsHelp()), els.results, els.resultsMsg),
    els.battleJudge ? section('Sanctions', 'judge-sanctions', sanctions.mount(app)) : null,
    els.battleJudge ? section('Battle formulas', 'judge-formulas', formulas.mount(app)) : null,
    corrections.available(app) ? section('Correct a locked turn (3.3.3)', 'judge-corrections', ...corrections.mount(app)) : null,
    section('Lock reports', 'judge-reports', h('label', { for: 'report-turn' }, 'Turn'), els.reportTurn, els.report),
    section('Audit log', 'judge-audit', h('button', { type: 'button', onclick: loadAudit }, 'Refresh the audit log'), els.auditMsg,
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Audit log' }, h('table', { class: 'audit' }, h('caption', {}, 'Newest first'),
        h('thead', {}, h('tr', {}, ['When', 'Who', 'Action', 'Detail', 'From'].map((x) => h('th', { scope: 'col' }, x)))), els.audit))),
    turn.accounts(app) ? section('Accounts', 'judge-accounts', ...turn.accounts(app)) : null);
  update();
  loadResults();
  loadTurns();
  loadAudit();
  turn.loadPosts(app, els.posts, app.campaign.turn.number);
}

/** resultsHelp says what the lock needs of the battles, as the campaign's rules have it (B2). */
function resultsHelp() {
  const base = 'The battles fought in the open turn; a result replaces an earlier one for the same square and must fit its battle (B1). ';
  return app.campaign.stratless_settle
    ? base + 'A battle left without a result settles itself at the lock: a side with a strategy against one without wins with the full +10, and with no strategy on either side nobody wins (B2). A battle both sides sent strategies for needs a result.'
    : base + 'This campaign was imported from a scenario: the lock needs a result for every battle.';
}

let shownTurn = 0, shownVersion = 0;

export function update() {
  if (!els.state) return;
  const c = app.campaign, t = c.turn;
  fill(els.state,
    h('dt', {}, 'Campaign'), h('dd', {}, `${c.name} — ${c.status}${c.status === 'paused' ? ` since ${when(c.paused_at)}: ${c.pause_reason || ''}` : ''}`),
    h('dt', {}, 'Turn'), h('dd', {}, `${t.number} (${t.status})`),
    h('dt', {}, 'Battle deadline'), h('dd', {}, at(t.deadline)),
    h('dt', {}, 'Lock'), h('dd', {}, at(t.lock_at), t.extension_hours ? ` (extended by ${t.extension_hours} h)` : ''),
    t.lock_error ? [h('dt', {}, 'Last scheduled lock failed'), h('dd', { class: 'error' }, t.lock_error)] : null);
  fill(els.timing, turn.timing(t));
  els.pauseButton.textContent = c.status === 'paused' ? 'Resume the campaign' : 'Pause the campaign';
  if (els.battleJudge) sanctions.update();
  if (shownTurn && shownTurn !== t.number) {
    loadResults();
    loadTurns();
  }
  if (shownVersion !== app.map.version) turn.loadPosts(app, els.posts, t.number);
  shownVersion = app.map.version;
  shownTurn = t.number;
}

async function act(e, what) {
  e.preventDefault();
  const f = e.target;
  const t = app.campaign.turn;
  const reason = f.elements.reason.value.trim();
  els.actionsMsg.hidden = true;
  try {
    let msg;
    if (what === 'lock') {
      await call('POST', `/api/campaigns/${app.cid}/turns/${t.number}/lock`, { reason });
      msg = `Turn ${t.number} is locked; its report is below.`;
    } else if (what === 'extend') {
      const out = (await call('POST', `/api/campaigns/${app.cid}/turns/${t.number}/extend`, { hours: Number(f.elements.hours.value), reason })).data;
      msg = `Turn ${t.number} now locks at ${when(out.lock_at)}.`;
    } else {
      const resume = app.campaign.status === 'paused';
      await call('POST', `/api/campaigns/${app.cid}/${resume ? 'resume' : 'pause'}`, { reason });
      msg = resume ? 'The campaign runs again; the open turn’s lock moved by the pause.' : 'The campaign is paused: no lock runs and no orders are taken.';
    }
    f.reset();
    await app.refresh();
    app.say(els.actionsMsg, msg);
    if (what === 'lock') {
      await loadTurns();
      els.reportTurn.value = String(t.number);
      await showReport(t.number);
    }
  } catch (err) {
    app.problem(els.actionsMsg, err);
  }
}

async function loadResults() {
  const n = app.campaign.turn.number;
  let data;
  try {
    data = await get(`/api/campaigns/${app.cid}/turns/${n}/results`);
  } catch (err) {
    app.problem(els.resultsMsg, err);
    return;
  }
  if (!data.battles.length) {
    fill(els.results, h('p', {}, `No battle is fought in turn ${n}.`));
    return;
  }
  fill(els.results, data.battles.map((b, i) => resultForm(b, data.results.find((r) => r.square === b.square), i, warningsAt(data, b.square))));
}

/** warningsAt lists what the server warns of in the result at square (R33). */
function warningsAt(data, square) {
  const prefix = `At ${square}: `;
  return (data.warnings || []).filter((w) => w.startsWith(prefix)).map((w) => w.slice(prefix.length));
}

function armyOnMap(name) {
  return (app.map.armies || []).find((a) => a.name === name) || { name, troops: [] };
}

/** resultForm enters one battle's result directly: winner, losses, where the loser goes, attempts. */
function resultForm(b, old, i, warnings) {
  const { fields, read } = resultFields(b, old, (b.armies || []).map(armyOnMap), `r${i}`);
  const msg = h('div', { role: 'status', hidden: true });
  const form = h('form', { class: 'result', 'data-square': b.square },
    h('h4', {}, `Battle at ${b.square}: ${(b.armies || []).join(' vs ')} (${b.kind}${b.attacker ? `, ${b.attacker} attacks` : ''})`),
    h('p', {}, old ? `Recorded: ${describeResult(old)}` : 'No result yet.'),
    ...warnings.map((w) => h('p', { class: 'warning' }, `Warning: ${w}`)),
    fields,
    h('button', { type: 'submit' }, `Record the result at ${b.square}`), msg);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const out = await call('POST', `/api/campaigns/${app.cid}/turns/${app.campaign.turn.number}/results`, read());
      const warned = warningsAt(out.data || {}, b.square);
      app.say(msg, warned.length ? `The result at ${b.square} is recorded, with a warning: ${warned.join(' ')}` : `The result at ${b.square} is recorded.`);
      setTimeout(loadResults, 1500);
    } catch (err) {
      app.problem(msg, err);
    }
  });
  return form;
}

async function loadTurns() {
  try {
    const turns = (await get(`/api/campaigns/${app.cid}/turns`)).filter((t) => t.status === 'locked');
    if (!turns.length) {
      fill(els.reportTurn, h('option', { value: '' }, 'No turn is locked yet'));
      fill(els.report);
      return;
    }
    const keep = els.reportTurn.value;
    fill(els.reportTurn, turns.map((t) => h('option', { value: t.number }, `Turn ${t.number}, locked ${when(t.locked_at)}`)));
    els.reportTurn.value = keep && turns.some((t) => String(t.number) === keep) ? keep : String(turns[turns.length - 1].number);
    await showReport(els.reportTurn.value);
  } catch (err) {
    app.problem(els.report, err);
  }
}

/** showReport shows a lock report: its text as posted, then its details. */
async function showReport(n) {
  if (!n) return;
  let v;
  try {
    v = await get(`/api/campaigns/${app.cid}/turns/${n}/report`);
  } catch (err) {
    app.problem(els.report, err);
    return;
  }
  const r = v.report || {};
  const rows = (items, cols) => h('table', {}, h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, items.map((x) => h('tr', {}, cols.map((c) => h('td', {}, x[c] === undefined ? '' : String(x[c])))))));
  fill(els.report,
    h('p', {}, `Locked ${when(v.locked_at)} by ${v.locked_by}.`),
    h('pre', { class: 'report-text', id: 'report-text', tabindex: 0 }, v.text),
    h('details', {}, h('summary', {}, 'Details'),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Seed (revealed, B6)'), h('dd', { class: 'hash' }, v.seed),
        h('dt', {}, 'Commitment'), h('dd', { class: 'hash' }, v.commitment),
        h('dt', {}, 'Winner'), h('dd', {}, r.winner || 'none yet'),
        h('dt', {}, 'Removed armies'), h('dd', {}, (r.removed || []).join(', ') || 'none'),
        h('dt', {}, 'Destroyed sites'), h('dd', {}, (r.destroyed_sites || []).join(', ') || 'none')),
      h('h4', {}, `Rejected orders (${(r.rejected || []).length})`),
      (r.rejected || []).length ? rows(r.rejected, ['army', 'post', 'line', 'code', 'message']) : h('p', {}, 'None.'),
      h('h4', {}, `Battles announced (${(r.battles || []).length})`),
      h('ul', {}, (r.battles || []).map((b) => h('li', {}, `${b.square}: ${(b.armies || []).join(' vs ')} (${b.kind})`))),
      h('h4', {}, 'The report as data'),
      h('pre', { class: 'json', tabindex: 0 }, JSON.stringify(r, null, 1))));
}

async function loadAudit() {
  try {
    const entries = await get(`/api/campaigns/${app.cid}/audit?limit=100`);
    els.auditMsg.hidden = true;
    fill(els.audit, entries.map((x) => h('tr', {}, h('td', {}, at(x.at)), h('td', {}, x.actor), h('td', {}, x.action), h('td', {}, x.detail), h('td', {}, x.ip || ''))));
  } catch (err) {
    app.problem(els.auditMsg, err);
  }
}

/** controlSummary is the Control page's summary of the open emergencies, loaded with its module. */
function controlSummary() {
  const box = h('div');
  import('./control.js').then((m) => box.replaceWith(m.summary(app))).catch((err) => fill(box, err.message));
  return box;
}
