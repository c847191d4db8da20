// Small helpers shared by the pages: DOM builders that never parse HTML (names and orders
// come from players), time formatting, names compared as the server compares them.

const SVG = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h builds an HTML element: h('button', {class: 'x', onclick: f}, 'label'). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** s builds an SVG element. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

/** $ finds one element. */
export const $ = (sel, root = document) => root.querySelector(sel);

/** sameName compares names as domain.SameName does: case and runs of spaces do not count. */
export function sameName(a, b) {
  const k = (x) => String(x || '').trim().replace(/\s+/g, ' ').toLowerCase();
  return k(a) === k(b);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n) => String(n).padStart(2, '0');

/** utc writes a time in UTC, as the game's deadlines are given: "Mon 30 Nov 2026 05:00 UTC". */
export function utc(t) {
  if (!t) return '';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** zone is the reader's time zone as a short name ("CET", "GMT+2"), or "" when the browser does not say. */
function zone(d) {
  try {
    const part = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName');
    return part ? part.value : '';
  } catch {
    return '';
  }
}

/** when writes a time in the reader's time zone: "Mon 30 Nov 2026 06:00 CET" (utc gives it in UTC). */
export function when(t) {
  if (!t) return '';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  return `${DAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())} ${zone(d)}`.trim();
}

/** at is a <time> element: the time in the reader's zone, UTC on hover. */
export function at(t) {
  if (!t) return '';
  return build(document.createElement('time'), { datetime: t, title: utc(t) }, [when(t)]);
}

/** span writes a duration in days, hours and minutes: "1 d 4 h 12 min". */
export function span(ms) {
  const m = Math.floor(Math.abs(ms) / 60000);
  const d = Math.floor(m / 1440), hr = Math.floor((m % 1440) / 60), min = m % 60;
  const parts = [];
  if (d) parts.push(`${d} d`);
  if (d || hr) parts.push(`${hr} h`);
  parts.push(`${min} min`);
  return parts.join(' ');
}

/** debounce calls f once the calls have paused for ms. */
export function debounce(f, ms) {
  let t;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => f(...args), ms);
  };
}

const RANKS = {
  general: ['General', 'Chief Praetor'], admiral: ['Admiral', 'Praetor'], captain: ['Captain', 'Evincar'],
  commander: ['Commander', 'Plaguelord'], 'lt-commander': ['Lt. Commander', 'CPL'], lieutenant: ['Lieutenant', 'Centurion'],
  cadet: ['Cadet', 'Drudge'],
};

/** rankName is a rank's title on the army's side (1.1.1, 1.1.2). */
export function rankName(rank, side) {
  const r = RANKS[rank];
  if (!r) return rank || '';
  return side === 'phyrexia' ? r[1] : r[0];
}

/** sideName is a side's title. */
export function sideName(side) {
  return { coalition: 'the Coalition', phyrexia: 'Phyrexia', mercenary: 'the mercenaries', neutral: 'nobody' }[side] || side;
}

/** clear empties an element and fills it again. */
export function fill(el, ...children) {
  el.replaceChildren();
  return build(el, {}, children);
}
