// The deck check page (issue 19): a deck list pasted and checked against a format's revision
// or a league's (POST /api/decks/check), every problem shown by line and rule, the list with
// its bad lines marked, the hero's creature types and those the whole deck fits.
import { call, get } from './api.js';
import { h, $, fill } from './util.js';

const state = { formats: [], leagues: [] };

/** problem shows what went wrong: the server's words. */
function problem(err) {
  const el = $('#deck-problem');
  el.hidden = !err;
  if (err) fill(el, err.detail || err.message || String(err));
}

function formatOf(name) {
  return state.formats.find((f) => f.name === name);
}

/** revisions fills the revision and sub-format choices of the chosen format. */
function revisions() {
  const f = formatOf($('#deck-format').value);
  if (!f) return;
  const sel = $('#deck-revision');
  const keep = sel.value;
  fill(sel, f.revisions.map((r) => h('option', { value: r.name }, r.name === f.default ? `${r.name} (default)` : r.name)));
  sel.value = f.revisions.some((r) => r.name === keep) ? keep : f.default;
  subformats();
}

function revision() {
  const f = formatOf($('#deck-format').value);
  return f && f.revisions.find((r) => r.name === $('#deck-revision').value);
}

/** subformats offers the revision's sub-formats, where it has any, and says what it holds. */
function subformats() {
  const r = revision();
  if (!r) return;
  const subs = r.subformats || [];
  $('#deck-sub-box').hidden = subs.length === 0;
  fill($('#deck-subformat'), h('option', { value: '' }, 'None'), subs.map((s) => h('option', { value: s.name }, s.title || s.name)));
  const side = r.side ? `${r.main} cards and a sideboard of ${r.side}, the hero included` : `exactly ${r.main} cards, no sideboard`;
  $('#deck-revision-note').textContent = `${r.source}: ${side}; banned list ${r.banned}.`;
}

/** league sets the format and revision to the chosen league's, and locks them. */
function league() {
  const id = Number($('#deck-league').value);
  const l = state.leagues.find((x) => x.id === id);
  $('#deck-format').disabled = !!l;
  $('#deck-revision').disabled = !!l;
  if (l) {
    $('#deck-format').value = l.format;
    revisions();
    $('#deck-revision').value = l.revision;
    subformats();
  }
}

async function load() {
  const [formats, leagues] = await Promise.all([get('/api/formats'), get('/api/leagues')]);
  state.formats = formats.formats;
  state.leagues = leagues;
  fill($('#deck-format'), state.formats.map((f) => h('option', { value: f.name }, f.title || f.name)));
  $('#deck-league').append(...leagues.map((l) => h('option', { value: l.id }, `${l.name} (${l.format} ${l.revision})`)));
  const params = new URLSearchParams(location.search);
  if (params.get('format') && formatOf(params.get('format'))) $('#deck-format').value = params.get('format');
  revisions();
  if (params.get('league')) {
    $('#deck-league').value = params.get('league');
    league();
  }
}

/** request is the check the form asks for. */
function request() {
  const body = { list: $('#deck-list').value };
  const l = Number($('#deck-league').value);
  if (l) {
    body.league = l;
  } else {
    body.format = $('#deck-format').value;
    body.revision = $('#deck-revision').value;
  }
  if ($('#deck-subformat').value) body.subformat = $('#deck-subformat').value;
  return body;
}

async function check(e) {
  if (e) e.preventDefault();
  problem(null);
  const button = $('#deck-check');
  button.disabled = true;
  try {
    const body = request();
    const { data } = await call('POST', '/api/decks/check', body);
    await show(data, body.list);
  } catch (err) {
    $('#deck-result').hidden = true;
    problem(err);
  } finally {
    button.disabled = false;
  }
}

