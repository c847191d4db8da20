// The judge console's view of the open turn: why its deadline is what it is (C1), every post,
// public and private, with each line's outcome as the lock would judge it now (5.4.1), and for
// the admins the accounts' password reset.
import { call, get, session } from './api.js';
import { h, fill, at } from './util.js';

const MARK = { accepted: '✓', warning: '!', rejected: '✗' };

/** timing lists, in words, why the open turn's deadline and lock are what they are. */
export function timing(t) {
  return (t.timing || []).length ? h('div', { id: 'deadline-rules' },
    h('h4', {}, 'Why this deadline'), h('ul', { class: 'timing' }, t.timing.map((x) => h('li', {}, x)))) : null;
}

/** posts is the section body listing the open turn's posts with their lines' outcomes. */
export function posts() {
  const box = h('div', { id: 'judge-posts' });
  const msg = h('div', { role: 'status', hidden: true });
  return { box, msg, els: [h('p', { class: 'help' }, 'Every post of the open turn, private ones too, with what the lock would make of each line now: a line for an army its author does not control is recorded, rejected not_controller (5.4.1).'), msg, box] };
}

/** loadPosts fills the posts section for turn n. */
export async function loadPosts(app, part, n) {
  let list;
  try {
    list = await get(`/api/campaigns/${app.cid}/turns/${n}/lines`);
  } catch (err) {
    app.problem(part.msg, err);
    return;
  }
  const counts = { accepted: 0, warning: 0, rejected: 0 };
  for (const p of list) for (const l of p.lines) counts[l.status]++;
  fill(part.box,
    h('p', { id: 'judge-posts-count' }, `${list.length} post${list.length === 1 ? '' : 's'}: ${counts.accepted} line${counts.accepted === 1 ? '' : 's'} accepted, ${counts.warning} with a warning, ${counts.rejected} rejected.`),
    list.length ? h('ol', { class: 'judge-posts' }, list.map((p) => h('li', { class: 'post', 'data-post': p.id },
      h('p', {}, h('strong', {}, `Post ${p.id} by ${p.author}`), ' — ', at(p.at), p.private ? ' — private' : '', p.withdrawn_at ? ' — withdrawn' : '', p.replaces ? ` — replaces ${p.replaces}` : ''),
      p.lines.length ? h('ul', { class: 'checks' }, p.lines.map((l) => h('li', { class: `check ${l.status}`, 'data-status': l.status, 'data-code': l.code || '' },
        h('span', { class: 'badge' }, `${MARK[l.status] || ''} ${l.status}`), ' ', h('code', {}, l.text),
        l.message ? h('span', { class: 'why' }, ` — ${l.message} (${l.code})`) : null,
        (l.warnings || []).map((w) => h('span', { class: 'why' }, ` — ${w}`))))) : h('pre', {}, p.text))))
      : h('p', {}, 'No post yet.'));
}

/** accounts is the admins' section: reset an account's password. */
export function accounts(app) {
  if (!(session() && session().admin)) return null;
  const name = h('input', { id: 'reset-name', autocomplete: 'off', required: true, maxlength: 40 });
  const msg = h('div', { id: 'reset-msg', role: 'status', hidden: true });
  const form = h('form', { id: 'reset-form', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const { data } = await call('POST', `/api/accounts/${encodeURIComponent(name.value.trim())}/reset-password`, {});
      app.say(msg, `${data.account.name}’s new password: ${data.password} (shown this once). ${data.account.name} must change it at the next login.`);
      name.value = '';
    } catch (err) {
      app.problem(msg, err);
    }
  } }, h('label', { for: 'reset-name' }, 'Account'), name, ' ', h('button', { type: 'submit', id: 'reset-button' }, 'Reset the password'), msg);
  return [h('p', { class: 'help' }, 'A lost password: the account gets a new one, shown here once, and must change it when it next logs in.'), form];
}
