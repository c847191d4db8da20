// The map viewer (1.2): the grid with its terrain, column numbers and row letters; bases,
// portals and towns as hollow squares in their colours; armies as markers in their side's
// colour, at half size when they share a square; moves as arrows and battles as rings.
import { s, h, rankName, sideName } from './util.js';

export const CELL = 24;
const M = 22; // room for the labels
const ROWS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const TERRAIN = {
  ocean: ['Ocean', '#2f6f9f'], islands: ['Islands', '#8fcfe0'], plains: ['Plains', '#ebe3b4'],
  mountain: ['Mountain', '#a08a76'], forest: ['Forest', '#4f8c3c'], swamp: ['Swamp', '#747043'],
};

// Rule 1.2: Coalition bases in their faction's colour, the Colorless base in the brown of the
// old artifacts, Phyrexian portals grey, towns neutral.
export const SITE = {
  white: ['White base', '#ffffff'], blue: ['Blue base', '#1f5fd6'], black: ['Black base', '#111111'],
  red: ['Red base', '#d42a1e'], green: ['Green base', '#13a03a'], 'five-color': ['Five-color base', '#d9a400'],
  colorless: ['Colorless base', '#8b5a2b'], artifact: ['Artifact base', '#8b5a2b'],
  portal: ['Phyrexian portal', '#8c8c8c'], town: ['Town', '#5b4636'],
};

export const SIDE = {
  coalition: ['Coalition', '#1d4ed8'], phyrexia: ['Phyrexia', '#6b1d6e'], mercenary: ['Mercenaries', '#e07b00'],
  neutral: ['Neutral', '#555555'],
};

export const STATUS = { accepted: '#16833a', warning: '#b86e00', rejected: '#c0262d', draft: '#333333' };

/** parseSquare reads "3D" or "d3" into {col, row}, or null. */
export function parseSquare(t) {
  const m = /^\s*(?:(\d{1,3})([A-Za-z])|([A-Za-z])(\d{1,3}))\s*$/.exec(t || '');
  if (!m) return null;
  return { col: Number(m[1] || m[4]), row: ROWS.indexOf((m[2] || m[3]).toUpperCase()) + 1 };
}

/** squareName writes a square number first: "3D". */
export const squareName = (col, row) => `${col}${ROWS[row - 1]}`;

const center = (sq) => [M + (sq.col - 0.5) * CELL, M + (sq.row - 0.5) * CELL];

/** armyLabel is an army's text alternative: name, rank, side and square. */
export function armyLabel(a) {
  return `${a.name}, ${rankName(a.rank, a.side)} of ${sideName(a.side)}, at ${a.at}`;
}

function marker(side, x, y, r) {
  if (side === 'phyrexia') return s('path', { d: `M${x},${y - r * 1.2}L${x + r * 1.2},${y}L${x},${y + r * 1.2}L${x - r * 1.2},${y}Z` });
  if (side === 'mercenary') return s('path', { d: `M${x},${y - r * 1.15}L${x + r * 1.1},${y + r * 0.85}L${x - r * 1.1},${y + r * 0.85}Z` });
  return s('circle', { cx: x, cy: y, r });
}

/**
 * battlesOf are the battles fought in a map's turn: those the map lists, and any square where
 * enemies stand together as the turn opened (a battle the server works out when it settles).
 */
export function battlesOf(view) {
  const fought = [...(view.battles || [])];
  const here = new Map();
  for (const a of view.armies || []) here.set(a.at, [...(here.get(a.at) || []), a]);
  for (const [square, armies] of here) {
    if (new Set(armies.map((a) => a.side)).size > 1 && !fought.some((b) => b.square === square)) {
      fought.push({ square, armies: armies.map((a) => a.name).sort(), kind: 'meeting' });
    }
  }
  return fought;
}

/** MapDrawer draws map views into an element and reports clicks on armies and squares. */
export class MapDrawer {
  /**
   * @param root the element to draw in (it scrolls when the map is larger than it)
   * @param on {army(name, event), square(square, armyName, event), hover(text)}
   */
  constructor(root, on) {
    this.root = root;
    this.on = on;
    this.zoomLevel = null; // fitted to a wide frame, natural size (scrolling) on a narrow one
    this.selected = '';
    this.orders = [];
    this.view = null;
  }