/** show writes the verdict: the summary, the hero's types, the problems by line, the list. */
async function show(v, list) {
  $('#deck-result').hidden = false;
  const summary = $('#deck-summary');
  const n = v.problems.length;
  summary.className = `verdict ${v.legal ? 'legal' : 'illegal'}`;
  summary.textContent = v.legal ? 'Legal.' : `Not legal: ${n} problem${n === 1 ? '' : 's'}.`;
  await showHero(v);
  fill($('#deck-problems'), n === 0 ? null : h('table', { class: 'problems', id: 'problem-table' },
    h('caption', {}, 'Every problem, by line and rule'),
    h('thead', {}, h('tr', {}, ['Line', 'Rule', 'Card', 'What is wrong'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, v.problems.map((p) => h('tr', { 'data-rule': p.rule },
      h('td', {}, p.line ? h('a', { href: `#line-${p.line}` }, String(p.line)) : 'the deck'),
      h('td', { class: 'rule' }, p.rule), h('td', {}, p.card || '—'), h('td', {}, p.message))))));
  const byLine = new Map();
  for (const p of v.problems) {
    if (p.line) byLine.set(p.line, [...(byLine.get(p.line) || []), p]);
  }
  const lines = list.replace(/\r\n?/g, '\n').split('\n');
  fill($('#deck-lines'), h('details', { open: n > 0 ? true : null },
    h('summary', {}, `The list, ${lines.length} lines${byLine.size ? `, ${byLine.size} with problems` : ''}`),
    h('ol', { class: 'lines' }, lines.map((text, i) => {
      const ps = byLine.get(i + 1);
      return h('li', { id: `line-${i + 1}`, class: ps ? 'bad' : null },
        text || '\u00a0',
        ps ? ps.map((p) => h('span', { class: 'why' }, `${p.rule}: ${p.message}`)) : null);
    }))));
}

/** showHero names the hero, the creature types printed on it, and those every card fits. */
async function showHero(v) {
  const box = $('#deck-hero');
  if (!v.hero) {
    fill(box, formatOf(v.format || $('#deck-format').value) && revision() && revision().side ? h('p', {}, 'No hero could be named.') : null);
    return;
  }
  let own = null;
  try {
    own = await get(`/api/decks/cards/${encodeURIComponent(v.hero)}`);
  } catch {
    own = null;
  }
  const fits = new Set(v.types);
  const r = revision();
  const human = !(r && r.humanAllowed);
  const printed = own && !own.identity.changeling ? own.identity.types.filter((t) => !(human && t === 'Human')) : null;
  const noHuman = human && own && own.identity.types.includes('Human');
  fill(box,
    h('p', {}, 'Hero: ', h('strong', {}, v.hero), own && own.identity.changeling ? ' — a changeling: every creature type.' : ''),
    printed ? [h('p', { id: 'hero-types-label' }, `The hero's possible types (printed on it; a type every card fits is marked):`),
      h('ul', { class: 'types', 'aria-labelledby': 'hero-types-label' }, printed.map((t) => h('li', { class: fits.has(t) ? 'fits' : null }, fits.has(t) ? `${t} ✓` : t)))] : null,
    noHuman ? h('p', { class: 'help' }, 'Human is printed on the hero too, but this revision does not let a deck choose Human.') : null,
    v.types.length > 12 ? h('p', {}, `The deck may choose any of ${v.types.length} types.`)
      : v.types.length ? h('p', { id: 'deck-types' }, `The deck may choose: ${v.types.join(', ')}.`)
        : h('p', { id: 'deck-types' }, 'No type of the hero fits every card: see the typal problems.'));
}

function wire() {
  $('#deck-form').addEventListener('submit', check);
  $('#deck-format').addEventListener('change', revisions);
  $('#deck-revision').addEventListener('change', subformats);
  $('#deck-league').addEventListener('change', league);
  $('#deck-list').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) check(e);
  });
}

async function main() {
  wire();
  try {
    await load();
  } catch (err) {
    problem(err);
  }
  document.body.dataset.ready = 'true';
}

main();
