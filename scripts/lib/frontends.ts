import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FRONTENDS = join(ROOT, 'frontends');
/** Written by every full build: the shell's index (after the remotes' folders) and the server-rendering module. */
const BUILD_STAMPS = [join(FRONTENDS, 'dist', 'index.html'), join(FRONTENDS, 'dist-server', 'render.cjs')];

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'dist-server' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

/** When the oldest part of the build was written (0 if one is missing). */
const builtAt = async () =>
  Math.min(
    ...(await Promise.all(
      BUILD_STAMPS.map((stamp) =>
        stat(stamp).then(
          (file) => file.mtimeMs,
          () => 0,
        ),
      ),
    )),
  );

/** Builds the frontends into `frontends/dist` unless the build there is newer than every source file. */
export async function ensureFrontendsBuilt(): Promise<void> {
  if ((await builtAt()) > (await newestSource(FRONTENDS))) return;
  const build = spawn(process.execPath, [join(FRONTENDS, 'build.ts')], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (code !== 0) throw new Error(`frontends build failed (exit ${code})`);
}
