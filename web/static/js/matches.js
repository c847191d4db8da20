// The match page (issue 19): the matches and their leagues, a new match for the table, and one
// match kept by its players — the standings by the format's own scores, an event form, the
// log with undone events struck through, and an undo of the last event in force.
import { call, get, login, logout, session, onSession } from './api.js';
import { h, $, fill, at } from './util.js';

const params = new URLSearchParams(location.search);
const POLL = Math.max(200, Number(params.get('poll')) || 4000);
const shown = { id: Number(params.get('m')) || 0, match: null, timer: 0 };

/** KINDS are the events each format takes, with the words the form shows. */
const COMMON = [['damage', 'Damage to a player'], ['life', 'Life gained or lost'], ['lose', 'A player loses'], ['concede', 'Concession'], ['draw', 'The game is a draw']];
const KINDS = {
  coalition: COMMON,
  heroic: [['turn', 'A turn begins'], ['cast', 'The hero is cast'], ['kill', 'The hero kills a creature'], ...COMMON],
  manahearth: [['hero', 'A planeswalker enters the Hero Zone'], ['ability', 'Hero Ability'], ['ultimate', 'Ultimate Ability'], ...COMMON],
};

/** FIELDS are the inputs each kind of event needs. */
const FIELDS = {
  damage: ['player', 'target', 'amount', 'source', 'combat'], life: ['player', 'amount'], lose: ['player'], concede: ['players'], draw: [],
  turn: ['player'], cast: ['player'], kill: ['player'], hero: ['player', 'card'], ability: ['player', 'amount'], ultimate: ['player', 'amount'],
};

function problem(el, err) {
  el.hidden = false;
  el.className = 'notice error';
  fill(el, err && err.detail ? err.detail : String((err && err.message) || err));
}

function say(el, text) {
  el.hidden = false;
  el.className = 'notice ok';
  fill(el, text);
}

function renderSession() {
  const who = session();
  $('#login').hidden = !!who;
  $('#who').hidden = !who;
  if (who) $('#who-name').textContent = who.name;
}

