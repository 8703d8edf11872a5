// hipwb's ISA view (workbench/widgets/isa_view.py) prints a <pre> in which a
// <span class="src">; line N: ...</span> marker precedes the instructions compiled from line N.
// Clicking a marker highlights every instruction of that line (all its runs: the scheduler
// interleaves lines) and clicking an instruction highlights its line's marker(s) and siblings.
// Done here, not in the view's HTML, because the view's HTML is static (no scripts: nbval
// compares it and GitHub/nbviewer render it as is) and outputs restored from a saved notebook
// are untrusted, so an inline script would not run; the extension works on any rendering of
// the view, new or saved.

const LINE_RE = /^; line (\d+):?/;
const INLINED_RE = /^; inlined from (.*)$/;

function keyOf(marker) {
  const text = marker.textContent || '';
  let m = LINE_RE.exec(text);
  if (m) {
    return 'L' + m[1];
  }
  m = INLINED_RE.exec(text);
  return m ? 'F' + m[1] : null;
}

function isIsaPre(pre) {
  const first = pre.querySelector(':scope > span.src');
  return !!first && keyOf(first) !== null;
}

/** Wrap each instruction line of an ISA <pre> in a span tagged with its source key. */
export function linkify(pre) {
  if (pre.dataset.hipwbLinked) {
    return;
  }
  pre.dataset.hipwbLinked = '1';
  let key = null;
  for (const node of Array.from(pre.childNodes)) {
    if (node.nodeType === Node.ELEMENT_NODE && node.classList.contains('src')) {
      key = keyOf(node);
      if (key) {
        node.dataset.hipwbKey = key;
        node.classList.add('hipwb-link');
      }
      continue;
    }
    if (node.nodeType !== Node.TEXT_NODE || key === null) {
      continue;
    }
    const frag = document.createDocumentFragment();
    const parts = node.textContent.split('\n');
    parts.forEach((part, i) => {
      if (part.trim()) {
        const span = document.createElement('span');
        span.className = 'hipwb-ins hipwb-link';
        span.dataset.hipwbKey = key;
        span.textContent = part;
        frag.appendChild(span);
      } else if (part) {
        frag.appendChild(document.createTextNode(part));
      }
      if (i < parts.length - 1) {
        frag.appendChild(document.createTextNode('\n'));
      }
    });
    pre.replaceChild(frag, node);
  }
}

/** Select everything in `pre` that comes from `key`; clicking the selected key again clears. */
export function select(pre, key) {
  const again = pre.dataset.hipwbSelected === key;
  for (const e of pre.querySelectorAll('.hipwb-sel')) {
    e.classList.remove('hipwb-sel');
  }
  if (again) {
    delete pre.dataset.hipwbSelected;
    return 0;
  }
  pre.dataset.hipwbSelected = key;
  let n = 0;
  for (const e of pre.querySelectorAll('[data-hipwb-key]')) {
    if (e.dataset.hipwbKey === key) {
      e.classList.add('hipwb-sel');
      n += e.classList.contains('hipwb-ins') ? 1 : 0;
    }
  }
  return n;
}

/** Install the delegated listeners on `root` (the document). */
export function installIsaLinks(root) {
  const prep = event => {
    const pre = event.target.closest && event.target.closest('.hipwb pre');
    if (pre && !pre.dataset.hipwbLinked && isIsaPre(pre)) {
      linkify(pre);
    }
  };
  root.addEventListener('pointerover', prep, true);
  root.addEventListener(
    'click',
    event => {
      prep(event);
      const item = event.target.closest && event.target.closest('.hipwb pre [data-hipwb-key]');
      if (item) {
        select(item.closest('pre'), item.dataset.hipwbKey);
      }
    },
    true
  );
}
