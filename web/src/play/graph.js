// The evaluation graph after the game, as lichess draws it: White's winning chances (0-100 %) after each
// ply, White's area below the line; a dot on each graded move in its grade's colour; the move shown
// marked. A click anywhere goes to the nearest ply.
const WIDTH = 600;
const HEIGHT = 100;
const MARGIN = 6; // room for the first and last moves' dots
const SVG = 'http://www.w3.org/2000/svg';

const element = (name, attributes) => {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  return made;
};

// `percents`: White's winning chances at each ply (0 = the start; null where not yet known); `grades`: the
// grade of the move that led to each ply (or null); `ply`: the one shown; `goTo(ply)` on a click.
export function drawGraph(box, { percents, grades, ply, goTo }) {
  const last = Math.max(1, percents.length - 1);
  const x = (i) => MARGIN + (i / last) * (WIDTH - 2 * MARGIN);
  const y = (percent) => HEIGHT - (percent / 100) * HEIGHT;
  const known = percents.map((p, i) => [i, p]).filter(([, p]) => p !== null);
  const svg = element('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img',
    'aria-label': 'evaluation graph: click a point to see that move' });
  svg.append(element('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: 'black-area' }));
  if (known.length) {
    const line = known.map(([i, p]) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
    const first = x(known[0][0]).toFixed(1);
    const end = x(known[known.length - 1][0]).toFixed(1);
    svg.append(element('polygon', { points: `${first},${HEIGHT} ${line} ${end},${HEIGHT}`, class: 'white-area' }));
    svg.append(element('polyline', { points: line, class: 'line' }));
  }
  svg.append(element('line', { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: 'middle' }));
  svg.append(element('line', { x1: x(ply), x2: x(ply), y1: 0, y2: HEIGHT, class: 'shown' }));
  grades.forEach((grade, i) => {
    if (grade && percents[i] !== null) {
      svg.append(element('circle', { cx: x(i), cy: y(percents[i]), r: 4, class: `dot ${grade}`, 'data-ply': i }));
    }
  });
  svg.addEventListener('click', (event) => {
    const bounds = svg.getBoundingClientRect();
    const at = ((event.clientX - bounds.left) / bounds.width) * WIDTH;
    goTo(Math.max(0, Math.min(last, Math.round(((at - MARGIN) / (WIDTH - 2 * MARGIN)) * last))));
  });
  box.replaceChildren(svg);
  box.hidden = false;
}
