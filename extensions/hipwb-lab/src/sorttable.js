// Sortable hipwb tables (workbench/widgets/table_view.py marks a long table
// <table class="hipwb-sortable">): a click on a column header sorts the rows by that column,
// numbers as numbers, a second click reverses. Done here for the reason isalink.js gives: the
// view's HTML carries no script (nbval compares it; saved outputs are untrusted).

function cellValue(row, col) {
  const cell = row.cells[col];
  const text = cell ? cell.textContent.trim() : '';
  const num = parseFloat(text.replace(/,/g, '').replace(/[%x]$/, ''));
  return { text, num: Number.isNaN(num) ? null : num };
}

export function sortTable(table, col) {
  const rows = Array.from(table.rows);
  const header = rows.shift();
  const dir = table.dataset.hipwbSortCol === String(col) && table.dataset.hipwbSortDir === 'asc'
    ? 'desc' : 'asc';
  const sign = dir === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const x = cellValue(a, col);
    const y = cellValue(b, col);
    if (x.num !== null && y.num !== null) {
      return sign * (x.num - y.num);
    }
    return sign * x.text.localeCompare(y.text, undefined, { numeric: true });
  });
  const parent = header.parentNode;
  for (const r of rows) {
    parent.appendChild(r);
  }
  table.dataset.hipwbSortCol = String(col);
  table.dataset.hipwbSortDir = dir;
  for (const th of Array.from(header.cells)) {
    th.classList.remove('hipwb-sorted-asc', 'hipwb-sorted-desc');
  }
  header.cells[col].classList.add(`hipwb-sorted-${dir}`);
}

export function installSortableTables(doc) {
  doc.addEventListener('click', event => {
    const th = event.target.closest && event.target.closest('table.hipwb-sortable th');
    if (!th) {
      return;
    }
    const table = th.closest('table');
    const header = table.rows[0];
    if (!header || th.parentNode !== header) {
      return;
    }
    sortTable(table, Array.from(header.cells).indexOf(th));
  });
}
