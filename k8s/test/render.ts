/**
 * What the manifest and component tests share: k8s/ as an operator deploys it (a copy with the Secrets' files the
 * real `npm run k8s:secrets` writes), kustomizations rendered by the real kustomize (the binary named by KUSTOMIZE,
 * else the one built into kubectl), and the NetworkPolicy arithmetic that says whether a peer reaches a pod's port.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

// Parsed YAML: the shapes are checked by the assertions themselves.
export type Obj = Record<string, any>;

export const K8S_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_DIR = dirname(K8S_DIR);
export const SECRETS_COMPONENT = join('overlays', 'production', 'secrets');
/** The files of the Secrets' component under version control; the script writes the others. */
const COMMITTED_IN_SECRETS = ['kustomization.yaml', 'name-references.yaml'];

/** What the operator writes in provided.env (a relay password that needs escaping in a URL). */
export const PROVIDED = {
  ASAAS_API_KEY: '$aact_prod_000MzkwODA2MWY2OGM3MWRlMDU2NWM3MzJlNzZmNGZhZGY6OjAwMDAwMDAwMDAwMDAwNjAxNjM6OiRhYWNoXzE4',
  SMTP_SERVER: 'smtp://smtp.relay.com.br:587',
  SMTP_USERNAME: 'ingressos',
  SMTP_PASSWORD: 'p@ss:w/rd#1 é',
  BACKUP_ACCESS_KEY_ID: 'AKIA4VQ7ZK3MBUCKET01',
  BACKUP_ACCESS_SECRET_KEY: 'r8Vn2/Kq9xLw+TbZ0dYhP3sJ6mFcA1eGuN5oQ7iR',
};

export function runSecretsScript(dir: string) {
  return spawnSync(process.execPath, [join(REPO_DIR, 'scripts', 'k8s-secrets.ts'), dir], { cwd: REPO_DIR, encoding: 'utf8' });
}

let copy: string | undefined;

/**
 * k8s/ as committed, copied to a temporary directory (made on first use, removed after the test file), with the
 * Secrets' files written by the real script: run once (it asks for provided.env), provided.env filled as an
 * operator fills it, run again.
 */
export function operatorCopy(): string {
  if (!copy) {
    copy = mkdtempSync(join(tmpdir(), 'k8s-'));
    // A developer's own generated files stay out of the copy.
    const generated = (path: string) =>
      dirname(path) === join(K8S_DIR, SECRETS_COMPONENT) && !COMMITTED_IN_SECRETS.includes(basename(path));
    cpSync(K8S_DIR, copy, { recursive: true, filter: (path) => !generated(path) });
    const dir = join(copy, SECRETS_COMPONENT);
    const first = runSecretsScript(dir);
    expect([first.status, first.stderr]).toEqual([1, expect.stringContaining('ASAAS_API_KEY')]);
    // No Secret's file until provided.env is filled: the overlay cannot render a placeholder.
    expect(readdirSync(dir).sort()).toEqual(['generated.env', ...COMMITTED_IN_SECRETS, 'provided.env'].sort());
    const blank = readFileSync(join(dir, 'provided.env'), 'utf8');
    const filled = Object.entries(PROVIDED).reduce(
      (text, [name, value]) => text.replace(`${name}=\n`, `${name}='${value}'\n`),
      blank,
    );
    writeFileSync(join(dir, 'provided.env'), filled);
    const second = runSecretsScript(dir);
    expect([second.status, second.stderr]).toEqual([0, '']);
  }
  return copy;
}

// Every test file importing this module removes its own copy.
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function parseDocs(text: string, where: string): Obj[] {
  const out: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value as Obj);
  }
  return out;
}

/** The real kustomize's rendering of a directory. The manifests render identically with kustomize 4.5 and 5.x. */
export function kustomizeBuild(dir: string): Obj[] {
  const binary = process.env.KUSTOMIZE;
  const [command, args] = binary ? [binary, ['build', dir]] : ['kubectl', ['kustomize', dir]];
  let output: string;
  try {
    output = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') throw new Error(`${command} not found: the k8s tests need kustomize or kubectl`, { cause: error });
    throw new Error(`${command} ${args.join(' ')} failed: ${failure.stderr ?? failure.message}`, { cause: error });
  }
  return parseDocs(output, `kustomize build ${relative(REPO_DIR, dir)}`);
}

/** A kustomization of k8s/ (e.g. `overlays/production`), rendered from the operator's copy. */
export const rendered = (name: string): Obj[] => kustomizeBuild(join(operatorCopy(), name));

export function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.filter((obj) => obj.kind === kind && obj.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind}/${name}, found ${found.length}`);
  return found[0]!;
}

export const ofKind = (objects: Obj[], kind: string): Obj[] => objects.filter((obj) => obj.kind === kind);

/** A Secret's or ConfigMap's entries, decoded. */
export function entriesOf(obj: Obj): Record<string, string> {
  if (obj.kind !== 'Secret') return obj.data ?? {};
  return Object.fromEntries(Object.entries(obj.data ?? {}).map(([key, value]) => [key, Buffer.from(String(value), 'base64').toString()]));
}

export function matchesLabels(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const expressionsHold = (selector.matchExpressions ?? []).every((expression: Obj) =>
    expression.operator === 'In'
      ? expression.values.includes(labels[expression.key])
      : expression.operator === 'Exists'
        ? expression.key in labels
        : false,
  );
  return Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) && expressionsHold;
}

export const selects = (policy: Obj, labels: Record<string, string>) =>
  Object.keys(policy.spec.podSelector).length === 0 || matchesLabels(policy.spec.podSelector, labels);

/** Whether the policies let `peer` (a predicate on a rule's peer) reach `port` of pods with `labels`, one way. */
export function opens(
  policies: Obj[],
  labels: Record<string, string>,
  direction: 'ingress' | 'egress',
  peer: (entry: Obj) => boolean,
  port: number,
): boolean {
  const side = direction === 'ingress' ? 'from' : 'to';
  return policies
    .filter((policy) => selects(policy, labels))
    .flatMap((policy) => policy.spec[direction] ?? [])
    .some(
      (rule: Obj) =>
        (rule[side] === undefined || rule[side].some(peer)) &&
        (rule.ports === undefined || rule.ports.some((entry: Obj) => entry.port === port)),
    );
}
