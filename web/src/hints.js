// Notebook 03's hint table as a Jupyter widget (anywidget; the Python side is Util/notebook/hint_widget.py): every
// legal move best first, coloured by its result for the side that plays it; a click (or Enter) on a row
// sets `chosen` to the move's UCI, which Python plays and then clears. Bundled by scripts/setup.sh.
import './hints.css';

function render({ model, el }) {
  const table = document.createElement('table');
  table.className = 'chessai-hints';
  el.append(table);
  const draw = () => {
    table.replaceChildren();
    const rows = model.get('rows');
    table.hidden = !rows.length;
    if (!rows.length) return;
    const head = document.createElement('tr');
    for (const text of ['move', model.get('heading')]) {
      const cell = document.createElement('th');
      cell.textContent = text;
      head.append(cell);
    }
    table.append(head);
    for (const { uci, san, outcome, result } of rows) {
      const row = document.createElement('tr');
      row.className = result;
      row.dataset.uci = uci;
      row.tabIndex = 0;
      row.title = `play ${san}`;
      for (const text of [san, outcome]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        row.append(cell);
      }
      const play = () => {
        model.set('chosen', uci);
        model.save_changes();
      };
      row.addEventListener('click', play);
      row.addEventListener('keydown', (event) => event.key === 'Enter' && play());
      table.append(row);
    }
  };
  draw();
  model.on('change:rows', draw);
  model.on('change:heading', draw);
  return () => {
    model.off('change:rows', draw);
    model.off('change:heading', draw);
  };
}

export default { render };
