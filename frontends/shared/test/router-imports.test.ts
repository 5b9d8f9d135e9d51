import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const FRONTENDS = join(import.meta.dirname, '../..');

/**
 * The only modules that import React Router itself: the apps' router, which the federation shares as one module,
 * and the server render, bundled with it into one module for Node. Any other import would put a second copy of
 * the router (and of its context) on the page, whole.
 */
const ALLOWED = ['shared/src/router.ts', 'shell/src/server/'];

/** `import … from`, `export … from`, `import '…'` and `import('…')` of react-router or react-router-dom. */
const ROUTER_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]react-router(?:-dom)?(?:\/[^'"]*)?['"]/;

async function sourceFiles(): Promise<string[]> {
  const apps = await readdir(FRONTENDS, { withFileTypes: true });
  const files = await Promise.all(
    apps
      .filter((entry) => entry.isDirectory())
      .map(async (app) => {
        const src = join(FRONTENDS, app.name, 'src');
        const entries = await readdir(src, { recursive: true, withFileTypes: true }).catch(() => []);
        return entries
          .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
          .map((entry) => relative(FRONTENDS, join(entry.parentPath, entry.name)));
      }),
  );
  return files.flat();
}

test('the apps import the router from @ticketing/shared/router, never React Router itself', async () => {
  const files = await sourceFiles();
  expect(files).toContain('storefront/src/pages/EventDetail.tsx');
  const importers: string[] = [];
  for (const file of files) {
    if (ROUTER_IMPORT.test(await readFile(join(FRONTENDS, file), 'utf8'))) importers.push(file);
  }
  expect(importers.filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))).toEqual([]);
  expect(importers).toEqual(expect.arrayContaining(['shared/src/router.ts', 'shell/src/server/render.tsx']));
});
