import type { ChunkGroup, Compilation, Compiler, RspackPluginInstance } from '@rspack/core';

/** The chunk name of the shell's `import('./bootstrap.tsx')`: the code that renders a page. */
export const BOOTSTRAP_CHUNK = 'bootstrap';

/** `boot-scripts.json`: what a server-rendered page prefetches of the shell's code once it has loaded. */
export const BOOT_SCRIPTS_FILE = 'boot-scripts.json';

const scriptsOf = (group: ChunkGroup) =>
  group.chunks.flatMap((chunk) => [...chunk.files]).filter((file) => file.endsWith('.js'));

/**
 * Lists the scripts the shell's bootstrap runs: its own chunks and the modules the shell shares with the remotes
 * (React, the router, the query client…), which the entry provides as chunks of their own. The entry imports
 * nothing else, so every chunk group under it is one of these. Code the bootstrap imports later (the toasts, the
 * account menu) is left out: it is fetched when it is used.
 */
export class BootScriptsPlugin implements RspackPluginInstance {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('BootScriptsPlugin', (compilation: Compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BootScriptsPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          if (!compilation.namedChunkGroups.get(BOOTSTRAP_CHUNK))
            throw new Error(`the shell has no "${BOOTSTRAP_CHUNK}" chunk to list`);
          const underEntry = [...compilation.entrypoints.values()].flatMap((entry) => entry.childrenIterable);
          const publicPath = compilation.outputOptions.publicPath as string;
          const scripts = [...new Set(underEntry.flatMap(scriptsOf))].map((file) => publicPath + file);
          const json = `${JSON.stringify({ scripts }, null, 2)}\n`;
          compilation.emitAsset(BOOT_SCRIPTS_FILE, new compiler.webpack.sources.RawSource(json));
        },
      );
    });
  }
}