/** list is the page without a match: the matches, newest first, and a form to start one. */
async function list(main) {
  const [matches, leagues, formats] = await Promise.all([get('/api/matches'), get('/api/leagues'), get('/api/formats')]);
  const leagueName = new Map(leagues.map((l) => [l.id, l.name]));
  fill(main,
    h('section', { 'aria-labelledby': 'matches-title' },
      h('h2', { id: 'matches-title' }, 'Matches'),
      matches.length === 0 ? h('p', {}, 'No match yet.') : h('table', { class: 'matches' },
        h('caption', {}, 'The latest matches'),
        h('thead', {}, h('tr', {}, ['Match', 'Format', 'League', 'Players', 'Standing', 'Last change'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, matches.map((m) => h('tr', {},
          h('td', {}, h('a', { href: `/matches?m=${m.id}` }, `Match ${m.id}`)),
          h('td', {}, `${m.format} ${m.revision}`),
          h('td', {}, m.league ? leagueName.get(m.league) || '' : '—'),
          h('td', {}, m.players.join(', ')),
          h('td', {}, m.over ? m.result : 'being played'),
          h('td', {}, at(m.updated_at))))))),
    startForm(leagues, formats),
    leagues.length ? h('section', { 'aria-labelledby': 'leagues-title' }, h('h2', { id: 'leagues-title' }, 'Leagues'),
      h('ul', {}, leagues.map((l) => h('li', {}, `${l.name}: ${l.format} ${l.revision} `, h('a', { href: `/decks?league=${l.id}` }, 'check a deck for it'))))) : null);
}

/** startForm starts a match of a league, or of a format's revision, between accounts. */
function startForm(leagues, formats) {
  const out = h('div', { role: 'status', hidden: true });
  if (!session()) {
    return h('section', { 'aria-labelledby': 'start-title' }, h('h2', { id: 'start-title' }, 'Start a match'),
      h('p', {}, 'Log in to start a match: its players are accounts of this server, and they keep its score.'));
  }
  const format = h('select', { id: 'start-format', name: 'format' }, formats.match_formats.map((f) => h('option', { value: f }, f)));
  const league = h('select', { id: 'start-league', name: 'league' }, h('option', { value: '' }, 'No league'), leagues.map((l) => h('option', { value: l.id }, `${l.name} (${l.format})`)));
  const games = h('select', { id: 'start-games', name: 'games' }, [1, 3, 5].map((n) => h('option', { value: n }, n === 1 ? 'one game' : `best of ${n}`)));
  const bonus = h('input', { id: 'start-bonus', name: 'bonus', type: 'number', min: -1, max: 21, value: 5, 'aria-describedby': 'start-bonus-help' });
  const players = h('input', { id: 'start-players', name: 'players', required: true, size: 40, value: session().name, 'aria-describedby': 'start-players-help' });
  const kind = () => {
    const l = leagues.find((x) => x.id === Number(league.value));
    if (l) format.value = l.format;
    format.disabled = !!l;
    const coalition = format.value === 'coalition';
    games.parentElement.hidden = coalition;
    bonus.parentElement.hidden = !coalition;
  };
  format.addEventListener('change', kind);
  league.addEventListener('change', kind);
  const form = h('form', { id: 'start-form', 'aria-labelledby': 'start-title' },
    h('div', { class: 'deck-options' }, h('label', { for: 'start-league' }, 'League'), league, h('label', { for: 'start-format' }, 'Format'), format),
    h('label', { for: 'start-players' }, 'Players, in seat order'), players,
    h('p', { class: 'help', id: 'start-players-help' }, 'Account names separated by commas; you are one of them.'),
    h('p', {}, h('label', { for: 'start-games' }, 'Games'), games),
    h('p', {}, h('label', { for: 'start-bonus' }, 'Victory points for winning a game'), bonus,
      h('span', { class: 'help', id: 'start-bonus-help' }, ' 5 as the page says; −1 for none.')),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Start the match')), out);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { players: players.value.split(',').map((s) => s.trim()).filter(Boolean) };
    if (league.value) body.league = Number(league.value);
    else body.format = format.value;
    if (format.value === 'coalition') body.win_bonus = Number(bonus.value) || 5;
    else body.games = Number(games.value);
    try {
      const { data } = await call('POST', '/api/matches', body);
      location.assign(`/matches?m=${data.id}`);
    } catch (err) {
      problem(out, err);
    }
  });
  kind();
  return h('section', {}, h('h2', { id: 'start-title' }, 'Start a match'), form);
}

/** standings is the table of the players by the format's own scores. */
function standings(m) {
  const s = m.state;
  const cols = {
    coalition: [['Victory points this game', (p) => p.points || 0], ['Victory points in all', (p) => p.total || 0]],
    heroic: [['Hero level', (p) => p.heroLevel || 0], ['Hero damage', (p) => `${p.heroDamage || 0} of 17`], ['Hero cast', (p) => `${p.heroCasts || 0}${p.losesAtEndOfTurn ? ' — loses at the end of the turn' : ''}`]],
    manahearth: [['Hero Zone', (p) => p.hero || 'empty'], ['Ultimate used', (p) => (p.ultimate ? 'yes' : 'no')]],
  }[m.format] || [];
  const status = (p) => {
    if (s.over) return s.winner === p.name ? 'won the match' : (s.tied || []).includes(p.name) ? 'tied at the top' : '—';
    if (p.barred) return 'barred (conceded)';
    if (!p.in) return 'out of this game';
    return s.turn === p.name ? 'playing — their turn' : 'playing';
  };
  return h('table', { class: 'standings', id: 'standings' },
    h('caption', {}, s.over ? 'Final standings' : `Game ${s.game} of ${s.games}`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Life'),
      cols.map(([c]) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, 'Games won'))),
    h('tbody', {}, s.players.map((p) => h('tr', {}, h('th', { scope: 'row' }, p.name), h('td', {}, status(p)), h('td', {}, p.life),
      cols.map(([, f]) => h('td', {}, f(p))), h('td', {}, p.wins)))));
}

