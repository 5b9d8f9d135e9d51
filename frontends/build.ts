/**
 * Builds the frontends into `frontends/dist`: all of them, or those named (`node frontends/build.ts storefront`).
 * `--watch` rebuilds on change. The gateway serves the result. The server-rendering module (`frontends/dist-server`)
 * holds the shell and the storefront, so it is built with either.
 */
import { fileURLToPath } from 'node:url';
import { rspack, type Configuration, type MultiStats } from '@rspack/core';
// By path: the image's web stage builds before any workspace is linked.
import { FRONTENDS } from '../proto/src/system.ts';
import { serverRenderConfig } from './shared/build/server.ts';

const APPS: readonly string[] = FRONTENDS;
const args = process.argv.slice(2);
const watch = args.includes('--watch');
const named = args.filter((arg) => !arg.startsWith('--'));
const unknown = named.filter((name) => !APPS.includes(name));
if (unknown.length > 0) {
  console.error(`unknown frontend: ${unknown.join(', ')} (known: ${APPS.join(', ')})`);
  process.exit(1);
}

const apps = named.length > 0 ? named : APPS;
const configs: Configuration[] = await Promise.all(
  apps.map(async (app) => (await import(`./${app}/rspack.config.ts`)).default as Configuration),
);
// The shell's output folder holds the remotes' folders, and cleaning it while they are being written races:
// the shell builds once they are done.
const shell = configs.find((config) => config.name === 'shell');
if (shell) shell.dependencies = apps.filter((app) => app !== 'shell');
if (apps.includes('shell') || apps.includes('storefront')) {
  configs.push(serverRenderConfig(fileURLToPath(new URL('shell/', import.meta.url))));
}
const compiler = rspack(configs);

function report(error: Error | null, stats: MultiStats | undefined): boolean {
  if (error) {
    console.error(error);
    return false;
  }
  console.log(stats!.toString({ colors: process.stdout.isTTY, preset: 'errors-warnings', timings: true }));
  return !stats!.hasErrors();
}

if (watch) {
  compiler.watch({}, report);
} else {
  compiler.run((error, stats) => {
    const ok = report(error, stats);
    compiler.close(() => process.exit(ok ? 0 : 1));
  });
}