  /** draw shows a map view: its terrain, sites, armies, and its moves and battles. */
  draw(view) {
    this.view = view;
    const cols = view.grid.cols, rows = view.grid.rows;
    const W = M + cols * CELL + 2, H = M + rows * CELL + 2;
    this.size = [W, H];
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${H}`, class: 'map', role: 'group',
      'aria-label': `Map of turn ${view.turn}: ${cols} columns, rows A to ${ROWS[rows - 1]}`,
    });
    svg.append(this.defs());
    const terrain = s('g', { class: 'terrain', 'aria-hidden': 'true' });
    for (let r = 1; r <= rows; r++) {
      for (let c = 1; c <= cols; c++) {
        const t = (view.terrain[r - 1] || [])[c - 1] || 'plains';
        terrain.append(s('rect', { x: M + (c - 1) * CELL, y: M + (r - 1) * CELL, width: CELL, height: CELL, fill: (TERRAIN[t] || TERRAIN.plains)[1], 'data-sq': squareName(c, r), 'data-t': t }));
      }
    }
    const labels = s('g', { class: 'labels', 'aria-hidden': 'true' });
    for (let c = 1; c <= cols; c++) labels.append(s('text', { x: M + (c - 0.5) * CELL, y: M - 7, 'text-anchor': 'middle' }, String(c)));
    for (let r = 1; r <= rows; r++) labels.append(s('text', { x: M / 2, y: M + (r - 0.5) * CELL + 4, 'text-anchor': 'middle' }, ROWS[r - 1]));
    this.reachLayer = s('g', { class: 'reach', 'aria-hidden': 'true' });
    svg.append(terrain, this.reachLayer, labels, this.sites(view.sites || []), this.battles(view), this.moves(view));
    this.overlay = s('g', { class: 'orders', 'aria-hidden': 'true' });
    svg.append(this.overlay, this.armies(view.armies || []));
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#' + this.root.id + ' .army');
    this.svg = svg;
    this.listen(svg);
    this.root.replaceChildren(svg);
    if (focused) this.focusArmy(focused.dataset.army); // a redraw keeps the keyboard's place
    this.applyZoom();
    this.drawOrders();
    this.drawReach();
    this.select(this.selected);
  }

  /** setReach shades the squares an army can reach and marks those an order would be refused for: [{square, status, reason, legs}]. */
  setReach(squares) {
    this.reach = squares || [];
    this.drawReach();
  }

  drawReach() {
    if (!this.reachLayer) return;
    this.reachLayer.replaceChildren();
    const t = (sq) => (this.view.terrain[sq.row - 1] || [])[sq.col - 1] || 'plains';
    for (const r of this.reach || []) {
      const sq = parseSquare(r.square);
      if (!sq) continue;
      const cls = r.status === 'rejected' ? 'bad' : r.status === 'keyword' ? 'kw' : r.legs > 1 ? 'far' : 'ok';
      this.reachLayer.append(s('rect', {
        x: M + (sq.col - 1) * CELL + 1, y: M + (sq.row - 1) * CELL + 1, width: CELL - 2, height: CELL - 2,
        class: `reach-sq ${cls}`, 'data-sq': r.square, 'data-t': t(sq), 'data-reach': cls,
      }, s('title', {}, this.reachText(r))));
    }
  }

  /** reachText says what an order to a square would meet: accepted, a warning, or refused and why. */
  reachText(r) {
    const when = r.legs > 1 ? 'next turn, by a long move (M14)' : 'this turn';
    if (r.status === 'rejected') return `${r.square}: an order would be refused — ${r.reason}${r.code ? ` (${r.code})` : ''}`;
    if (r.status === 'keyword') return `${r.square}: reachable ${when} only with a keyword; a plain order would be refused — ${r.reason} (${r.code})`;
    return `${r.square}: reachable ${when}${r.status === 'warning' ? ` — ${r.reason}` : ''}`;
  }

  defs() {
    const defs = s('defs');
    const colors = { ...Object.fromEntries(Object.entries(SIDE).map(([k, v]) => [k, v[1]])), ...STATUS };
    for (const [k, c] of Object.entries(colors)) {
      defs.append(s('marker', { id: `head-${k}`, viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' },
        s('path', { d: 'M0,0L10,5L0,10Z', fill: c })));
    }
    return defs;
  }

  sites(sites) {
    const g = s('g', { class: 'sites' });
    for (const site of sites) {
      const sq = parseSquare(site.at);
      if (!sq) continue;
      const key = site.kind === 'base' ? site.color || 'colorless' : site.kind;
      const [what, color] = SITE[key] || SITE.town;
      const x = M + (sq.col - 1) * CELL + 3, y = M + (sq.row - 1) * CELL + 3, w = CELL - 6;
      const label = `${site.name}: ${what}${site.win_condition ? ', a win condition' : ''}${site.destroyed ? ', destroyed' : ''}, at ${site.at}`;
      g.append(s('g', { class: `site ${site.kind}${site.destroyed ? ' destroyed' : ''}` },
        s('title', {}, label),
        s('rect', { x, y, width: w, height: w, fill: 'none', stroke: '#000', 'stroke-width': 4.5, opacity: 0.55 }),
        s('rect', { x, y, width: w, height: w, fill: 'none', stroke: color, 'stroke-width': 3, 'stroke-dasharray': site.kind === 'town' ? '4 2' : null }),
        site.destroyed ? s('path', { d: `M${x},${y}L${x + w},${y + w}M${x + w},${y}L${x},${y + w}`, stroke: color, 'stroke-width': 2 }) : null));
    }
    return g;
  }

  armies(armies) {
    const g = s('g', { class: 'armies' });
    const bySquare = new Map();
    for (const a of armies) {
      if (!bySquare.has(a.at)) bySquare.set(a.at, []);
      bySquare.get(a.at).push(a);
    }
    for (const [at, here] of bySquare) {
      const sq = parseSquare(at);
      if (!sq) continue;
      const [cx, cy] = center(sq);
      // One army fills its square; two share it at half size (1.2); more take a quarter each.
      const q = CELL / 4;
      const spots = here.length === 1 ? [[cx, cy, CELL * 0.3]]
        : here.length === 2 ? [[cx - q, cy, CELL * 0.18], [cx + q, cy, CELL * 0.18]]
          : [[cx - q, cy - q, CELL * 0.15], [cx + q, cy - q, CELL * 0.15], [cx - q, cy + q, CELL * 0.15], [cx + q, cy + q, CELL * 0.15]];
      here.forEach((a, i) => {
        const [x, y, r] = spots[Math.min(i, spots.length - 1)];
        const label = armyLabel(a);
        const mark = marker(a.side, x, y, r);
        mark.setAttribute('fill', (SIDE[a.side] || SIDE.neutral)[1]);
        mark.setAttribute('class', 'mark');
        const m = s('g', { class: `army ${a.side}`, tabindex: 0, role: 'button', 'aria-label': label, 'data-army': a.name, 'data-sq': a.at },
          s('title', {}, label),
          s('circle', { class: 'ring', cx: x, cy: y, r: r + 3.5 }),
          mark,
          // the name under the marker, shown once the map is zoomed in far enough to read it
          s('text', { class: 'army-name', x, y: y + r + 4.2, 'text-anchor': 'middle', 'aria-hidden': 'true' }, shortName(a.name)));
        g.append(m);
      });
    }
    return g;
  }

  arrow(points, color, opts = {}) {
    const pts = points.map(center);
    if (pts.length < 2) return null;
    return s('polyline', {
      points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: STATUS[color] || (SIDE[color] || SIDE.neutral)[1],
      'stroke-width': opts.width || 2.5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'marker-end': `url(#head-${color})`,
      'stroke-dasharray': opts.dashed ? '5 3' : null, class: opts.class || null,
    }, opts.title ? s('title', {}, opts.title) : null);
  }

  moves(view) {
    const g = s('g', { class: 'moves' });
    const side = new Map((view.armies || []).map((a) => [a.name, a.side]));
    for (const mv of view.moves || []) {
      const pts = [mv.from, ...(mv.route && mv.route.length ? mv.route : [mv.to])].map(parseSquare).filter(Boolean);
      const what = `${mv.army} moved ${mv.from} to ${mv.to}${mv.partial ? ' (cut short)' : ''}${mv.intercepted ? ' (intercepted)' : ''}`;
      g.append(this.arrow(pts, side.get(mv.army) || 'neutral', { dashed: mv.partial || mv.intercepted, title: what, class: 'move' }));
    }
    return g;
  }

  battles(view) {
    const g = s('g', { class: 'battles' });
    const ring = (b, cls, color, dash) => {
      const sq = parseSquare(b.square);
      if (!sq) return;
      const [x, y] = center(sq);
      const r = CELL * 0.5;
      g.append(s('g', { class: cls },
        s('title', {}, `${cls === 'battle' ? 'Battle' : 'Battle announced for the next turn'} at ${b.square} (${b.kind}): ${(b.armies || []).join(' vs ')}`),
        s('circle', { cx: x, cy: y, r, fill: 'none', stroke: color, 'stroke-width': 2.5, 'stroke-dasharray': dash }),
        s('path', { d: `M${x - r * 0.9},${y - r * 0.9}l${r * 0.45},${r * 0.45}M${x + r * 0.9},${y - r * 0.9}l${-r * 0.45},${r * 0.45}`, stroke: color, 'stroke-width': 2 })));
    };
    for (const b of battlesOf(view)) ring(b, 'battle', '#c0262d', null);
    for (const b of view.announced || []) ring(b, 'announced', '#e07b00', '4 3');
    return g;
  }

  /** setOrders shows the order desk's lines as arrows: [{squares: ["3D","5D"], status, title}]. */
  setOrders(lines) {
    this.orders = lines || [];
    this.drawOrders();
  }

  drawOrders() {
    if (!this.overlay) return;
    this.overlay.replaceChildren();
    for (const l of this.orders) {
      const a = this.arrow(l.squares.map(parseSquare).filter(Boolean), l.status || 'draft', { width: 3.5, dashed: l.status === 'draft', class: `order ${l.status || 'draft'}`, title: l.title });
      if (a) this.overlay.append(a);
    }
  }

  /** select marks an army as chosen ('' for none). */
  select(name) {
    this.selected = name || '';
    if (!this.svg) return;
    for (const el of this.svg.querySelectorAll('.army')) el.classList.toggle('selected', !!name && el.dataset.army === name);
  }

  /** focusArmy moves the keyboard focus to an army's marker. */
  focusArmy(name) {
    const el = [...(this.svg ? this.svg.querySelectorAll('.army') : [])].find((e) => e.dataset.army === name);
    if (el) el.focus();
  }

  listen(svg) {
    svg.addEventListener('click', (e) => {
      const army = e.target.closest('.army');
      const sq = army ? army.dataset.sq : e.target.dataset && e.target.dataset.sq;
      if (sq || army) this.on.square(sq, army ? army.dataset.army : '', e);
    });
    svg.addEventListener('keydown', (e) => {
      const army = e.target.closest && e.target.closest('.army');
      if (army && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        this.on.army(army.dataset.army, e);
      }
    });
    const hover = (e) => {
      const army = e.target.closest && e.target.closest('.army');
      const t = e.target.dataset && e.target.dataset.sq && !army ? e.target : null;
      if (army) this.on.hover(army.getAttribute('aria-label'), army);
      else if (t) this.on.hover(this.describeSquare(t.dataset.sq, t.dataset.t), null);
      else this.on.hover('', null);
    };
    svg.addEventListener('mouseover', hover);
    svg.addEventListener('focusin', hover);
    svg.addEventListener('mouseleave', () => this.on.hover('', null));
    svg.addEventListener('focusout', () => this.on.hover('', null));
  }

  describeSquare(sq, t) {
    const site = (this.view.sites || []).find((x) => x.at === sq);
    const r = (this.reach || []).find((x) => x.square === sq);
    return `${sq}: ${(TERRAIN[t] || [t])[0]}${site ? ' — ' + site.name : ''}${r ? '. ' + this.reachText(r).slice(sq.length + 2) : ''}`;
  }

  /** zoom multiplies the map's scale by f (0 fits it to the width of its frame). */
  zoom(f) {
    const now = this.zoomLevel ? this.zoomLevel : this.svg ? this.svg.getBoundingClientRect().width / this.size[0] : 1;
    this.zoomLevel = f === 0 ? 0 : Math.min(4, Math.max(0.3, now * f));
    this.applyZoom();
  }

  applyZoom() {
    if (!this.svg) return;
    if (this.zoomLevel === null) this.zoomLevel = this.root.clientWidth >= 600 ? 0 : 1;
    if (this.zoomLevel === 0) {
      this.svg.setAttribute('width', '100%');
      this.svg.removeAttribute('height');
    } else {
      this.svg.setAttribute('width', Math.round(this.size[0] * this.zoomLevel));
      this.svg.setAttribute('height', Math.round(this.size[1] * this.zoomLevel));
    }
    // the armies' names show when a square is drawn at least 40 pixels wide
    const scale = this.svg.getBoundingClientRect().width / this.size[0];
    this.svg.classList.toggle('named', scale * CELL >= 40);
  }
}

