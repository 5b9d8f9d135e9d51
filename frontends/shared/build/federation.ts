import { readFileSync } from 'node:fs';
// By path: the image's web stage builds before any workspace is linked.
import { FRONTENDS, type FrontendName } from '../../../proto/src/system.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

/** The micro-frontends the shell loads at run time (every one of the list but the shell), each in `dist/<name>/`. */
export type RemoteName = Exclude<FrontendName, 'shell'>;
export const REMOTES = FRONTENDS.filter((name): name is RemoteName => name !== 'shell');

/**
 * Where the shell finds a remote unless `runtime-config.json` is changed at deploy time: its entry, which the
 * federation runtime loads without reading the manifest first (the browser's runtime is built without manifests).
 */
export const remoteEntryUrl = (remote: RemoteName) => `/${remote}/remoteEntry.js`;

/**
 * One instance of each in the page, whoever loads first (the shell): hooks, the router's context, the query
 * client and the toast store only work when every app uses the same module. Version ranges come from the
 * shared package, so all apps ask for the same ones. A shared module is bundled whole, so stateless libraries
 * (zod and the contracts) are left to each app's tree shaking instead.
 */
const SINGLETONS: Record<string, string> = {
  react: manifest.dependencies.react!,
  'react/jsx-runtime': manifest.dependencies.react!,
  'react-dom': manifest.dependencies['react-dom']!,
  '@tanstack/react-query': manifest.dependencies['@tanstack/react-query']!,
  '@ticketing/shared': `^${manifest.version}`,
  // The router by the shared package's module, which re-exports only what the apps use of React Router.
  '@ticketing/shared/router': `^${manifest.version}`,
  // Forms (react-hook-form, the resolver) apart: pages without a form never download them.
  '@ticketing/shared/forms': `^${manifest.version}`,
};

export const sharedSingletons = Object.fromEntries(
  Object.entries(SINGLETONS).map(([name, requiredVersion]) => [name, { singleton: true, requiredVersion }]),
);
