// The application shell: log in and out, choose the campaign, keep its map fresh (polling
// with If-None-Match, redrawing without a reload), the turn slider, and the tabs: the map's
// own panel, the order desk, the battle desk, the judge console, the mercenary desk, the threads,
// the notifications and the team's self-government (team, control list, votes).
import { call, get, login, logout, session, onSession } from './api.js';
import { h, $, fill, when, at, rankName, sideName, sameName } from './util.js';
import { MapDrawer, legend, armyLabel, battlesOf } from './map.js';
import * as orders from './orders.js';
import * as battles from './battles.js';
import * as judge from './judge.js';
import * as mercenary from './mercenary.js';
import * as thread from './thread.js';
import * as notifications from './notifications.js';
import * as password from './password.js';

const params = new URLSearchParams(location.search);
const POLL = Math.max(200, Number(params.get('poll')) || 4000);

/** app is the state the views share; it fires 'map' when the current map changes. */
export const app = Object.assign(new EventTarget(), {
  cid: 0, campaign: null, map: null, etag: '', shown: null, me: null, turnMaps: new Map(), view: null,
  following: true,
});

const views = {
  map: { label: 'Map', available: () => true, mount: mountMapPanel },
  orders: { label: 'Orders', available: () => !!(app.campaign && app.campaign.may_post), ...orders },
  battles: { ...battles, label: 'Battles', available: () => battles.available(app) },
  judge: { label: 'Judge', available: () => !!(app.campaign && app.campaign.class === 'judge'), ...judge },
  mercenary: { ...mercenary, label: 'Mercenaries', available: () => mercenary.available(app) },
  thread: { label: 'Threads', available: () => !!app.campaign, ...thread },
  notifications: { label: 'Notifications', available: () => !!(app.campaign && session()), ...notifications },
  team: { label: 'Team', available: () => !!app.campaign, ...lazy('team', () => import('./team.js')) },
  control: { label: 'Control', available: () => !!app.campaign, ...lazy('control', () => import('./control.js')) },
  votes: { label: 'Votes', available: () => !!app.campaign, ...lazy('votes', () => import('./votes.js')) },
};

/** lazy is a view whose module loads when its tab first opens: most readers never open it. */
function lazy(name, load) {
  let mod = null;
  return {
    mount(panel, a) {
      load().then((m) => {
        mod = m;
        if (document.body.dataset.view === name) m.mount(panel, a);
      }).catch((err) => alarm(err));
    },
    update() {
      if (mod) mod.update();
    },
  };
}

/** myArmies are the armies whose orders from the logged-in member count, as the server marks them (orderable; 5.2.1, M15). */
app.myArmies = function myArmies() {
  return app.map ? app.map.armies.filter((a) => a.orderable) : [];
};

/** problem shows what went wrong in a region: the server's detail, word for word. */
app.problem = function problem(el, err) {
  el.hidden = false;
  el.className = 'notice error';
  fill(el, err && err.detail ? err.detail : String(err && err.message ? err.message : err));
};

/** alarm shows a problem that belongs to no form at the top of the page. */
function alarm(err) {
  $('#alert').hidden = false;
  $('#alert-text').textContent = typeof err === 'string' ? err : err.detail || err.message;
}

/** say shows a message of success in a region. */
app.say = function say(el, text) {
  el.hidden = false;
  el.className = 'notice ok';
  fill(el, text);
};

const drawer = new MapDrawer($('#map'), {
  army: (name, e) => {
    if (!(app.view && app.view.army && app.view.army(name, e))) showArmy(name);
  },
  square: (sq, army, e) => {
    if (app.view && app.view.square && app.view.square(sq, army, e)) return;
    if (army) showArmy(army);
  },
  hover: (text, el) => {
    $('#map-hover').textContent = text || 'Point at a square or an army to see where it is.';
    tooltip(el);
  },
});
app.drawer = drawer;

