// Matrix-core builtin documentation from hipwb's layout catalog (src/builtins.json is written by
// `python -m workbench.layouts.builtin_docs`; tests/test_lab_extension.py keeps it in sync).
// Every text shown here is written by that generator (`doc`, `table`, `notes`): this file only
// lays it out, so what the catalog does not know is left out instead of printed as "null"
// (tests/layouts/test_builtin_docs.py checks the shipped data).
import { hoverTooltip } from '@codemirror/view';
import BUILTINS from './builtins.json';

export { BUILTINS };

const PREFIX_RE = /__builtin_amdgcn_(mfma|wmma|smfmac|swmmac)\w*/;

/** Plain-text documentation of one builtin (for the completer's documentation panel). */
export function builtinText(name) {
  const b = BUILTINS[name];
  return b ? b.doc : '';
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) {
    e.className = cls;
  }
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}

/** The hover card of one builtin: signature, one row per arch/wave size, then the sources. */
export function builtinCard(name) {
  const b = BUILTINS[name];
  const dom = el('div', 'hipwb-builtin-doc');
  dom.appendChild(el('div', 'hipwb-builtin-sig', b.signature));
  const table = el('table');
  const head = el('tr');
  for (const h of b.table.head) {
    head.appendChild(el('th', '', h));
  }
  table.appendChild(head);
  for (const cells of b.table.rows) {
    const row = el('tr');
    for (const c of cells) {
      row.appendChild(el('td', '', c));
    }
    table.appendChild(row);
  }
  dom.appendChild(table);
  for (const note of b.notes) {
    dom.appendChild(el('div', 'hipwb-builtin-src', note));
  }
  return dom;
}

/** Hover docs for any catalog builtin under the pointer (HIP cells only: part of their
 * language support). */
export const builtinHover = hoverTooltip((view, pos) => {
  const word = view.state.wordAt(pos);
  if (!word) {
    return null;
  }
  const name = view.state.sliceDoc(word.from, word.to);
  if (!BUILTINS[name]) {
    return null;
  }
  return {
    pos: word.from,
    end: word.to,
    above: true,
    create: () => ({ dom: builtinCard(name) })
  };
});

/** Completion items for a prefix ending at the cursor (`__builtin_amdgcn_m...`, `__bui...`). */
export function completeBuiltin(text, offset) {
  const m = /[A-Za-z_]\w*$/.exec(text.slice(0, offset));
  if (!m || !m[0].startsWith('__b')) {
    return null;
  }
  const prefix = m[0];
  const items = Object.keys(BUILTINS)
    .filter(n => n.startsWith(prefix) && PREFIX_RE.test(n))
    .map(n => ({ label: n, insertText: n, type: 'builtin', documentation: builtinText(n) }));
  if (!items.length) {
    return null;
  }
  return { start: offset - prefix.length, end: offset, items };
}
