// The battle formulas (B3, B7, 4.3.3, 4.5), in the judge console for the battle judges only:
// each formula's text as it stands, editable, with its version and the names it may use; a
// save makes a new version, which the server compiles first and refuses in words when it does
// not compile; every saved version is kept and listed.
import { call, get } from './api.js';
import { h, fill, when, at } from './util.js';

const TITLES = {
  size: 'Size bonus of the larger side, 0–10 (B3)',
  casualties: 'Troops a side loses (B7)',
  kill: 'Kill attempt: succeeds above 0 (4.3.3)',
  capture: 'Capture attempt: succeeds above 0 (4.5)',
  risk: 'Risked troops that die (4.3.3)',
};

let app, box, msg;

/** mount builds the section's body and reads the formulas. */
export function mount(a) {
  app = a;
  box = h('div', { id: 'formula-list' }, h('p', {}, 'Loading the formulas…'));
  msg = h('div', { role: 'status', hidden: true });
  load();
  return [h('p', { class: 'help' }, 'Secret from the players. Each formula is an expression in the expr language giving a number; a save is a new version, and every proposal names the versions it used.'), msg, box];
}

async function load() {
  let data;
  try {
    data = await get(`/api/campaigns/${app.cid}/formulas`);
  } catch (err) {
    app.problem(msg, err);
    fill(box);
    return;
  }
  msg.hidden = true;
  fill(box, data.formulas.map((f) => formulaForm(f, data.history)));
}

/** version says which version a formula is and who saved it when. */
function version(f) {
  return f.by ? `Version ${f.version}, saved by ${f.by} ${when(f.at)}.` : `Version ${f.version}, the shipped default.`;
}

/** formulaForm is one formula: its text to edit, its version, a save button and its history. */
function formulaForm(f, history) {
  const id = (x) => `formula-${f.name}-${x}`;
  const head = h('p', { class: 'formula-version', id: id('version') });
  const text = h('textarea', {
    id: id('text'), name: 'text', rows: Math.max(2, f.text.split('\n').length + 1), required: true, maxlength: 4000,
    spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${id('version')} ${id('vars')} ${id('msg')}`,
  });
  const out = h('div', { id: id('msg'), role: 'status', hidden: true });
  const past = h('details', { class: 'formula-history', id: id('history') });
  const show = (cur, all) => {
    fill(head, version(cur));
    text.value = cur.text;
    const saved = (all || []).filter((x) => x.name === cur.name).sort((a, b) => b.version - a.version);
    fill(past, h('summary', {}, `Saved versions of the ${cur.name} formula (${saved.length})`),
      saved.length ? h('table', {},
        h('thead', {}, h('tr', {}, ['Version', 'When', 'Who', 'Text'].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, saved.map((x) => h('tr', { 'data-version': x.version },
          h('td', {}, x.version), h('td', {}, at(x.at)), h('td', {}, x.by), h('td', {}, h('pre', {}, x.text))))))
        : h('p', {}, 'None saved yet: version 1 is the shipped default.'));
  };
  show(f, history);
  const form = h('form', { class: 'formula', 'data-formula': f.name, 'aria-labelledby': id('title') },
    h('h4', { id: id('title') }, `${f.name}: ${TITLES[f.name] || 'battle formula'}`),
    head,
    h('label', { for: id('text') }, `The ${f.name} formula`), text,
    h('p', { class: 'help', id: id('vars') }, `It may use: ${(f.variables || []).join(', ')}.`),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, `Save the ${f.name} formula`)), out, past);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    out.hidden = true;
    try {
      const { data } = await call('PUT', `/api/campaigns/${app.cid}/formulas/${encodeURIComponent(f.name)}`, { text: text.value });
      const cur = data.formulas.find((x) => x.name === f.name) || f;
      show(cur, data.history);
      text.removeAttribute('aria-invalid');
      app.say(out, `Saved as version ${cur.version} of the ${f.name} formula.`);
    } catch (err) {
      text.setAttribute('aria-invalid', 'true');
      app.problem(out, err);
    }
  });
  return form;
}
