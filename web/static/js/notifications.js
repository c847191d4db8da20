// The reader's notifications of the campaign: what he receives (locks, battles, results,
// deadlines, pauses, the end of the round, reminders) and where (a webhook, signed or in
// Discord's format; an e-mail address), the feed's address, and what was sent lately.
import { call, get } from './api.js';
import { h, fill, at } from './util.js';

const KINDS = {
  lock: 'Locks, with their reports', battles: 'Battles announced', results: 'Battle results', deadline: 'Deadlines moved',
  paused: 'Campaign paused', resumed: 'Campaign resumed', finished: 'End of the round', corrected: 'A locked turn corrected (3.3.3)',
  'reminder-orders': 'Reminder before the lock: my armies without an order', 'reminder-strategy': 'Reminder before the battle deadline: my battles without a strategy',
};

let app, els = {};

export function mount(panel, a) {
  app = a;
  els = {
    kinds: h('fieldset', {}, h('legend', {}, 'What you receive')),
    email: h('input', { id: 'notify-email', type: 'email', autocomplete: 'email', maxlength: 254 }),
    url: h('input', { id: 'notify-url', type: 'url', autocomplete: 'off', maxlength: 2000, placeholder: 'a Discord channel’s webhook address, or your own' }),
    format: h('select', { id: 'notify-format' }, h('option', { value: 'json' }, 'JSON, signed (HMAC-SHA256)'), h('option', { value: 'discord' }, 'Discord')),
    secret: h('p', { id: 'notify-secret', class: 'help' }),
    msg: h('div', { id: 'notify-msg', role: 'status', hidden: true }),
    sent: h('tbody'),
    events: h('ul', { id: 'notify-events', class: 'events' }),
    channels: h('p', { class: 'help' }),
  };
  const form = h('form', { id: 'notify-form', onsubmit: save },
    els.kinds,
    h('label', { for: 'notify-email' }, 'E-mail address'), els.email, els.channels,
    h('label', { for: 'notify-url' }, 'Webhook address'), els.url,
    h('label', { for: 'notify-format' }, 'Webhook format'), els.format, els.secret,
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', name: 'new_secret' }), ' Draw a new signing secret'),
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'notify-save' }, 'Save'), ' ',
      h('button', { type: 'button', id: 'notify-stop', onclick: stop }, 'Receive nothing')), els.msg);
  const feed = `${location.origin}/api/campaigns/${app.cid}/feed.atom`;
  fill(panel, h('h2', {}, 'Notifications'),
    h('p', {}, 'The public events are also a feed for any feed reader: ', h('a', { href: feed, id: 'feed-link' }, feed)),
    form,
    h('h3', {}, 'Lately'), els.events,
    h('h3', {}, 'Sent to you'), h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Deliveries' },
      h('table', {}, h('thead', {}, h('tr', {}, ['Event', 'By', 'To', 'State', 'Tries'].map((x) => h('th', { scope: 'col' }, x)))), els.sent)));
  load();
}

export function update() {}

async function load() {
  let v;
  try {
    v = await get(`/api/campaigns/${app.cid}/notifications`);
  } catch (err) {
    app.problem(els.msg, err);
    return;
  }
  const sub = v.subscription || { kinds: [] };
  fill(els.kinds, h('legend', {}, 'What you receive'), v.kinds.map((k) => h('label', { class: 'choice' },
    h('input', { type: 'checkbox', name: 'kind', value: k, checked: sub.kinds.includes(k) }), ' ', KINDS[k] || k)));
  els.email.value = sub.email || '';
  els.email.disabled = !v.channels.includes('email');
  fill(els.channels, v.channels.includes('email') ? '' : 'This server sends no e-mail (its admin sets COALITION_SMTP_URL).');
  els.url.value = sub.webhook_url || '';
  els.format.value = sub.webhook_format || 'json';
  fill(els.secret, sub.webhook_secret ? ['Signing secret: ', h('code', {}, sub.webhook_secret),
    '. Each request carries X-Coalition-Signature: sha256= and the hex HMAC-SHA256 of X-Coalition-Timestamp, a dot and the body.'] : '');
  fill(els.events, v.events.length ? v.events.map((e) => h('li', { 'data-kind': e.kind }, at(e.at), ' — ', h('strong', {}, e.title))) : h('li', {}, 'Nothing yet.'));
  fill(els.sent, v.deliveries.map((d) => h('tr', { 'data-status': d.status }, h('td', {}, d.event), h('td', {}, d.channel), h('td', {}, d.target),
    h('td', {}, d.status, d.last_error ? ` (${d.last_error})` : ''), h('td', {}, d.attempts))));
}

async function save(e) {
  e.preventDefault();
  const f = e.target;
  const body = {
    kinds: [...f.querySelectorAll('input[name="kind"]:checked')].map((x) => x.value),
    email: els.email.disabled ? '' : els.email.value.trim(), webhook_url: els.url.value.trim(),
    webhook_format: els.url.value.trim() ? els.format.value : '', new_secret: f.elements.new_secret.checked,
  };
  try {
    await call('PUT', `/api/campaigns/${app.cid}/notifications`, body);
    f.elements.new_secret.checked = false;
    app.say(els.msg, `Saved: you receive ${body.kinds.length} kind${body.kinds.length === 1 ? '' : 's'} of notification.`);
    await load();
  } catch (err) {
    app.problem(els.msg, err);
  }
}

async function stop() {
  try {
    await call('DELETE', `/api/campaigns/${app.cid}/notifications`);
    app.say(els.msg, 'You receive nothing more of this campaign.');
    await load();
  } catch (err) {
    app.problem(els.msg, err);
  }
}
