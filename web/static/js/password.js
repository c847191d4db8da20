// The password an admin reset: until the account chooses its own, the page asks for it before
// anything else (the server refuses everything else meanwhile).
import { call, login, session } from './api.js';
import { h, fill } from './util.js';

/** needed says whether the logged-in account must change its password. */
export function needed() {
  const who = session();
  return !!(who && who.must_change);
}

/** mount asks for the new password in the panel. */
export function mount(panel, app) {
  const who = session();
  const msg = h('div', { id: 'change-msg', role: 'alert', hidden: true });
  const old = h('input', { id: 'change-old', type: 'password', autocomplete: 'current-password', required: true });
  const pw = h('input', { id: 'change-new', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 72 });
  fill(panel, h('h2', {}, 'Choose a new password'),
    h('p', {}, `An admin reset ${who.name}’s password. Choose your own before going on.`),
    h('form', { id: 'change-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await call('PUT', '/api/me/password', { old: old.value, new: pw.value });
        await login(who.name, pw.value); // the old token ended with the change
      } catch (err) {
        app.problem(msg, err);
      }
    } }, h('label', { for: 'change-old' }, 'The password you were given'), old,
    h('label', { for: 'change-new' }, 'Your new password (8 characters or more)'), pw,
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Change the password')), msg));
}