/** shortName is an army's name cut to fit under its marker. */
function shortName(name) {
  return name.length > 12 ? name.slice(0, 11) + '…' : name;
}

/** legend is the key to the map's colours and signs. */
export function legend() {
  const swatch = (...kids) => s('svg', { width: 22, height: 22, viewBox: '0 0 22 22', 'aria-hidden': 'true' }, ...kids);
  const item = (sw, text) => h('li', {}, sw, ' ', text);
  const box = (color, dash) => swatch(s('rect', { x: 3, y: 3, width: 16, height: 16, fill: '#ebe3b4', stroke: '#000', 'stroke-width': 4.5, opacity: 0.55 }),
    s('rect', { x: 3, y: 3, width: 16, height: 16, fill: 'none', stroke: color, 'stroke-width': 3, 'stroke-dasharray': dash }));
  const armies = Object.entries(SIDE).filter(([k]) => k !== 'neutral').map(([k, [, color]]) => {
    const m = marker(k, 11, 11, 7);
    m.setAttribute('fill', color);
    return item(swatch(m), { coalition: 'Coalition army', phyrexia: 'Phyrexian army', mercenary: 'Mercenary army' }[k]);
  });
  return [
    h('h3', {}, 'Terrain'),
    h('ul', { class: 'legend' }, Object.values(TERRAIN).map(([name, color]) => item(swatch(s('rect', { width: 22, height: 22, fill: color })), name))),
    h('h3', {}, 'Sites (hollow squares)'),
    h('ul', { class: 'legend' }, Object.entries(SITE).filter(([k]) => k !== 'artifact').map(([k, [name, color]]) => item(box(color, k === 'town' ? '4 2' : null), name))),
    h('h3', {}, 'Armies and turns'),
    h('ul', { class: 'legend' }, armies,
      item(swatch(s('circle', { cx: 6, cy: 11, r: 4, fill: SIDE.coalition[1] }), s('circle', { cx: 16, cy: 11, r: 4, fill: SIDE.phyrexia[1] })), 'Two armies on one square, at half size'),
      item(swatch(s('path', { d: 'M2,11H17', stroke: '#333', 'stroke-width': 2.5 }), s('path', { d: 'M14,7L20,11L14,15Z', fill: '#333' })), 'A move of the turn shown'),
      item(swatch(s('circle', { cx: 11, cy: 11, r: 8, fill: 'none', stroke: '#c0262d', 'stroke-width': 2.5 })), 'A battle fought this turn'),
      item(swatch(s('circle', { cx: 11, cy: 11, r: 8, fill: 'none', stroke: '#e07b00', 'stroke-width': 2.5, 'stroke-dasharray': '4 3' })), 'A battle announced for the next turn')),
  ];
}