/** games lists the games played and how each ended. */
function games(m) {
  const fin = m.state.finished;
  if (!fin.length) return null;
  return [h('h3', {}, 'Games played'), h('ol', { id: 'games' }, fin.map((g) => h('li', {},
    g.draw ? 'A draw' : `${g.winner} won (${g.how})`,
    g.points ? ` — victory points: ${Object.entries(g.points).map(([n, v]) => `${n} ${v}`).join(', ')}` : '')))];
}

/** eventForm is the form the table enters events with; the fields follow the kind. */
function eventForm(m) {
  const out = h('div', { id: 'event-out', role: 'status', hidden: true });
  const options = () => m.players.map((p) => h('option', { value: p }, p));
  const kind = h('select', { id: 'event-kind', name: 'kind' }, (KINDS[m.format] || COMMON).map(([k, label]) => h('option', { value: k }, label)));
  const f = {
    player: h('select', { id: 'event-player', name: 'player' }, options()),
    target: h('select', { id: 'event-target', name: 'target' }, options()),
    amount: h('input', { id: 'event-amount', name: 'amount', type: 'number', min: -1000, max: 1000, value: 1, 'aria-describedby': 'event-amount-help' }),
    source: h('select', { id: 'event-source', name: 'source' }, [['creature', 'a creature'], ['hero', 'the hero'], ['other', 'another source']].map(([v, l]) => h('option', { value: v }, l))),
    combat: h('input', { id: 'event-combat', name: 'combat', type: 'checkbox', checked: true }),
    card: h('input', { id: 'event-card', name: 'card', size: 30 }),
  };
  const who = h('fieldset', { id: 'event-players' }, h('legend', {}, 'Who concedes (every player named concedes at once)'),
    m.players.map((p, i) => h('label', { class: 'choice' }, h('input', { type: 'checkbox', name: 'players', value: p, checked: i === 0 ? true : null }), ` ${p}`)));
  const labels = {
    player: 'Who (whose creature or hero, who acts)', target: 'Dealt to', amount: 'Amount', source: 'Dealt by', combat: 'Combat damage', card: 'Planeswalker',
  };
  const help = h('span', { class: 'help', id: 'event-amount-help' });
  const boxes = Object.fromEntries(Object.entries(f).map(([k, el]) => [k, h('span', {},
    k === 'combat' ? [el, h('label', { for: el.id }, labels[k])] : [h('label', { for: el.id }, labels[k]), el], k === 'amount' ? help : null)]));
  const follow = () => {
    const need = FIELDS[kind.value] || [];
    for (const [k, box] of Object.entries(boxes)) box.hidden = !need.includes(k);
    who.hidden = !need.includes('players');
    help.textContent = { life: ' gained; negative for lost', ability: ' the loyalty cost (paid in life)', ultimate: ' the loyalty cost (paid in life)' }[kind.value] || '';
  };
  kind.addEventListener('change', follow);
  const form = h('form', { id: 'event-form', class: 'event-form', 'aria-labelledby': 'event-title' },
    h('label', { for: 'event-kind' }, 'Event'), kind, Object.values(boxes), who,
    h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'event-enter' }, 'Enter the event')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const need = FIELDS[kind.value] || [];
    const body = { kind: kind.value, after: shown.match.in_force };
    for (const k of need) {
      if (k === 'players') body.players = [...who.querySelectorAll('input:checked')].map((x) => x.value);
      else if (k === 'amount') body.amount = Number(f.amount.value);
      else if (k === 'combat') body.combat = f.combat.checked;
      else body[k] = f[k].value;
    }
    try {
      const { data } = await call('POST', `/api/matches/${m.id}/events`, body);
      say(out, data.outcome.message);
      render(data.match);
    } catch (err) {
      problem(out, err);
    }
  });
  follow();
  return h('section', { 'aria-labelledby': 'event-title', id: 'event-section' }, h('h2', { id: 'event-title' }, 'Enter an event'), form, out);
}

