// The "HIP cell" language: line 1 (the %%hipkernel / %%hipfile magic) is parsed by the
// notebook's Python parser, the rest by CodeMirror's C++ parser, so the body is highlighted as
// C++ and the magic line stays Python. HIP's own words (qualifiers, thread indices, builtins)
// are C++ identifiers to that parser; a decoration marks them on top.
import {
  Language,
  LanguageSupport,
  defineLanguageFacet,
  syntaxHighlighting
} from '@codemirror/language';
import { Decoration, MatchDecorator, ViewPlugin } from '@codemirror/view';
import { NodeType, Parser, Tree, parseMixed } from '@lezer/common';
import { classHighlighter } from '@lezer/highlight';

export const HIP_MIME = 'text/x-hipwb-cell';

// A cell whose first line is one of hipwb's cell magics (workbench/magics.py).
export const MAGIC_RE = /^%%(hipkernel|hipfile)\b/;

const TYPES = [
  NodeType.define({ id: 0, name: 'HipCell', top: true }),
  NodeType.define({ id: 1, name: 'MagicLine' }),
  NodeType.define({ id: 2, name: 'HipBody' })
];

// Splits the document into the magic line and the body; parseMixed mounts the real parsers.
class SplitParser extends Parser {
  createParse(input, fragments, ranges) {
    const from = ranges[0].from;
    const to = ranges[ranges.length - 1].to;
    return {
      parsedPos: from,
      stoppedAt: null,
      stopAt(pos) {
        this.stoppedAt = pos;
      },
      advance() {
        const text = input.read(from, to);
        const nl = text.indexOf('\n');
        const split = nl < 0 ? to : from + nl;
        const children = [new Tree(TYPES[1], [], [], split - from)];
        const positions = [0];
        if (split < to) {
          children.push(new Tree(TYPES[2], [], [], to - split - 1));
          positions.push(split + 1 - from);
        }
        this.parsedPos = to;
        return new Tree(TYPES[0], children, positions, to - from);
      }
    };
  }
}

class HipCellParser extends Parser {
  constructor(python, cpp) {
    super();
    this.inner = new SplitParser();
    this.wrap = parseMixed(node => {
      if (node.type === TYPES[1]) {
        return { parser: python };
      }
      if (node.type === TYPES[2]) {
        return { parser: cpp };
      }
      return null;
    });
  }
  createParse(input, fragments, ranges) {
    return this.wrap(this.inner.createParse(input, fragments, ranges), input, fragments, ranges);
  }
}

// HIP words that C++ does not know: qualifiers, launch bounds, thread/block indices and the
// barrier (HIP programming guide), plus any __builtin_amdgcn_* builtin (clang BuiltinsAMDGPU.def).
const HIP_WORDS =
  /\b(__global__|__device__|__host__|__shared__|__constant__|__managed__|__launch_bounds__|__restrict__|__forceinline__|__noinline__|__syncthreads|__threadfence|__threadfence_block|threadIdx|blockIdx|blockDim|gridDim|warpSize|hipLaunchKernelGGL)\b|\b(__builtin_amdgcn_\w+)\b/g;
const HIP_MARK = Decoration.mark({ class: 'cm-hipwb-hip' });
const BUILTIN_MARK = Decoration.mark({ class: 'cm-hipwb-builtin' });

const hipWords = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.matcher = new MatchDecorator({
        regexp: HIP_WORDS,
        decoration: (m, v, pos) =>
          v.state.doc.lineAt(pos).number === 1 ? null : m[2] ? BUILTIN_MARK : HIP_MARK
      });
      this.decorations = this.matcher.createDeco(view);
    }
    update(update) {
      this.decorations = this.matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: v => v.decorations }
);

/** The language support for HIP cells, given the Python and C++ supports JupyterLab ships. */
export function hipCellSupport(python, cpp, extra) {
  const data = defineLanguageFacet({ commentTokens: { line: '//', block: { open: '/*', close: '*/' } } });
  const language = new Language(
    data,
    new HipCellParser(python.language.parser, cpp.language.parser),
    [],
    'hipcell'
  );
  // classHighlighter adds stable tok-* classes next to the theme's colours: the e2e test reads
  // them to check which grammar highlighted a token.
  return new LanguageSupport(language, [
    syntaxHighlighting(classHighlighter),
    hipWords,
    ...(extra || [])
  ]);
}
