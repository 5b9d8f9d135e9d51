import type { RuntimeConfig } from '../remote/runtime-config.ts';
import type { RemotePageId } from '../routes.ts';

/** What a server-rendered page asks the browser to fetch at once, before the shell's code asks for it. */
export interface PageAssets {
  /** `runtime-config.json`, handed over in the page instead of fetched. */
  runtimeConfig: RuntimeConfig;
  /** The remote's entry and the page's own chunks. */
  scripts: string[];
  /** The page's styles: linked, so the server HTML is styled before any script runs. */
  styles: string[];
}

interface Manifest {
  metaData: { remoteEntry: { name: string; path: string } };
  exposes: { name: string; assets: { js: { sync: string[] }; css: { sync: string[] } } }[];
}

/**
 * The files of a remote's page, read from the build: `runtime-config.json` says where the remote's entry is, and the
 * manifest beside it lists the page's chunks. A remote served from another origin is left for the browser to find.
 */
export async function pageAssets(
  page: RemotePageId,
  readBuildFile: (path: string) => Promise<string>,
): Promise<PageAssets> {
  const [remote, name] = page.split('/') as [string, string];
  const runtimeConfig = JSON.parse(await readBuildFile('runtime-config.json')) as RuntimeConfig;
  const entryUrl = runtimeConfig.remotes[remote];
  if (!entryUrl?.startsWith('/')) return { runtimeConfig, scripts: [], styles: [] };

  const base = entryUrl.slice(0, entryUrl.lastIndexOf('/') + 1);
  const manifest = JSON.parse(await readBuildFile(`${base.slice(1)}mf-manifest.json`)) as Manifest;
  const entry = manifest.metaData.remoteEntry;
  const assets = manifest.exposes.find((expose) => expose.name === name)?.assets;
  return {
    runtimeConfig,
    scripts: [
      `${base}${entry.path ? `${entry.path}/` : ''}${entry.name}`,
      ...(assets?.js.sync ?? []).map((file) => base + file),
    ],
    styles: (assets?.css.sync ?? []).map((file) => base + file),
  };
}