/** tooltip shows beside an army's marker who it is, who controls it, its days and troops (1.2). */
function tooltip(el) {
  const tip = $('#tooltip');
  const a = el && ((app.shown && app.shown.armies) || []).find((x) => x.name === el.dataset.army);
  if (!a) {
    tip.hidden = true;
    return;
  }
  const alive = (a.troops || []).reduce((n, t) => n + t.alive, 0);
  fill(tip, h('strong', {}, a.name), h('br'), `${rankName(a.rank, a.side)} of ${sideName(a.side)}, at ${a.at}`, h('br'),
    a.controllers && a.controllers.length ? `Controlled by ${a.controllers.join(', ')}` : 'No controller', h('br'),
    `${a.days} day${a.days === 1 ? '' : 's'} counted`, a.troops ? `; ${alive} troops alive` : '');
  tip.hidden = false;
  const pane = $('#map-pane').getBoundingClientRect(), r = el.getBoundingClientRect();
  const left = Math.min(Math.max(0, r.left - pane.left - 40), pane.width - tip.offsetWidth - 4);
  tip.style.left = `${left}px`;
  tip.style.top = `${r.bottom - pane.top + 6}px`;
}

/** showArmy fills the army box under the map with what the viewer may see of an army. */
let infoArmy = '';

function showArmy(name, keepSelection) {
  const a = ((app.shown && app.shown.armies) || []).find((x) => x.name === name);
  const box = $('#army-info');
  infoArmy = a ? name : '';
  if (!keepSelection) drawer.select(name);
  if (!a) {
    fill(box);
    return;
  }
  const troops = a.troops || [];
  fill(box,
    h('h3', {}, a.name),
    h('p', {}, `${rankName(a.rank, a.side)} of ${sideName(a.side)}, at ${a.at}; ${a.days} day${a.days === 1 ? '' : 's'} counted`),
    a.controllers && a.controllers.length ? h('p', {}, 'Controlled by ', a.controllers.join(', ')) : h('p', {}, 'No controller'),
    a.colors && a.colors.length ? h('p', {}, 'Colours: ', a.colors.join(', ')) : null,
    a.faction ? h('p', {}, `Mercenary faction: ${a.faction}${a.home ? ', home ' + a.home : ''}`) : null,
    troops.length ? h('table', { class: 'troops' },
      h('caption', {}, `Troops of ${a.name}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Slot'), h('th', { scope: 'col' }, 'Creature'), h('th', { scope: 'col' }, 'Size'), h('th', { scope: 'col' }, 'Alive'))),
      h('tbody', {}, troops.map((t) => h('tr', {}, h('td', {}, t.slot), h('td', {}, t.creature, t.colors && t.colors.length ? ` (${t.colors.join('/')})` : ''),
        h('td', {}, t.size), h('td', {}, `${t.alive} / ${t.full}`))))) : h('p', {}, 'Troops not shown.'),
    a.plan ? h('p', {}, 'The rest of a long move is planned (M14).') : null,
    a.incoming && a.incoming.length ? h('p', {}, `${a.incoming.length} transfer(s) on their way (T3).`) : null);
}

function renderTabs() {
  const nav = $('#tabs');
  fill(nav, Object.entries(views).filter(([, v]) => v.available()).map(([k, v]) =>
    h('a', { href: `#${k}`, 'aria-current': app.view === views[k] ? 'page' : null }, v.label)));
}

/** route shows the tab the address names, falling back to the map. */
function route() {
  if (password.needed()) {
    // a password an admin reset is changed before anything else
    if (app.view && app.view.unmount) app.view.unmount();
    app.view = null;
    document.body.dataset.view = 'password';
    renderTabs();
    password.mount($('#panel'), app);
    return;
  }
  let name = location.hash.slice(1) || 'map';
  if (!views[name] || !views[name].available()) name = 'map';
  const v = views[name];
  if (app.view && app.view !== v && app.view.unmount) app.view.unmount();
  const fresh = app.view !== v;
  app.view = v;
  document.body.dataset.view = name;
  renderTabs();
  const panel = $('#panel');
  if (fresh) {
    panel.replaceChildren();
    v.mount(panel, app);
  } else if (v.update) v.update();
}

function renderSession() {
  const who = session();
  $('#login').hidden = !!who;
  $('#who').hidden = !who;
  if (who) $('#who-name').textContent = who.name;
}

async function loadCampaigns() {
  const list = await get('/api/campaigns');
  const sel = $('#campaign');
  fill(sel, list.map((c) => h('option', { value: c.id }, c.name)));
  const want = Number(params.get('c') || sessionStorage.getItem('coalition.campaign')) || 0;
  const pick = list.find((c) => c.id === want) || list[0];
  sel.parentElement.hidden = list.length < 2;
  if (!pick) {
    alarm('There is no campaign on this server yet: an admin creates one (POST /api/campaigns).');
    return;
  }
  sel.value = pick.id;
  await openCampaign(pick.id);
}

async function openCampaign(id) {
  app.cid = id;
  app.etag = '';
  app.map = null;
  app.turnMaps.clear();
  app.following = true;
  sessionStorage.setItem('coalition.campaign', id);
  await refresh();
}

/** setCampaign keeps the campaign and how far the browser's clock is from the server's. */
function setCampaign(c) {
  app.campaign = c;
  if (c.now) app.skew = new Date(c.now).getTime() - Date.now();
}

/** serverNow is the server's time now, in milliseconds, as far as the page can tell. */
app.serverNow = () => Date.now() + (app.skew || 0);

/** refresh reads the campaign and its map again now (after a login or a judge's action). */
app.refresh = async function refresh() {
  if (!app.cid) return;
  setCampaign(await get(`/api/campaigns/${app.cid}`));
  $('#campaign-name').textContent = app.campaign.name;
  app.etag = '';
  await pollMap();
  route();
};
const refresh = app.refresh;

async function pollMap() {
  const r = await call('GET', `/api/campaigns/${app.cid}/map`, undefined, { etag: app.etag });
  if (r.status === 304) return false;
  const before = app.map;
  app.map = r.data;
  app.etag = r.etag;
  if (before && (before.turn !== app.map.turn || before.status !== app.map.status)) {
    setCampaign(await get(`/api/campaigns/${app.cid}`));
  }
  const slider = $('#turn');
  slider.max = app.map.turn;
  slider.disabled = app.map.turn < 2;
  if (app.following) await showTurn(app.map.turn);
  app.dispatchEvent(new Event('map'));
  if (app.view && app.view.update) app.view.update();
  return true;
}

async function pollLoop() {
  try {
    // a hidden tab asks nothing; it asks at once when it shows again (visibilitychange)
    if (app.cid && !document.hidden && !password.needed()) await pollMap();
    $('#stale').hidden = true;
  } catch (e) {
    const st = $('#stale');
    st.hidden = false;
    st.textContent = `The map could not be refreshed: ${e.detail || e.message}. Retrying.`;
  }
  setTimeout(pollLoop, POLL);
}

/** showTurn draws turn n: the current map for the latest turn, a past turn's map with its moves otherwise. */
async function showTurn(n) {
  n = Number(n);
  const slider = $('#turn');
  slider.value = n;
  app.following = n === app.map.turn;
  let view = app.map;
  if (!app.following) {
    // a past turn's map is kept while the campaign's map version stays: a correction of an
    // earlier turn (3.3.3) changes it, and moves the version
    const key = `${n}@${app.map.version}`;
    view = app.turnMaps.get(key);
    if (!view) {
      view = await get(`/api/campaigns/${app.cid}/turns/${n}/map`);
      if (view.status === 'locked') app.turnMaps.set(key, view);
    }
  }
  app.shown = view;
  const moves = (view.moves || []).length;
  $('#turn-label').textContent = `Turn ${n} of ${app.map.turn}`;
  $('#map-caption').textContent = view.status === 'locked'
    ? `Turn ${n} as it opened, with the ${moves} move${moves === 1 ? '' : 's'} and the battles of its lock.`
    : view.status === 'editing' ? `Turn ${n} is locked; its update waits for the mercenary judge’s after-lock edit (6.3.2).`
      : `Turn ${n}, open: orders are taken until ${when(view.lock_at)}.`;
  drawer.draw(view);
  if (infoArmy) showArmy(infoArmy, true);
  if (app.view === views.map) mountMapPanel($('#panel'));
}

/** mountMapPanel is the map tab: the campaign, the turn shown, its battles and moves, its report. */
function mountMapPanel(panel) {
  const c = app.campaign, v = app.shown;
  if (!c || !v) return;
  const t = c.turn;
  const list = (items, f) => (items && items.length ? h('ul', {}, items.map((x) => h('li', {}, f(x)))) : h('p', {}, 'None.'));
  const report = h('details', { class: 'report' }, h('summary', {}, `The lock report of turn ${v.turn}`), h('pre', {}, 'Loading…'));
  report.addEventListener('toggle', async () => {
    if (!report.open) return;
    try {
      fill(report.lastChild, await get(`/api/campaigns/${app.cid}/turns/${v.turn}/report.txt`));
    } catch (e) {
      fill(report.lastChild, e.detail);
    }
  }, { once: false });
  const diceOut = h('p', { role: 'status' });
  const dice = h('button', {
    type: 'button', id: 'check-dice',
    onclick: async () => {
      try {
        const r = await get(`/api/campaigns/${app.cid}/turns/${v.turn}/dice/verify`);
        app[r.ok ? 'say' : 'problem'](diceOut, `${r.ok ? 'The dice check out' : 'The dice do not check out'}: ${r.detail}.`);
      } catch (e) {
        app.problem(diceOut, e);
      }
    },
  }, `Check turn ${v.turn}’s dice against its revealed seed (B6)`);
  fill(panel,
    h('h2', {}, c.name),
    c.status === 'paused' ? h('p', { class: 'notice warn' }, `Paused: ${c.pause_reason || 'no reason given'}. No orders are taken and no lock runs.`) : null,
    c.status === 'finished' ? h('p', { class: 'notice ok' }, `The round is over${app.map.winner ? ': ' + sideName(app.map.winner) + ' won' : ''}.`) : null,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Open turn'), h('dd', {}, `${t.number}`),
      h('dt', {}, 'Battle deadline'), h('dd', {}, at(t.deadline)),
      h('dt', {}, 'Lock'), h('dd', {}, at(t.lock_at)),
      h('dt', {}, 'Seed commitment (B6)'), h('dd', { class: 'hash' }, t.commitment)),
    h('h3', {}, v.status === 'locked' ? `Battles of turn ${v.turn}` : 'Battles this turn'),
    list(battlesOf(v), (b) => `${b.square}: ${(b.armies || []).join(' vs ')} (${b.kind})`),
    v.status === 'locked' ? [
      h('h3', {}, 'Battles announced for the next turn'),
      list(v.announced, (b) => `${b.square}: ${(b.armies || []).join(' vs ')} (${b.kind})`),
      h('h3', {}, `Moves of turn ${v.turn}`),
      list(v.moves, (m) => `${m.army}: ${m.from} → ${m.to}${m.partial ? ' (cut short)' : ''}${m.intercepted ? ' (intercepted)' : ''}`),
      report, dice, diceOut] : null,
    h('h3', {}, 'Armies on the map'),
    h('p', {}, 'Tab to an army on the map and press Enter, or click it, to see its troops.'),
    h('label', { for: 'army-find' }, 'Find an army'),
    findArmy());
}

function findArmy() {
  const input = h('input', { id: 'army-find', list: 'army-names', autocomplete: 'off' });
  const names = h('datalist', { id: 'army-names' }, (app.shown.armies || []).map((a) => h('option', { value: a.name }, armyLabel(a))));
  input.addEventListener('change', () => {
    const a = app.shown.armies.find((x) => sameName(x.name, input.value));
    if (a) {
      showArmy(a.name);
      drawer.focusArmy(a.name);
    }
  });
  return [input, names];
}
views.map.update = () => {};

function wire() {
  $('#legend-body').append(...legend());
  $('#turn').addEventListener('input', (e) => showTurn(e.target.value).catch((err) => alarm(err)));
  $('#zoom-in').addEventListener('click', () => drawer.zoom(1.25));
  $('#zoom-out').addEventListener('click', () => drawer.zoom(0.8));
  $('#zoom-fit').addEventListener('click', () => drawer.zoom(0));
  $('#campaign').addEventListener('change', (e) => openCampaign(Number(e.target.value)).catch((err) => alarm(err)));
  $('#login').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    const msg = $('#login-problem');
    msg.hidden = true;
    try {
      await login(f.elements.name.value.trim(), f.elements.password.value);
      f.reset();
    } catch (err) {
      app.problem(msg, err);
    }
  });
  $('#logout').addEventListener('click', () => logout());
  $('#alert-close').addEventListener('click', () => { $('#alert').hidden = true; });
  onSession(async () => {
    renderSession();
    if (password.needed()) {
      route();
      return;
    }
    try {
      await refresh();
    } catch (err) {
      alarm(err);
    }
  });
  window.addEventListener('hashchange', route);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && app.cid) pollMap().catch(() => {});
  });
}

async function main() {
  wire();
  renderSession();
  try {
    await loadCampaigns();
  } catch (err) {
    alarm(err);
  }
  setTimeout(pollLoop, POLL);
  document.body.dataset.ready = 'true';
}

main();
