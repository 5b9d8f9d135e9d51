import { createRequire } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack, type Compiler, type Configuration, type RspackPluginInstance } from '@rspack/core';
import { remoteEntryUrl, REMOTES, sharedSingletons, type RemoteName } from './federation.ts';
import { BootScriptsPlugin } from './boot-scripts.ts';
import { PrecompressPlugin } from './precompress.ts';

/** Every build lands here; the gateway serves this folder (STATIC_DIR). */
const DIST_DIR = resolve(import.meta.dirname, '../../dist');

/** Files of the remotes' builds, inside the shell's output folder. */
const isRemoteOutput = (path: string) =>
  (REMOTES as readonly string[]).includes(relative(DIST_DIR, path).split(sep)[0]!);

/** Content-hashed files live under `assets/` and never change; everything else is revalidated. */
const HASHED = 'assets/[name].[contenthash:10]';

const TARGET = 'es2022';

/** TypeScript and JSX, compiled by SWC. */
export const typescriptRule = {
  test: /\.tsx?$/,
  exclude: /node_modules/,
  loader: 'builtin:swc-loader',
  options: {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: TARGET,
    },
  },
  type: 'javascript/auto',
} as const;

/** React Router's package points every import at its development build (warnings, checks): builds take its own. */
const REACT_ROUTER_PRODUCTION = resolve(import.meta.dirname, '../../../node_modules/react-router/dist/production');

/**
 * The federation runtime by its ES modules. Rspack's plugin and the runtime's own files `require` the CommonJS
 * builds, which are bundled whole: the ES modules let the unused parts (snapshots, Node loading) drop out.
 */
const requireFromHere = createRequire(import.meta.url);
const federationRuntimeAsModules = Object.fromEntries(
  ['webpack-bundler-runtime', 'runtime', 'runtime-core', 'sdk', 'error-codes'].flatMap((name) => {
    const asModule = fileURLToPath(import.meta.resolve(`@module-federation/${name}`));
    return [
      [`@module-federation/${name}$`, asModule],
      [requireFromHere.resolve(`@module-federation/${name}`), asModule],
    ];
  }),
);

export const sourceResolution = {
  extensions: ['.ts', '.tsx', '.js'],
  alias: {
    // Radix's scroll lock would add an inline `<style>` tag, which the site's CSP refuses.
    'react-style-singleton$': resolve(import.meta.dirname, '../src/style-singleton.ts'),
    'react-router$': `${REACT_ROUTER_PRODUCTION}/index.mjs`,
    ...federationRuntimeAsModules,
  },
};

interface CommonOptions {
  /** The app's folder, `frontends/<name>`. */
  dir: string;
}

interface ShellOptions extends CommonOptions {
  name: 'shell';
}

interface RemoteOptions extends CommonOptions {
  name: RemoteName;
  /** Public module name (`./Home`) → file; the shell's routes load them as `<remote>/<Name>`. */
  exposes: Record<string, string>;
}

/** `/runtime-config.json`: where each remote's entry is, read by the shell when the page starts. */
class RuntimeConfigPlugin implements RspackPluginInstance {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('RuntimeConfigPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RuntimeConfigPlugin', stage: 0 }, () => {
        const remotes = Object.fromEntries(REMOTES.map((remote) => [remote, remoteEntryUrl(remote)]));
        const json = `${JSON.stringify({ remotes }, null, 2)}\n`;
        compilation.emitAsset('runtime-config.json', new compiler.webpack.sources.RawSource(json));
      });
    });
  }
}

/** The one build configuration of every frontend: the shell at the root of `dist/`, each remote in its folder. */
export function frontendConfig(options: ShellOptions | RemoteOptions): Configuration {
  const isShell = options.name === 'shell';
  const outputPath = isShell ? DIST_DIR : resolve(DIST_DIR, options.name);
  return {
    name: options.name,
    mode: 'production',
    context: options.dir,
    target: ['web', TARGET],
    entry: isShell ? { main: './src/index.ts' } : {},
    // No source maps: the site's sources stay off the public internet (the gateway also refuses any `.map`).
    devtool: false,
    output: {
      path: outputPath,
      // The shell's index is served for every page path, so its files are addressed from the root.
      publicPath: isShell ? '/' : 'auto',
      filename: `${HASHED}.js`,
      chunkFilename: `${HASHED}.js`,
      cssFilename: `${HASHED}.css`,
      cssChunkFilename: `${HASHED}.css`,
      uniqueName: options.name,
      // The shell shares `dist/` with the remotes' folders: it cleans only what is its own.
      clean: isShell ? { keep: isRemoteOutput } : true,
    },
    resolve: sourceResolution,
    module: {
      rules: [typescriptRule, { test: /\.css$/, type: 'css/auto' }],
    },
    plugins: [
      new ModuleFederationPlugin({
        name: options.name,
        ...(isShell ? {} : { filename: 'remoteEntry.js', exposes: options.exposes }),
        shared: sharedSingletons,
        shareStrategy: 'loaded-first',
        manifest: !isShell,
        dts: false,
        experiments: {
          // The shell hands its federation runtime to the remotes, which only ever run inside it.
          ...(isShell ? { provideExternalRuntime: true } : { externalRuntime: true }),
          // Remotes are registered by their entry: the browser needs no manifest (snapshot) code, nor Node's loader.
          optimization: { disableSnapshot: true, target: 'web' },
        },
      }),
      ...(isShell
        ? [
            new rspack.HtmlRspackPlugin({ template: './src/index.html' }),
            new RuntimeConfigPlugin(),
            new BootScriptsPlugin(),
            // Files browsers ask for by a fixed root path (favicon, icons, web app manifest), as they are.
            new rspack.CopyRspackPlugin({ patterns: [{ from: 'public' }] }),
          ]
        : []),
      new PrecompressPlugin(),
    ],
    performance: { hints: false },
    // The manifest plugin warns on every build that remotes use `publicPath: 'auto'`, which they do on purpose:
    // the shell resolves their files from the manifest's own URL, so a remote can move to another host.
    infrastructureLogging: { level: isShell ? 'warn' : 'error' },
  };
}
