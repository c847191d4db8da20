// The turn's threads: the public thread (every public post and comment by time, as the forum's
// movement thread was), the reader's side's private channel and his conversation with the judges.
// Comments are never orders. The judges see every channel and hide a message with a reason.
import { call, get, session } from './api.js';
import { h, fill, at } from './util.js';

const CHANNELS = { public: 'Public thread', side: 'Your side', judges: 'The judges' };

let current = null;

/** Thread shows one turn's threads in an element and keeps them fresh. */
class Thread {
  constructor(app, root) {
    this.app = app;
    this.root = root;
    this.channel = 'public';
    this.turn = 0;
    this.els = {
      tabs: h('div', { class: 'channels', role: 'radiogroup', 'aria-label': 'Which thread' }),
      list: h('ol', { id: 'thread-list', class: 'thread', 'aria-live': 'polite', tabindex: 0, 'aria-label': 'The thread' }),
      msg: h('div', { id: 'thread-msg', role: 'status', hidden: true }),
      text: h('textarea', { id: 'message-text', rows: 3, maxlength: 4000, 'aria-describedby': 'message-help' }),
      to: h('input', { id: 'message-to', autocomplete: 'off', maxlength: 40 }),
      toLabel: h('label', { for: 'message-to' }, 'Answer whom (a judge names the player)'),
    };
    const form = h('form', { id: 'message-form', onsubmit: (e) => this.send(e) },
      h('label', { for: 'message-text' }, 'Your message'),
      h('p', { id: 'message-help', class: 'help' }, 'A comment, never an order: nothing here is read as one. Post orders with the order desk.'),
      this.els.text, this.els.toLabel, this.els.to,
      h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'message-send' }, 'Send')));
    this.form = form;
    fill(root, this.els.tabs, this.els.list, this.els.msg, form);
    this.renderTabs();
  }

  judge() {
    return this.app.campaign && this.app.campaign.class === 'judge';
  }

  renderTabs() {
    const who = session();
    const you = this.app.campaign && this.app.campaign.you;
    const open = Object.keys(CHANNELS).filter((k) => k === 'public' || (who && (k === 'judges' || this.judge() || (k === 'side' && you && you.side))));
    fill(this.els.tabs, open.map((k) => h('button', {
      type: 'button', role: 'radio', 'aria-checked': String(k === this.channel), 'data-channel': k,
      onclick: () => { this.channel = k; this.renderTabs(); this.load(); },
    }, k === 'side' && this.judge() ? 'The sides' : CHANNELS[k])));
    this.form.hidden = !who;
    this.els.to.hidden = this.els.toLabel.hidden = !(this.channel === 'judges' && this.judge());
  }

  /** load reads the turn's thread or messages again and shows the channel chosen. */
  async load() {
    const n = this.app.campaign.turn.number;
    this.turn = n;
    try {
      if (this.channel === 'public') {
        const items = await get(`/api/campaigns/${this.app.cid}/turns/${n}/thread`);
        this.show(items.map((x) => (x.kind === 'post' ? { post: x.post } : { message: x.message })));
      } else {
        const ms = await get(`/api/campaigns/${this.app.cid}/turns/${n}/messages`);
        const mine = ms.filter((m) => (this.channel === 'judges' ? m.channel === 'judges' : m.channel !== 'public' && m.channel !== 'judges'));
        this.show(mine.map((m) => ({ message: m })));
      }
    } catch (err) {
      this.app.problem(this.els.msg, err);
    }
  }

  show(items) {
    if (!items.length) {
      fill(this.els.list, h('li', { class: 'empty' }, `Nothing yet in turn ${this.turn}.`));
      return;
    }
    fill(this.els.list, items.map((x) => (x.post ? this.post(x.post) : this.message(x.message))));
  }

  post(p) {
    return h('li', { class: 'item post-item', 'data-post': p.id },
      h('p', { class: 'byline' }, h('span', { class: 'kind' }, 'Orders'), ' ', h('strong', {}, p.author), ' — ', at(p.at),
        p.private ? ' (private, C2)' : '', p.withdrawn_at ? ' (withdrawn)' : ''),
      h('pre', {}, p.text));
  }

  message(m) {
    const hidden = m.hidden;
    const where = m.channel === 'public' ? '' : m.channel === 'judges' ? ` (to the judges${m.with ? `, with ${m.with}` : ''})` : ` (${m.channel} only)`;
    return h('li', { class: `item comment${hidden ? ' hidden-message' : ''}`, 'data-message': m.id },
      h('p', { class: 'byline' }, h('span', { class: 'kind' }, 'Comment'), ' ', h('strong', {}, m.author), where, ' — ', at(m.at)),
      hidden ? h('p', { class: 'notice warn' }, `Hidden by ${hidden.by}: ${hidden.reason}`) : null,
      m.text ? h('p', { class: 'text' }, m.text) : null,
      this.judge() && !hidden ? this.hideForm(m) : null);
  }

  hideForm(m) {
    const id = `hide-${m.id}`;
    const reason = h('input', { id, autocomplete: 'off', maxlength: 500, required: true });
    return h('form', { class: 'hide-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await call('POST', `/api/campaigns/${this.app.cid}/messages/${m.id}/hide`, { reason: reason.value.trim() });
        this.app.say(this.els.msg, `Message ${m.id} is hidden.`);
        await this.load();
      } catch (err) {
        this.app.problem(this.els.msg, err);
      }
    } }, h('label', { for: id }, 'Reason to hide it'), reason, ' ', h('button', { type: 'submit', 'aria-label': `Hide message ${m.id}` }, 'Hide'));
  }

  async send(e) {
    e.preventDefault();
    const body = { channel: this.channel, text: this.els.text.value.trim() };
    if (this.channel === 'judges' && this.judge() && this.els.to.value.trim()) body.to = this.els.to.value.trim();
    try {
      await call('POST', `/api/campaigns/${this.app.cid}/messages`, body);
      this.els.text.value = '';
      this.app.say(this.els.msg, 'Sent.');
      await this.load();
    } catch (err) {
      this.app.problem(this.els.msg, err);
    }
  }
}

/** section is the threads as a part of another panel (the order desk's). */
export function section(app) {
  const root = h('section', { id: 'threads', class: 'card', 'aria-labelledby': 'threads-title' });
  const box = h('div');
  root.append(h('h3', { id: 'threads-title' }, 'Threads of this turn'), box);
  current = new Thread(app, box);
  current.load();
  return root;
}

export function mount(panel, app) {
  const box = h('div');
  fill(panel, h('h2', {}, `Threads of turn ${app.campaign.turn.number}`), box);
  current = new Thread(app, box);
  current.load();
}

export function update() {
  if (!current) return;
  // who reads which channel changes with a login while the tab is open
  current.renderTabs();
  if (current.app.campaign.turn.number !== current.turn) current.load();
}

export function unmount() {
  current = null;
}
