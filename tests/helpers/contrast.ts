// A colour-contrast check that does not rely on axe (issue 24, must-show 2): every visible text
// node of the page is measured against the background it is actually painted on, and every
// bordered control's boundary against what surrounds it. The WCAG 2.x formula (relative
// luminance of linearised sRGB, (L1 + 0.05) / (L2 + 0.05)) is written here: it is ten lines,
// and the libraries that carry it would still need the page-side background walk below.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** One element whose contrast is too low. */
export interface ContrastFailure {
  /** "text" for a text node, "border" for a control's boundary. */
  kind: 'text' | 'border';
  /** A short path to the element (tag, test id, classes). */
  where: string;
  /** The text (its first 40 characters), or the control's label. */
  text: string;
  fg: string;
  bg: string;
  ratio: number;
  /** What it needed: 4.5, or 3 for large text and borders. */
  needed: number;
}

/** What `contrastFailures` measured: how many checks ran, and what failed. */
export interface ContrastReport {
  texts: number;
  borders: number;
  failures: ContrastFailure[];
}

// Runs in the page (a string: the tests compile without DOM types). Colours go through a 2D
// canvas to read any CSS colour as sRGB; backgrounds are composited from the element's own
// paint stack (elementsFromPoint at the text's centre, from the element down), so a popover or
// a sibling painted behind counts, not only ancestors; opacity on the way multiplies the
// foreground's alpha. Disabled controls are left out (WCAG exempts inactive components), as are
// MCP App views (other origins: the servers' UI, not ours).
const MEASURE = `((rootSelector) => {
  const root = rootSelector ? document.querySelector(rootSelector) : document.body;
  if (!root) throw new Error('contrast: nothing matches ' + rootSelector);
  const canvas = document.createElement('canvas').getContext('2d');
  const parse = (css) => {
    canvas.fillStyle = '#000';
    canvas.fillStyle = css;
    const v = canvas.fillStyle;
    if (v.startsWith('#')) return [parseInt(v.slice(1, 3), 16), parseInt(v.slice(3, 5), 16), parseInt(v.slice(5, 7), 16), 1];
    const m = /rgba?\\(([^)]+)\\)/.exec(v);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(',').map((x) => parseFloat(x));
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const lum = (c) => {
    const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const css = (c) => 'rgb(' + c.slice(0, 3).map((v) => Math.round(v)).join(' ') + (c[3] < 1 ? ' / ' + c[3].toFixed(2) : '') + ')';
  const pageBg = () => {
    const b = parse(getComputedStyle(document.body).backgroundColor);
    const h = parse(getComputedStyle(document.documentElement).backgroundColor);
    const canvasColor = matchMedia('(prefers-color-scheme: dark)').matches && getComputedStyle(document.documentElement).colorScheme.includes('dark') ? [18, 18, 18, 1] : [255, 255, 255, 1];
    return over(b, over(h, canvasColor));
  };
  // The colour painted behind \`el\` at (x, y): its own background and everything below it.
  const backdrop = (el, x, y, includeSelf) => {
    let stack = document.elementsFromPoint(x, y);
    let i = stack.indexOf(el);
    if (i < 0) { stack = []; for (let e = el; e; e = e.parentElement) stack.push(e); i = 0; }
    if (!includeSelf) i += 1;
    const layers = [];
    for (const e of stack.slice(i)) {
      const s = getComputedStyle(e);
      if (s.backgroundImage && s.backgroundImage !== 'none' && !s.backgroundImage.startsWith('url(')) return null;
      const c = parse(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = pageBg();
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  const path = (el) => {
    const parts = [];
    for (let e = el; e && parts.length < 3 && e !== document.body; e = e.parentElement) {
      const id = e.getAttribute('data-testid');
      parts.unshift(e.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + (e.classList.length ? '.' + [...e.classList].slice(0, 2).join('.') : ''));
    }
    return parts.join(' > ');
  };
  const inactive = (el) => el.closest('button:disabled, input:disabled, select:disabled, textarea:disabled, fieldset:disabled, [aria-disabled="true"], iframe, .visually-hidden');
  const visible = (el, r) =>
    r.width > 1 && r.height > 1 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth &&
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });
  const failures = [];
  let texts = 0, borders = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION'].includes(el.tagName) || inactive(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1);
    const r = rects.find((x) => x.bottom > 0 && x.top < innerHeight && x.right > 0 && x.left < innerWidth);
    if (!r || !visible(el, el.getBoundingClientRect())) continue;
    // A part scrolled out of its container is not seen either.
    const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const top = document.elementsFromPoint(cx, cy)[0];
    if (!top || !(top === el || el.contains(top) || top.contains(el))) continue;
    const s = getComputedStyle(el);
    const bg = backdrop(el, cx, cy, true);
    if (!bg) continue;
    const raw = parse(s.color);
    const fg = over([raw[0], raw[1], raw[2], raw[3] * opacity(el)], bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    const q = ratio(fg, bg);
    texts++;
    if (q + 0.005 < needed) failures.push({ kind: 'text', where: path(el), text: text.slice(0, 40), fg: css(fg), bg: css(bg), ratio: Math.round(q * 100) / 100, needed });
  }
  for (const el of root.querySelectorAll('button, input, select, textarea, [role="button"]')) {
    if (inactive(el) || ['checkbox', 'radio', 'hidden', 'range', 'color', 'file'].includes(el.type)) continue;
    const r = el.getBoundingClientRect();
    if (!visible(el, r)) continue;
    const s = getComputedStyle(el);
    const widths = ['Top', 'Right', 'Bottom', 'Left'].map((side) => s['border' + side + 'Style'] === 'none' ? 0 : parseFloat(s['border' + side + 'Width']));
    const border = parse(s.borderTopColor);
    if (Math.max(...widths) <= 0 || border[3] === 0) continue;
    // Measured just inside the control's top-left edge: what surrounds it is what lies below it.
    const x = Math.min(Math.max(r.left + 1, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + 1, 0), innerHeight - 1);
    const outside = backdrop(el, x, y, false);
    if (!outside) continue;
    const fill = over(parse(s.backgroundColor), outside);
    const edge = over([border[0], border[1], border[2], border[3] * opacity(el)], outside);
    // The control's boundary shows if its border or its own fill stands out from its surroundings.
    const q = Math.max(ratio(edge, outside), ratio(fill, outside));
    borders++;
    if (q + 0.005 < 3) failures.push({ kind: 'border', where: path(el), text: (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').trim().slice(0, 40), fg: css(edge), bg: css(outside), ratio: Math.round(q * 100) / 100, needed: 3 });
  }
  return { texts, borders, failures };
})`;

/** Measures every visible text node and bordered control of the page (or of the element `within` selects). */
export function contrastReport(p: Page, within?: string): Promise<ContrastReport> {
  return p.evaluate<ContrastReport>(`${MEASURE}(${JSON.stringify(within ?? null)})`);
}

/** One line per failure: what, where, the colours and the ratio against what it needed. */
export function describeFailures(failures: readonly ContrastFailure[]): string {
  return failures
    .map((f) => `    ${f.kind} ${f.ratio}:1 < ${f.needed}:1  ${f.where}  "${f.text}"  (${f.fg} on ${f.bg})`)
    .join('\n');
}

/** Fails when any visible text or control boundary of the page is below its WCAG contrast minimum. */
export async function assertContrast(p: Page, where: string, within?: string): Promise<ContrastReport> {
  const report = await contrastReport(p, within);
  assert.ok(report.texts > 0, `${where}: the contrast check found no visible text`);
  assert.equal(
    report.failures.length,
    0,
    `contrast on ${where}: ${report.failures.length} of ${report.texts} texts and ${report.borders} controls too faint\n${describeFailures(report.failures.slice(0, 40))}`,
  );
  return report;
}
