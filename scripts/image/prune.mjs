/**
 * Leaves in <root>/node_modules (and in its workspaces' own node_modules) only the packages an app runs with: those
 * reachable, through production and optional dependencies, from its own workspace, services/platform and proto, as
 * package-lock.json resolves them. `npm ci --workspace` installs more than that (other workspaces' runtime
 * dependencies, links to development-only workspaces), and no image may carry what its app never loads. The
 * other workspaces' manifests, which `npm ci` needed, go too, and so do source maps: no image is debugged from them.
 *
 *   node scripts/image/prune.mjs <app-dir> <root>
 */
import { existsSync, readFileSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [appDir, root] = process.argv.slice(2);
if (!appDir || !root) {
  console.error('usage: prune.ts <app-dir> <root>');
  process.exit(1);
}
/** @type {Record<string, {link?: boolean, resolved?: string, dependencies?: object, optionalDependencies?: object}>} */
const { packages } = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

/** Where Node finds `name` from the package at `from`: its own node_modules, then each parent's, then the root's. */
function resolve(from, name) {
  for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
    const key = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[key]) return key;
    if (!at) return undefined;
    if (!at.includes('/node_modules/')) at = '';
  }
}

const kept = new Set();
const visit = (key) => {
  const entry = packages[key];
  if (!entry || kept.has(key)) return;
  kept.add(key);
  if (entry.link && entry.resolved) return visit(entry.resolved);
  for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
    const found = resolve(key, name);
    if (found) visit(found);
  }
};
for (const workspace of ['proto', 'services/platform', appDir]) visit(workspace);

/** Removes, below `dir`, every installed package that is not kept, and every source map. */
function prune(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && /(^|\/)node_modules\/@[^/]+$/.test(path)) {
      prune(path);
    } else if (/(^|\/)node_modules\/(@[^/]+\/)?[^/@]+$/.test(path) && !kept.has(path)) {
      rmSync(join(root, path), { recursive: true, force: true });
    } else if (entry.isDirectory() && !entry.isSymbolicLink()) {
      prune(path);
    } else if (/\.map$/.test(entry.name)) {
      rmSync(join(root, path));
    }
  }
}
const workspaces = Object.keys(packages).filter((key) => key && !key.includes('node_modules'));
for (const dir of ['node_modules', ...workspaces.map((workspace) => `${workspace}/node_modules`)]) {
  if (existsSync(join(root, dir))) prune(dir);
}
for (const workspace of workspaces.filter((key) => !kept.has(key))) {
  rmSync(join(root, workspace), { recursive: true, force: true });
  const parent = join(root, dirname(workspace));
  if (parent !== root && existsSync(parent) && readdirSync(parent).length === 0) rmdirSync(parent);
}
