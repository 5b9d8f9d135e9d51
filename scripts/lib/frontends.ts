import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FRONTENDS = join(ROOT, 'frontends');
/** Written by every shell build, after the remotes' folders are in place. */
const BUILD_STAMP = join(FRONTENDS, 'dist', 'index.html');

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

const builtAt = () =>
  stat(BUILD_STAMP).then(
    (file) => file.mtimeMs,
    () => 0,
  );

/** Builds the frontends into `frontends/dist` unless the build there is newer than every source file. */
export async function ensureFrontendsBuilt(): Promise<void> {
  if ((await builtAt()) > (await newestSource(FRONTENDS))) return;
  const build = spawn(process.execPath, [join(FRONTENDS, 'build.ts')], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (code !== 0) throw new Error(`frontends build failed (exit ${code})`);
}
