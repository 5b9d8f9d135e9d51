import { BOOT_SCRIPTS_FILE } from '@ticketing/shared/build/boot-scripts';
import type { RuntimeConfig } from '../remote/runtime-config.ts';
import type { RemotePageId } from '../routes.ts';

/**
 * What a server-rendered page carries for the browser. Its scripts are only named: the page works without them,
 * and the shell's first script fetches them when their time comes (see `index.ts`).
 */
export interface PageAssets {
  /** `runtime-config.json`, handed over in the page instead of fetched. */
  runtimeConfig: RuntimeConfig;
  /** The page's styles: linked, so the server HTML is styled before any script runs. */
  styles: string[];
  /** The scripts that take the page over: the shell's bootstrap, the remote's entry and the page's module. */
  scripts: string[];
}

interface Manifest {
  exposes: { name: string; assets: { css: { sync: string[] }; js: { sync: string[] } } }[];
}

/**
 * The files of a remote's page, read from the build: `runtime-config.json` says where the remote's entry is, the
 * manifest beside it lists the page's styles and scripts, and `boot-scripts.json` the shell's. A remote served from
 * another origin is left for the browser to find.
 */
export async function pageAssets(
  page: RemotePageId,
  readBuildFile: (path: string) => Promise<string>,
): Promise<PageAssets> {
  const [remote, name] = page.split('/') as [string, string];
  const [runtimeConfig, boot] = await Promise.all([
    readBuildFile('runtime-config.json').then((json) => JSON.parse(json) as RuntimeConfig),
    readBuildFile(BOOT_SCRIPTS_FILE).then((json) => JSON.parse(json) as { scripts: string[] }),
  ]);
  const entryUrl = runtimeConfig.remotes[remote];
  if (!entryUrl?.startsWith('/')) return { runtimeConfig, styles: [], scripts: boot.scripts };

  const base = entryUrl.slice(0, entryUrl.lastIndexOf('/') + 1);
  const manifest = JSON.parse(await readBuildFile(`${base.slice(1)}mf-manifest.json`)) as Manifest;
  const assets = manifest.exposes.find((expose) => expose.name === name)?.assets;
  const inRemote = (files: string[] = []) => files.map((file) => base + file);
  return {
    runtimeConfig,
    styles: inRemote(assets?.css.sync),
    scripts: [...boot.scripts, entryUrl, ...inRemote(assets?.js.sync)],
  };
}
