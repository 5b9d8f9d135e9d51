import type { RuntimeConfig } from '../remote/runtime-config.ts';
import type { RemotePageId } from '../routes.ts';

/**
 * What a server-rendered page carries for the browser. Its scripts are not among them: the page works without
 * them, and the shell's first script fetches them when their time comes (see `index.ts`).
 */
export interface PageAssets {
  /** `runtime-config.json`, handed over in the page instead of fetched. */
  runtimeConfig: RuntimeConfig;
  /** The page's styles: linked, so the server HTML is styled before any script runs. */
  styles: string[];
}

interface Manifest {
  exposes: { name: string; assets: { css: { sync: string[] } } }[];
}

/**
 * The files of a remote's page, read from the build: `runtime-config.json` says where the remote's entry is, and the
 * manifest beside it lists the page's styles. A remote served from another origin is left for the browser to find.
 */
export async function pageAssets(
  page: RemotePageId,
  readBuildFile: (path: string) => Promise<string>,
): Promise<PageAssets> {
  const [remote, name] = page.split('/') as [string, string];
  const runtimeConfig = JSON.parse(await readBuildFile('runtime-config.json')) as RuntimeConfig;
  const entryUrl = runtimeConfig.remotes[remote];
  if (!entryUrl?.startsWith('/')) return { runtimeConfig, styles: [] };

  const base = entryUrl.slice(0, entryUrl.lastIndexOf('/') + 1);
  const manifest = JSON.parse(await readBuildFile(`${base.slice(1)}mf-manifest.json`)) as Manifest;
  const assets = manifest.exposes.find((expose) => expose.name === name)?.assets;
  return { runtimeConfig, styles: (assets?.css.sync ?? []).map((file) => base + file) };
}
