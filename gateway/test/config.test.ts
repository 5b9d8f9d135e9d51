import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '@ticketing/platform';
import { TEST_REDIS_URL, uniqueName, waitFor } from '@ticketing/testkit';
import { gatewayConfigSchema, REPO_ROOT } from '../src/config.ts';
import { deleteRedisKeys } from './support.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

test('defaults: port 8080, ops port 9090, no service configured, limits and timeout, STATIC_DIR under the repository', () => {
  const config = loadConfig(gatewayConfigSchema, {});
  expect(config).toMatchObject({
    PORT: 8080,
    OPS_PORT: 9090,
    HOST: '0.0.0.0',
    REDIS_URL: 'redis://127.0.0.1:6379',
    AUTH_RATE_LIMIT_POINTS: 600,
    AUTH_RATE_LIMIT_WINDOW_SECONDS: 60,
    PROXY_TIMEOUT_MS: 30_000,
    TRUST_PROXY: 0,
    STATIC_DIR: join(REPO_ROOT, 'frontends', 'dist'),
  });
  expect(config.CATALOG_URL).toBeUndefined();
  expect(join(REPO_ROOT, 'gateway', 'src', 'main.ts')).toBe(MAIN);
});

test('service URLs are read, and an empty one means the service is not configured', () => {
  const config = loadConfig(gatewayConfigSchema, {
    CATALOG_URL: 'http://catalog:3002',
    ORDERS_URL: '',
    STATIC_DIR: '/srv/site',
  });
  expect(config.CATALOG_URL).toBe('http://catalog:3002');
  expect(config.ORDERS_URL).toBeUndefined();
  expect(config.STATIC_DIR).toBe('/srv/site');
});

test.each([
  ['CATALOG_URL', 'catalog:3002'],
  ['IDENTITY_URL', 'ftp://identity'],
  ['PORT', 'oito mil'],
  ['OPS_PORT', '70000'],
  ['AUTH_RATE_LIMIT_POINTS', '0'],
  ['PROXY_TIMEOUT_MS', '-1'],
  ['TRUST_PROXY', 'sim'],
])('a bad %s (%s) is refused with a message naming it', (name, value) => {
  expect(() => loadConfig(gatewayConfigSchema, { [name]: value })).toThrow(ConfigError);
  expect(() => loadConfig(gatewayConfigSchema, { [name]: value })).toThrow(name);
});

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', OPS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

test('the process refuses to start on bad configuration, with a clear message and exit code 1', async () => {
  const { output, exited } = run({ CATALOG_URL: 'not a url' });
  expect(await exited).toBe(1);
  expect(output.stderr).toContain('gateway: Invalid configuration');
  expect(output.stderr).toContain('CATALOG_URL');
});

test('the process serves until SIGTERM, then stops cleanly', async () => {
  const prefix = `${uniqueName('gateway_main')}:`;
  const { child, output, exited } = run({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, LOG_LEVEL: 'info' });
  try {
    // Only complete lines are read: the last one may still be arriving.
    const started = await waitFor(() =>
      output.stdout
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line) as { msg: string; port?: number })
        .find((line) => line.msg === 'gateway listening'),
    );
    const response = await fetch(`http://127.0.0.1:${started.port}/readyz`);
    expect(await response.json()).toEqual({ status: 'ok' });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.stdout).toContain('"signal":"SIGTERM"');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await deleteRedisKeys(prefix);
  }
});
