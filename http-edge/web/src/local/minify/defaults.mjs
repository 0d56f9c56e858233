// The minifiers' default options, apart from minifiers.mjs so that the page's script (its
// options form) does not pull the minifiers in: they run in the worker.
export const DEFAULTS = {
  js: { mangle: true, keepConsole: true, module: null }, // module: true, false, or null: find out
  css: { restructure: true },
  html: { collapseWhitespace: true, removeComments: true, minifyInline: true, removeRedundant: true },
};
