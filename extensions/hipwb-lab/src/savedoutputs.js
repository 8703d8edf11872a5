// Outputs that survive a save: a widget output whose live model is gone shows the static
// picture saved beside it, and the BokehJS a kernel sent to the page is not written to disk.
//
// Why: every hipwb view's display bundle carries the live widget
// (application/vnd.jupyter.widget-view+json) *and* a static text/html picture. JupyterLab picks
// the widget MIME type, and once the notebook is saved and reopened with a restarted kernel the
// model is gone, so ipywidgets draws "Error displaying widget: model not found"; it never falls
// back to the bundle's other types (jupyter-widgets/ipywidgets issue 3773). And the BokehJS a
// kernel sends (application/vnd.bokehjs_load.v0+json, ~1.3 MB per bundle) has done its work once
// the page ran it, but a save would write it into the .ipynb.

export const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';
export const BOKEH_LOAD_MIME = 'application/vnd.bokehjs_load.v0+json';
// What a saved BokehJS load output holds instead (tools/execute_notebooks.py writes the same).
export const BOKEH_PLACEHOLDER = '/* BokehJS (sent inline by hipwb when the notebook runs) */';
const PICTURE_CLASS = 'hipwb-widget-picture';
const PICTURE_NOTE =
  'Static picture: the live widget is not running (the kernel restarted since this output was ' +
  'made). Run the cell again for the live view.';

// The widget manager's "restored" state: ipywidgets' WidgetRenderer waits for it too before it
// calls a missing model an error.
function restored(manager) {
  if (manager.restoredStatus || !manager.restored) {
    return Promise.resolve();
  }
  return new Promise(resolve => {
    const done = () => {
      manager.restored.disconnect(done);
      resolve();
    };
    manager.restored.connect(done);
  });
}

// A renderer class deriving from ipywidgets' WidgetRenderer (found at run time from the
// renderer its factory makes, as the class is not exported to other extensions): it draws the
// bundle's text/html first and hands over to the live widget only when its model exists.
// Deriving keeps it what ipywidgets looks for when it attaches a late widget manager to the
// renderers already on the page.
const classes = new WeakMap();
function pictureClass(Base, rendermime) {
  let cls = classes.get(Base);
  if (cls) {
    return cls;
  }
  cls = class WidgetOrPicture extends Base {
    set manager(manager) {
      this._hipwbManager = manager;
      super.manager = manager;
    }

    async renderModel(model) {
      // the bundle's static picture: its HTML, else its text (any ipywidget has a repr)
      const html = model.data['text/html'];
      const mime = html !== undefined ? 'text/html' : 'text/plain';
      const still = model.data[mime];
      const view = model.data[WIDGET_MIME];
      const id = view && view.model_id;
      if (still === undefined || !id || !this._manager || !this._manager.promise) {
        return super.renderModel(model);
      }
      // The live model is there (a cell just ran): draw it and never the picture, whose HTML
      // may hold scripts (the sweep view embeds its figure) that must not run for nothing.
      const known = this._hipwbManager;
      if (known && known.restoredStatus && known.has_model(id)) {
        return super.renderModel(model);
      }
      this._showPicture(model, mime, still);
      const manager = await this._manager.promise;
      await restored(manager);
      if (this.isDisposed || !manager.has_model(id)) {
        return; // the picture stays: no error, nothing logged
      }
      this._dropPicture();
      return super.renderModel(model);
    }

    _showPicture(model, mime, still) {
      this._dropPicture();
      const picture = rendermime.createRenderer(mime);
      picture.addClass(PICTURE_CLASS);
      picture.node.title = PICTURE_NOTE;
      this.node.textContent = '';
      this.addWidget(picture);
      this._picture = picture;
      const saved = {
        trusted: model.trusted,
        data: { [mime]: still },
        metadata: model.metadata || {},
        setData: () => undefined
      };
      picture.renderModel(saved).catch(err => {
        picture.node.textContent = `hipwb: the static picture did not render (${err})`;
      });
    }

    _dropPicture() {
      if (this._picture) {
        this._picture.dispose();
        this._picture = null;
      }
    }
  };
  classes.set(Base, cls);
  return cls;
}

function wrapFactory(factory, rendermime) {
  if (factory.hipwbPicture) {
    return factory;
  }
  // The widget manager this factory hands its renderers, known synchronously once resolved
  // (a throw-away renderer tells it), so that a live output is drawn without a picture first.
  const known = { manager: null };
  try {
    const probe = factory.createRenderer({ mimeType: WIDGET_MIME });
    if (probe._manager && probe._manager.promise) {
      probe._manager.promise.then(manager => {
        known.manager = manager;
      });
    }
    probe.dispose();
  } catch (err) {
    // not the WidgetRenderer we know: createRenderer below leaves it alone
  }
  return {
    safe: factory.safe,
    mimeTypes: factory.mimeTypes,
    defaultRank: factory.defaultRank,
    hipwbPicture: true,
    createRenderer: options => {
      const inner = factory.createRenderer(options);
      if (!inner._manager || !inner._manager.promise) {
        return inner; // not the WidgetRenderer we know: leave ipywidgets as it is
      }
      const Cls = pictureClass(inner.constructor, rendermime);
      const outer = new Cls(options);
      if (known.manager) {
        outer.manager = known.manager;
      }
      // the manager the factory gave (or will give) its own renderer
      inner._manager.promise.then(manager => {
        if (!outer.isDisposed) {
          outer.manager = manager;
        }
      });
      inner.dispose();
      return outer;
    }
  };
}

// Make the widget MIME type of this notebook's rendermime draw pictures for lost models, also
// after ipywidgets registers its manager's factory (it removes and re-adds the MIME type when
// the notebook's kernel session is ready).
export function patchRendermime(rendermime) {
  if (!rendermime || rendermime.hipwbPatched) {
    return;
  }
  rendermime.hipwbPatched = true;
  const add = rendermime.addFactory.bind(rendermime);
  rendermime.addFactory = (factory, rank) =>
    add(factory.mimeTypes.includes(WIDGET_MIME) ? wrapFactory(factory, rendermime) : factory,
      rank);
  const current = rendermime.getFactory(WIDGET_MIME);
  if (current && !current.hipwbPicture) {
    add(wrapFactory(current, rendermime), rendermime.getRank(WIDGET_MIME));
  }
}

// Replace the BokehJS of every load output by the placeholder (the page has run it already).
export function stripBokehJS(model) {
  if (!model || !model.cells) {
    return 0;
  }
  let stripped = 0;
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code' || !cell.outputs) {
      continue;
    }
    for (let j = 0; j < cell.outputs.length; j++) {
      const out = cell.outputs.get(j);
      const js = out.data && out.data[BOKEH_LOAD_MIME];
      if (typeof js === 'string' && js !== BOKEH_PLACEHOLDER) {
        const json = out.toJSON();
        json.data = { ...json.data, [BOKEH_LOAD_MIME]: BOKEH_PLACEHOLDER };
        cell.outputs.set(j, json);
        stripped++;
      }
    }
  }
  return stripped;
}

export function watchSaves(panel) {
  patchRendermime(panel.content.rendermime);
  panel.context.saveState.connect((_, state) => {
    if (state === 'started') {
      stripBokehJS(panel.content.model);
    }
  });
}
