// The order desk's guides: which of the reader's armies have an order that counts this turn,
// which have none and which fight (the server's answer, M1, M2), and for the chosen army the
// squares it can reach, shaded, with those an order would be refused for marked and the
// movement checker's reason on hover (3.2.2, M5, M14).
import { get } from './api.js';
import { h } from './util.js';

/** LABEL words an army's state on the desk. */
export const LABEL = { ordered: 'order counts', none: 'no order', fighting: 'fights (M1)' };

/** load asks the server which of the reader's armies have an accepted order: a Map of name to {status, text}. */
export async function load(app) {
  const data = await get(`/api/campaigns/${app.cid}/desk`);
  return new Map(data.armies.map((a) => [a.name, a]));
}

/** summary is a line counting the armies by their state. */
export function summary(desk) {
  const n = { ordered: 0, none: 0, fighting: 0 };
  for (const a of desk.values()) n[a.status] = (n[a.status] || 0) + 1;
  return h('p', { id: 'desk-summary', class: 'help' },
    `${n.ordered} of ${desk.size} arm${desk.size === 1 ? 'y has' : 'ies have'} an order that counts; ${n.none} ha${n.none === 1 ? 's' : 've'} none and will hold; ${n.fighting} fight${n.fighting === 1 ? 's' : ''} a battle (M1).`);
}

/** badge shows an army's state beside its button. */
export function badge(desk, name) {
  const a = desk && desk.get(name);
  if (!a) return null;
  return h('span', { class: `desk-status ${a.status}`, 'data-status': a.status, title: a.text || '' }, LABEL[a.status] || a.status);
}

let asked = 0;

/** showReach shades where the army can go; '' clears the shading. */
export async function showReach(app, army) {
  const mine = ++asked;
  if (!army) {
    app.drawer.setReach([]);
    return null;
  }
  const data = await get(`/api/campaigns/${app.cid}/armies/${encodeURIComponent(army)}/reach`);
  if (mine === asked) app.drawer.setReach(data.squares);
  return data;
}

/** legend explains the shading. */
export function legend() {
  return h('p', { class: 'help reach-legend' },
    h('span', { class: 'swatch ok', 'aria-hidden': 'true' }), ' reachable this turn  ',
    h('span', { class: 'swatch far', 'aria-hidden': 'true' }), ' by a long move’s next leg  ',
    h('span', { class: 'swatch kw', 'aria-hidden': 'true' }), ' only with engage or replace (M5)  ',
    h('span', { class: 'swatch bad', 'aria-hidden': 'true' }), ' an order would be refused — point at a square for the reason');
}