/** log is every event entered, undone ones struck through, and the undo of the last. */
function log(m) {
  const last = [...m.log].reverse().find((e) => e.n > 0);
  const out = h('div', { id: 'undo-out', role: 'status', hidden: true });
  const undo = m.may_keep_score && last ? h('button', {
    type: 'button', id: 'undo',
    onclick: async () => {
      try {
        const { data } = await call('POST', `/api/matches/${m.id}/undo`, { n: m.in_force });
        say(out, data.outcome.message);
        render(data.match);
      } catch (err) {
        problem(out, err);
      }
    },
  }, `Undo the last event (${last.seq})`) : null;
  return h('section', { 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'The log'),
    m.log.length === 0 ? h('p', {}, 'No event yet.') : h('ol', { class: 'log', id: 'log' }, m.log.map((e) => h('li', { class: e.undone_at ? 'undone' : null, value: e.seq },
      h('span', { class: 'says' }, `Game ${e.game}: ${e.says}`), h('span', { class: 'out' }, ` — ${e.by}, `, at(e.at)),
      e.undone_at ? h('span', {}, ` (undone by ${e.undone_by})`) : null))),
    undo, out);
}

/** render draws a match; the event form is kept across redraws, so what is typed stays. */
function render(m) {
  shown.match = m;
  const main = $('#content');
  const head = [h('h2', { id: 'match-title' }, `Match ${m.id}: ${m.players.join(', ')}`),
    h('p', {}, `${m.format} ${m.revision}`, m.league_name ? `, league ${m.league_name}` : '', '. ',
      m.over ? h('strong', { id: 'match-result' }, `Over: ${m.result}.`) : 'Being played.'),
    standings(m), games(m)];
  let top = $('#match-state');
  if (!top) {
    top = h('section', { id: 'match-state', 'aria-labelledby': 'match-title' });
    fill(main, top, h('div', { id: 'event-slot' }), h('div', { id: 'log-slot' }), h('p', {}, h('a', { href: '/matches' }, 'All matches')));
  }
  fill(top, head);
  const slot = $('#event-slot');
  if (m.may_keep_score && !m.over) {
    if (!$('#event-form')) fill(slot, eventForm(m));
  } else {
    fill(slot, m.may_keep_score ? null : h('p', { class: 'help' }, session() ? 'Only the players at this table (and the admins) enter its events.' : 'Log in as one of its players to enter events.'));
  }
  const said = $('#undo-out') && !$('#undo-out').hidden ? $('#undo-out').textContent : '';
  fill($('#log-slot'), log(m));
  if (said) say($('#undo-out'), said);
}

/** poll reads the match again while the page shows, so that every device at the table follows. */
async function poll() {
  clearTimeout(shown.timer);
  try {
    if (!document.hidden && shown.id) {
      const m = await get(`/api/matches/${shown.id}`);
      if (!shown.match || m.version !== shown.match.version || m.may_keep_score !== shown.match.may_keep_score) render(m);
    }
  } catch {
    // the next poll tries again
  }
  shown.timer = setTimeout(poll, POLL);
}

async function show() {
  const main = $('#content');
  try {
    if (shown.id) {
      shown.match = null;
      fill(main);
      render(await get(`/api/matches/${shown.id}`));
      shown.timer = setTimeout(poll, POLL);
    } else {
      await list(main);
    }
  } catch (err) {
    const box = h('div');
    fill(main, box);
    problem(box, err);
  }
}

function wire() {
  $('#login').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    const msg = $('#login-problem');
    msg.hidden = true;
    try {
      await login(f.elements.name.value.trim(), f.elements.password.value);
      f.reset();
    } catch (err) {
      problem(msg, err);
    }
  });
  $('#logout').addEventListener('click', () => logout());
  onSession(() => {
    renderSession();
    show();
  });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && shown.id) poll();
  });
}

async function main() {
  wire();
  renderSession();
  await show();
  document.body.dataset.ready = 'true';
}

main();
