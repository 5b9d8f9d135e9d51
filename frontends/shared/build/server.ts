import { resolve } from 'node:path';
import { rspack, type Configuration } from '@rspack/core';
import { sourceResolution, typescriptRule } from './index.ts';

/** The server-rendering module: Node code, kept apart from the files the site serves. */
export const SERVER_DIST_DIR = resolve(import.meta.dirname, '../../dist-server');

/** Styles are the browser's business: on the server a stylesheet import is an empty module. */
const EMPTY_MODULE = resolve(import.meta.dirname, 'empty-module.js');

/**
 * The shell's server entry with the remotes' server pages in one CommonJS bundle for Node: one copy of React, the
 * router, react-query and `@ticketing/shared` renders the whole page. The gateway loads it.
 */
export function serverRenderConfig(shellDir: string): Configuration {
  return {
    name: 'server',
    mode: 'production',
    context: shellDir,
    target: 'node22',
    entry: { render: './src/server/render.tsx' },
    // No source map to ship: the bundle is not minified (below), so its stack traces read as written.
    devtool: false,
    output: {
      path: SERVER_DIST_DIR,
      filename: '[name].cjs',
      chunkFilename: '[name].[contenthash:10].cjs',
      library: { type: 'commonjs2' },
      clean: true,
    },
    resolve: sourceResolution,
    module: { rules: [typescriptRule] },
    plugins: [new rspack.NormalModuleReplacementPlugin(/\.css$/, EMPTY_MODULE)],
    // Readable stack traces in the gateway's logs matter more than bytes on the server.
    optimization: { minimize: false },
    performance: { hints: false },
  };
}
