// Matrix-core builtin documentation from hipwb's layout catalog (src/builtins.json is written by
// `python -m workbench.layouts.builtin_docs`; tests/test_lab_extension.py keeps it in sync).
import { hoverTooltip } from '@codemirror/view';
import BUILTINS from './builtins.json';

export { BUILTINS };

const PREFIX_RE = /__builtin_amdgcn_(mfma|wmma|smfmac)\w*/;

/** Plain-text documentation of one builtin (for the completer's documentation panel). */
export function builtinText(name) {
  const b = BUILTINS[name];
  if (!b) {
    return '';
  }
  const lines = [b.signature, ''];
  for (const v of b.variants) {
    const t = v.types;
    lines.push(
      `${v.arch} wave${v.wave_size}: ${v.instruction}  ${v.shape}  ` +
        `D:${t.D} = A:${t.A} x B:${t.B} + C:${t.C}  ` +
        `VGPRs A ${v.vgprs.A} B ${v.vgprs.B} C/D ${v.vgprs.C}  ` +
        `${v.cycles} cycles (${v.passes} passes)`
    );
  }
  const v0 = b.variants[0];
  lines.push('', `cycles: ${v0.timing_source}; layouts: ${v0.source}`);
  return lines.join('\n');
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

/** The hover card of one builtin: signature, then one row per arch/wave size. */
export function builtinCard(name) {
  const b = BUILTINS[name];
  const dom = el('div', 'hipwb-builtin-doc');
  dom.appendChild(el('div', 'hipwb-builtin-sig', b.signature));
  const table = el('table');
  const head = el('tr');
  for (const h of ['arch', 'instruction', 'M×N×K', 'D = A·B + C', 'VGPRs A/B/C', 'cycles']) {
    head.appendChild(el('th', '', h));
  }
  table.appendChild(head);
  for (const v of b.variants) {
    const t = v.types;
    const row = el('tr');
    for (const c of [
      `${v.arch} w${v.wave_size}`,
      v.instruction,
      v.shape,
      `${t.D} = ${t.A}·${t.B} + ${t.C}`,
      `${v.vgprs.A}/${v.vgprs.B}/${v.vgprs.C}`,
      `${v.cycles} (${v.passes} passes)`
    ]) {
      row.appendChild(el('td', '', String(c)));
    }
    table.appendChild(row);
  }
  dom.appendChild(table);
  const v0 = b.variants[0];
  dom.appendChild(
    el('div', 'hipwb-builtin-src', `cycles: ${v0.timing_source}. Layouts: ${v0.source}.`)
  );
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
