// What the self-government pages share (chapters 1 and 5): who the reader is in the campaign,
// small form builders, and a request that shows its outcome in a status region.
import { call, session } from './api.js';
import { h } from './util.js';

/** whoKey says who reads the page, to draw it again when that changes. */
export function whoKey(app) {
  return JSON.stringify([(session() || {}).name || '', me(app)]);
}

/** me is the reader's membership in the campaign, or null. */
export function me(app) {
  return (app.campaign && app.campaign.you) || null;
}

/** has says whether the reader holds a role in the campaign. */
export function has(app, role) {
  const m = me(app);
  return !!(m && (m.roles || []).includes(role));
}

/** plays says whether the reader plays for a side; side, when given, must be his. */
export function plays(app, side) {
  const m = me(app);
  return !!(m && m.side && ((m.roles || []).includes('player') || (m.roles || []).includes('leader')) && (!side || m.side === side));
}

/** judge says whether the reader is a movement or battle judge (an assistant judge too, 1.3). */
export function judge(app) {
  return has(app, 'movement-judge') || has(app, 'battle-judge');
}

/** admin says whether the reader runs the server. */
export function admin() {
  const who = session();
  return !!(who && who.admin);
}

/** field is a labelled input; attrs go to the input. */
export function field(id, label, attrs = {}) {
  return [h('label', { for: id }, label), h('input', { id, autocomplete: 'off', ...attrs })];
}

/** select is a labelled select of [value, text] pairs. */
export function select(id, label, options, attrs = {}) {
  return [h('label', { for: id }, label), h('select', { id, ...attrs }, options.map(([v, t]) => h('option', { value: v }, t)))];
}

/**
 * send calls the API and says in msg what came of it: done(data) for the words of success, or
 * the server's own words of refusal. It returns the data, or null when refused.
 */
export async function send(app, msg, method, path, body, done) {
  try {
    const { data } = await call(method, path, body);
    app.say(msg, done(data));
    return data;
  } catch (err) {
    app.problem(msg, err);
    return null;
  }
}

/** status is a region where a form's outcome is said. */
export function status(id) {
  return h('div', { id, role: 'status', hidden: true });
}

/** names splits "a, b" into names. */
export function names(text) {
  return String(text || '').split(',').map((s) => s.trim()).filter(Boolean);
}
