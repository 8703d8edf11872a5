// hipwb in JupyterLab 4: %%hipkernel / %%hipfile cells highlighted as C++/HIP, completion and
// hover docs for the matrix-core builtins from hipwb's layout catalog, and the ISA view's
// source line <-> instruction links; widget outputs that keep their static picture after a save.
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { ICompletionProviderManager } from '@jupyterlab/completer';
import { INotebookTracker } from '@jupyterlab/notebook';
import { builtinHover, completeBuiltin } from './builtins';
import { installIsaLinks } from './isalink';
import { HIP_MIME, MAGIC_RE, hipCellSupport } from './language';
import { watchSaves } from './savedoutputs';
import { installSortableTables } from './sorttable';

async function loadSupport(registry, mime) {
  const spec = registry.findByMIME(mime, true);
  const lang = spec && (await registry.getLanguage(spec));
  if (!lang || !lang.support) {
    throw new Error(`hipwb-lab: JupyterLab has no editor language for ${mime}`);
  }
  return lang.support;
}

// The MIME type JupyterLab gives a cell is runtime state (not saved in the .ipynb) and the
// notebook resets it when the kernel's language_info arrives or a cell is inserted, so every
// code cell is watched: source or MIME type changes re-apply the HIP language while line 1 is a
// hipwb cell magic, and give the notebook's own language back when it is not.
function watchNotebook(panel) {
  const notebook = panel.content;
  const seen = new WeakSet();
  const apply = model => {
    if (model.type !== 'code') {
      return;
    }
    const magic = MAGIC_RE.test(model.sharedModel.getSource());
    const want = magic ? HIP_MIME : notebook.codeMimetype;
    if (model.mimeType !== want && (magic || model.mimeType === HIP_MIME)) {
      model.mimeType = want;
    }
  };
  const watch = model => {
    if (!model || seen.has(model)) {
      return;
    }
    seen.add(model);
    model.sharedModel.changed.connect(() => apply(model));
    model.mimeTypeChanged.connect(() => apply(model));
    apply(model);
  };
  const all = () => {
    const cells = notebook.model ? notebook.model.cells : null;
    if (!cells) {
      return;
    }
    for (let i = 0; i < cells.length; i++) {
      watch(cells.get(i));
    }
  };
  const connectModel = () => {
    if (notebook.model) {
      notebook.model.cells.changed.connect(all);
    }
    all();
  };
  notebook.modelChanged.connect(connectModel);
  connectModel();
  panel.sessionContext.kernelChanged.connect(all);
}

const highlight = {
  id: 'hipwb-lab:highlight',
  description: 'Highlights %%hipkernel / %%hipfile cell bodies as C++/HIP.',
  autoStart: true,
  requires: [IEditorLanguageRegistry, INotebookTracker],
  activate: (app, languages, tracker) => {
    let support = null;
    languages.addLanguage({
      name: 'hipcell',
      displayName: 'HIP cell (%%hipkernel)',
      mime: HIP_MIME,
      load: async () => {
        if (!support) {
          const [python, cpp] = await Promise.all([
            loadSupport(languages, 'text/x-ipython'),
            loadSupport(languages, 'text/x-c++src')
          ]);
          support = hipCellSupport(python, cpp, [builtinHover]);
        }
        return support;
      }
    });
    tracker.widgetAdded.connect((_, panel) => watchNotebook(panel));
    tracker.forEach(panel => watchNotebook(panel));
    console.log('hipwb-lab: HIP cell highlighting active');
  }
};

const completion = {
  id: 'hipwb-lab:builtins',
  description: 'Completes __builtin_amdgcn_mfma_* / wmma_* from hipwb\'s layout catalog.',
  autoStart: true,
  requires: [ICompletionProviderManager],
  activate: (app, manager) => {
    manager.registerProvider({
      identifier: 'hipwb-lab:builtins',
      rank: 1000,
      renderer: null,
      isApplicable: async context =>
        !!context.editor && context.editor.model.mimeType === HIP_MIME,
      fetch: async request => {
        const reply = completeBuiltin(request.text, request.offset);
        return reply || { start: request.offset, end: request.offset, items: [] };
      }
    });
  }
};

const isaLinks = {
  id: 'hipwb-lab:isa-links',
  description: 'Links source lines and instructions in hipwb\'s ISA view.',
  autoStart: true,
  activate: () => installIsaLinks(document)
};

const sortableTables = {
  id: 'hipwb-lab:sortable-tables',
  description: 'Sorts long hipwb tables by a click on a column header.',
  autoStart: true,
  activate: () => installSortableTables(document)
};

const savedOutputs = {
  id: 'hipwb-lab:saved-outputs',
  description: 'Widget outputs whose model is gone show their static picture; BokehJS is not saved.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app, tracker) => {
    tracker.widgetAdded.connect((_, panel) => watchSaves(panel));
    tracker.forEach(panel => watchSaves(panel));
  }
};

export default [highlight, completion, isaLinks, savedOutputs, sortableTables];
