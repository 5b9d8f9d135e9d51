/**
 * Offline checks of the deployment topology: the kustomize base and overlays under k8s/ and
 * docker-compose.yml. Core Kubernetes objects are validated against the OpenAPI schemas of
 * `kubernetes-models`; the Strimzi custom resources are checked by hand. The overlays are
 * rendered by a small kustomize subset (resources, strategic-merge and JSON 6902 patches,
 * images, namespace) so the objects they produce are validated too.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Job } from 'kubernetes-models/batch/v1';

// ---------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------

const K8S_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const REPO_DIR = dirname(K8S_DIR);
const BASE_DIR = join(K8S_DIR, 'base');
const OVERLAYS = ['production', 'event-day'] as const;

interface App {
  name: string;
  dir: string;
  entry: string;
  port: number;
}

const APPS: App[] = [
  { name: 'identity', dir: 'services/identity', entry: 'services/identity/src/main.ts', port: 3001 },
  { name: 'catalog', dir: 'services/catalog', entry: 'services/catalog/src/main.ts', port: 3002 },
  { name: 'orders', dir: 'services/orders', entry: 'services/orders/src/main.ts', port: 3003 },
  { name: 'payments', dir: 'services/payments', entry: 'services/payments/src/main.ts', port: 3004 },
  { name: 'courtesy', dir: 'services/courtesy', entry: 'services/courtesy/src/main.ts', port: 3005 },
  { name: 'tickets-verifier', dir: 'services/tickets', entry: 'services/tickets/src/verifier.ts', port: 3006 },
  { name: 'tickets-worker', dir: 'services/tickets', entry: 'services/tickets/src/worker.ts', port: 3007 },
  { name: 'mail', dir: 'services/mail', entry: 'services/mail/src/main.ts', port: 3008 },
  { name: 'gateway', dir: 'gateway', entry: 'gateway/src/main.ts', port: 8080 },
];
const SERVICES = APPS.filter((app) => app.name !== 'gateway');

const EVENTS = [
  'user.registered',
  'user.verification-code-issued',
  'user.password-reset-requested',
  'user.deleted',
  'event.changed',
  'order.created',
  'order.paid',
  'order.cancelled',
  'order.expired',
  'payment.confirmed',
  'payment.failed',
  'payment.overdue',
  'courtesy.redeemed',
  'courtesy.invited',
  'ticket.issued',
  'ticket.checked-in',
  'ticket.reset',
  'bus.dead-letter',
];

const STRIMZI_API = 'kafka.strimzi.io/v1beta2';

// ---------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------

// Parsed YAML: the shapes are checked by the assertions themselves.
type Obj = Record<string, any>;

interface Source {
  file: string;
  obj: Obj;
}

function rel(file: string): string {
  return relative(REPO_DIR, file);
}

function readDocs(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${rel(file)}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(entry)) out.push(path);
  }
  return out;
}

function isKustomization(file: string): boolean {
  return /^kustomization\.ya?ml$/.test(basename(file));
}

interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

interface PatchEntry {
  path?: string;
  patch?: string;
  target?: Target;
}

interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  patches?: PatchEntry[];
  images?: ImageEntry[];
}

function readKustomization(dir: string): Kustomization {
  return parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

function objectId(obj: Obj): string {
  return `${obj.kind}/${obj.metadata?.name}`;
}

function apiGroup(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

// ---------------------------------------------------------------------------------------
// A small kustomize: enough for what k8s/ uses, strict where kustomize is lenient
// ---------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasName(value: unknown): boolean {
  return isPlainObject(value) && typeof value.name === 'string';
}

/** Strategic merge, approximated: maps merge, lists of named items merge by name, null deletes. */
function strategicMerge(target: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) {
    if (Array.isArray(target) && patch.every(hasName) && target.every(hasName)) {
      const merged = target.map((item) => structuredClone(item));
      for (const item of patch as Obj[]) {
        const index = merged.findIndex((existing) => existing.name === item.name);
        if (index === -1) merged.push(structuredClone(item));
        else merged[index] = strategicMerge(merged[index], item);
      }
      return merged;
    }
    return structuredClone(patch);
  }
  if (isPlainObject(patch)) {
    const merged: Obj = isPlainObject(target) ? structuredClone(target) : {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = strategicMerge(merged[key], value);
    }
    return merged;
  }
  return patch;
}

function pointer(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`JSON pointer must start with '/': ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

interface JsonPatchOp {
  op: string;
  path: string;
  value?: unknown;
}

/** JSON 6902 add/replace/remove/test; a path that does not exist is an error (as in kustomize). */
function applyJsonPatch(obj: Obj, ops: JsonPatchOp[], where: string): void {
  for (const op of ops) {
    const parts = pointer(op.path);
    const last = parts.pop() as string;
    let parent: unknown = obj;
    for (const part of parts) {
      parent = Array.isArray(parent) ? parent[Number(part)] : isPlainObject(parent) ? parent[part] : undefined;
      if (parent === undefined) throw new Error(`${where}: ${op.op} ${op.path}: parent does not exist`);
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`${where}: bad index in ${op.path}`);
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value));
      else if (index >= parent.length) throw new Error(`${where}: ${op.op} ${op.path}: no such element`);
      else if (op.op === 'replace') parent[index] = structuredClone(op.value);
      else if (op.op === 'remove') parent.splice(index, 1);
      else if (op.op === 'test') expect(parent[index]).toEqual(op.value);
      else throw new Error(`${where}: unsupported op ${op.op}`);
    } else if (isPlainObject(parent)) {
      if (op.op === 'add') parent[last] = structuredClone(op.value);
      else if (!(last in parent)) throw new Error(`${where}: ${op.op} ${op.path}: no such member`);
      else if (op.op === 'replace') parent[last] = structuredClone(op.value);
      else if (op.op === 'remove') delete parent[last];
      else if (op.op === 'test') expect(parent[last]).toEqual(op.value);
      else throw new Error(`${where}: unsupported op ${op.op}`);
    } else {
      throw new Error(`${where}: ${op.op} ${op.path}: parent is not a container`);
    }
  }
}

function matchesTarget(obj: Obj, target: Target): boolean {
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  return (
    (target.kind === undefined || target.kind === obj.kind) &&
    (target.name === undefined || target.name === obj.metadata?.name) &&
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version) &&
    (target.namespace === undefined || target.namespace === obj.metadata?.namespace)
  );
}

function podSpecs(obj: Obj): Obj[] {
  const spec = obj.spec?.template?.spec;
  return ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(obj.kind) && spec ? [spec] : [];
}

function containersOf(obj: Obj): Obj[] {
  return podSpecs(obj).flatMap((spec) => [...(spec.initContainers ?? []), ...(spec.containers ?? [])]);
}

function imageName(image: string): string {
  const withoutDigest = image.split('@')[0];
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

function render(dir: string): Obj[] {
  const kustomization = readKustomization(dir);
  const where = rel(join(dir, 'kustomization.yaml'));
  let objects: Obj[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    if (!existsSync(path)) throw new Error(`${where}: resource ${resource} does not exist`);
    objects.push(...(statSync(path).isDirectory() ? render(path) : (readDocs(path) as Obj[])));
  }
  if (kustomization.namespace) {
    for (const obj of objects) {
      if (obj.kind !== 'Namespace') obj.metadata = { ...obj.metadata, namespace: kustomization.namespace };
    }
  }
  for (const entry of kustomization.patches ?? []) {
    if (!entry.path) throw new Error(`${where}: inline patches are not used here; put each patch in a file`);
    const file = join(dir, entry.path);
    const docs = readDocs(file);
    const patchWhere = rel(file);
    if (entry.target) {
      if (docs.length !== 1 || !Array.isArray(docs[0])) throw new Error(`${patchWhere}: a targeted patch must be one JSON 6902 list`);
      const targets = objects.filter((obj) => matchesTarget(obj, entry.target as Target));
      if (targets.length === 0) throw new Error(`${patchWhere}: target ${JSON.stringify(entry.target)} matches nothing`);
      for (const obj of targets) applyJsonPatch(obj, docs[0] as JsonPatchOp[], patchWhere);
    } else {
      for (const patch of docs as Obj[]) {
        if (!isPlainObject(patch) || !patch.apiVersion || !patch.kind || !patch.metadata?.name) {
          throw new Error(`${patchWhere}: a strategic-merge patch needs apiVersion, kind and metadata.name`);
        }
        const index = objects.findIndex(
          (obj) =>
            obj.kind === patch.kind &&
            obj.metadata?.name === patch.metadata.name &&
            apiGroup(obj.apiVersion) === apiGroup(patch.apiVersion),
        );
        if (index === -1) throw new Error(`${patchWhere}: ${objectId(patch)} is not in the rendered resources`);
        objects[index] = strategicMerge(objects[index], patch) as Obj;
      }
    }
  }
  for (const image of kustomization.images ?? []) {
    const users = objects.flatMap(containersOf).filter((container) => imageName(container.image) === image.name);
    if (users.length === 0) throw new Error(`${where}: image ${image.name} is used by no container`);
    for (const container of users) {
      const name = image.newName ?? image.name;
      container.image = image.digest ? `${name}@${image.digest}` : image.newTag ? `${name}:${image.newTag}` : name;
    }
  }
  objects = objects.map((obj) => structuredClone(obj));
  return objects;
}

// ---------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------

const CORE_VALIDATORS: Record<string, (obj: Obj) => void> = {
  'apps/v1/Deployment': (obj) => new Deployment(obj as never).validate(),
  'apps/v1/StatefulSet': (obj) => {
    new StatefulSet(obj as never).validate();
    for (const claim of obj.spec?.volumeClaimTemplates ?? []) {
      new PersistentVolumeClaim({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim } as never).validate();
    }
  },
  'batch/v1/Job': (obj) => new Job(obj as never).validate(),
  'v1/Service': (obj) => new Service(obj as never).validate(),
  'v1/ConfigMap': (obj) => new ConfigMap(obj as never).validate(),
  'v1/Secret': (obj) => new Secret(obj as never).validate(),
  'v1/Namespace': (obj) => new Namespace(obj as never).validate(),
  'v1/PersistentVolumeClaim': (obj) => new PersistentVolumeClaim(obj as never).validate(),
  'networking.k8s.io/v1/Ingress': (obj) => new Ingress(obj as never).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (obj) => new HorizontalPodAutoscaler(obj as never).validate(),
  'policy/v1/PodDisruptionBudget': (obj) => new PodDisruptionBudget(obj as never).validate(),
};

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function check(condition: unknown, message: string): void {
  if (!condition) throw new Error(message);
}

/** The Strimzi CRDs are not in kubernetes-models: the fields used here, checked by hand. */
const STRIMZI_VALIDATORS: Record<string, (obj: Obj) => void> = {
  Kafka: (obj) => {
    const spec = obj.spec;
    check(isPlainObject(spec?.kafka), 'spec.kafka is required');
    check(spec.zookeeper === undefined, 'KRaft cluster must not declare spec.zookeeper');
    check(typeof spec.kafka.version === 'string', 'spec.kafka.version must be a string');
    check(Array.isArray(spec.kafka.listeners) && spec.kafka.listeners.length > 0, 'spec.kafka.listeners must not be empty');
    for (const listener of spec.kafka.listeners) {
      check(/^[a-z0-9]{1,11}$/.test(listener.name), `listener name ${listener.name} is invalid`);
      check(Number.isInteger(listener.port) && listener.port >= 9092, `listener ${listener.name}: port must be an integer >= 9092`);
      check(['internal', 'route', 'loadbalancer', 'nodeport', 'ingress', 'cluster-ip'].includes(listener.type), `listener ${listener.name}: bad type`);
      check(typeof listener.tls === 'boolean', `listener ${listener.name}: tls must be a boolean`);
    }
    check(spec.kafka.config === undefined || isPlainObject(spec.kafka.config), 'spec.kafka.config must be a map');
    check(spec.kafka.replicas === undefined && spec.kafka.storage === undefined, 'replicas and storage belong to the KafkaNodePool');
  },
  KafkaNodePool: (obj) => {
    const spec = obj.spec;
    check(typeof obj.metadata?.labels?.['strimzi.io/cluster'] === 'string', 'label strimzi.io/cluster is required');
    check(Number.isInteger(spec?.replicas) && spec.replicas >= 1, 'spec.replicas must be a positive integer');
    check(Array.isArray(spec.roles) && spec.roles.length > 0, 'spec.roles must not be empty');
    for (const role of spec.roles) check(['controller', 'broker'].includes(role), `unknown role ${role}`);
    check(['jbod', 'persistent-claim', 'ephemeral'].includes(spec.storage?.type), 'spec.storage.type is invalid');
    if (spec.storage.type === 'jbod') {
      check(Array.isArray(spec.storage.volumes) && spec.storage.volumes.length > 0, 'jbod storage needs volumes');
      for (const volume of spec.storage.volumes) {
        check(Number.isInteger(volume.id), 'jbod volume needs an integer id');
        check(['persistent-claim', 'ephemeral'].includes(volume.type), 'jbod volume type is invalid');
      }
    }
  },
  KafkaTopic: (obj) => {
    const spec = obj.spec;
    check(typeof obj.metadata?.labels?.['strimzi.io/cluster'] === 'string', 'label strimzi.io/cluster is required');
    check(Number.isInteger(spec?.partitions) && spec.partitions >= 1, 'spec.partitions must be a positive integer');
    check(Number.isInteger(spec.replicas) && spec.replicas >= 1, 'spec.replicas must be a positive integer');
    check(spec.topicName === undefined || typeof spec.topicName === 'string', 'spec.topicName must be a string');
    check(spec.config === undefined || isPlainObject(spec.config), 'spec.config must be a map');
  },
};

function validate(obj: Obj): void {
  check(isPlainObject(obj), 'a document must be a mapping');
  check(typeof obj.apiVersion === 'string' && typeof obj.kind === 'string', 'apiVersion and kind are required');
  check(typeof obj.metadata?.name === 'string' && DNS_SUBDOMAIN.test(obj.metadata.name), `invalid metadata.name ${obj.metadata?.name}`);
  const core = CORE_VALIDATORS[`${obj.apiVersion}/${obj.kind}`];
  if (core) return core(obj);
  if (obj.apiVersion === STRIMZI_API && STRIMZI_VALIDATORS[obj.kind]) return STRIMZI_VALIDATORS[obj.kind](obj);
  throw new Error(`no validator for ${obj.apiVersion} ${obj.kind}: add one before using this kind`);
}

function validationErrors(sources: Source[]): string[] {
  const errors: string[] = [];
  for (const { file, obj } of sources) {
    try {
      validate(obj);
    } catch (error) {
      errors.push(`${file} ${objectId(obj)}: ${(error as Error).message}`);
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------
// Queries on rendered objects
// ---------------------------------------------------------------------------------------

function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.filter((obj) => obj.kind === kind && obj.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind}/${name}, found ${found.length}`);
  return found[0];
}

function ofKind(objects: Obj[], kind: string): Obj[] {
  return objects.filter((obj) => obj.kind === kind);
}

function mainContainer(deployment: Obj): Obj {
  const containers: Obj[] = deployment.spec.template.spec.containers;
  return containers.find((container) => container.name === deployment.metadata.name) ?? containers[0];
}

function envValue(container: Obj, name: string): Obj | undefined {
  return (container.env ?? []).find((entry: Obj) => entry.name === name);
}

/** Resolves a probe's or Service's named port against the container's ports. */
function containerPortNumber(container: Obj, port: string | number): number | undefined {
  if (typeof port === 'number') return port;
  return (container.ports ?? []).find((entry: Obj) => entry.name === port)?.containerPort;
}

function quantity(value: string | number): number {
  const text = String(value);
  const units: Record<string, number> = { m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(text);
  if (!match) throw new Error(`bad quantity ${text}`);
  const unit = match[2];
  if (unit !== '' && units[unit] === undefined) throw new Error(`unknown unit in ${text}`);
  return Number(match[1]) * (unit === '' ? 1 : units[unit]);
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

const kustomizationDirs = [BASE_DIR, ...OVERLAYS.map((name) => join(K8S_DIR, 'overlays', name))];
const renderCache = new Map<string, Obj[]>();

/** Objects of `base` or of an overlay, rendered on first use (a rendering error fails the test using it). */
function rendered(name: string): Obj[] {
  let objects = renderCache.get(name);
  if (!objects) {
    objects = render(name === 'base' ? BASE_DIR : join(K8S_DIR, 'overlays', name));
    renderCache.set(name, objects);
  }
  return objects;
}

describe('kustomizations', () => {
  test.each(kustomizationDirs.map((dir) => [rel(dir), dir]))('%s lists only files that exist', (_label, dir) => {
    const kustomization = readKustomization(dir);
    expect(kustomization.apiVersion).toBe('kustomize.config.k8s.io/v1beta1');
    expect(kustomization.kind).toBe('Kustomization');
    const missing: string[] = [];
    for (const resource of kustomization.resources ?? []) {
      const path = join(dir, resource);
      const ok = existsSync(path) && (statSync(path).isFile() || existsSync(join(path, 'kustomization.yaml')));
      if (!ok) missing.push(`resource ${resource}`);
    }
    for (const patch of kustomization.patches ?? []) {
      if (!patch.path || !existsSync(join(dir, patch.path))) missing.push(`patch ${patch.path ?? '(inline)'}`);
    }
    expect(missing).toEqual([]);
    expect((kustomization.resources ?? []).length).toBeGreaterThan(0);
  });

  test('every manifest file of the base is used (except the Secret template)', () => {
    const listed = new Set<string>();
    const walk = (dir: string): void => {
      for (const resource of readKustomization(dir).resources ?? []) {
        const path = join(dir, resource);
        if (statSync(path).isDirectory()) walk(path);
        else listed.add(path);
      }
    };
    walk(BASE_DIR);
    const unused = yamlFiles(BASE_DIR).filter(
      (file) => !isKustomization(file) && !listed.has(file) && basename(file) !== 'secret.template.yaml',
    );
    expect(unused.map(rel)).toEqual([]);
  });

  test.each(['base', ...OVERLAYS].map((name) => [name]))('%s renders: every patch and image entry hits an object', (name) => {
    // render() throws on a missing resource, a patch matching nothing, a JSON 6902 path that
    // does not exist, or an image name no container uses.
    expect(() => rendered(name)).not.toThrow();
  });

  test('overlays change the base without adding or losing objects', () => {
    expect(rendered('production').length).toBe(rendered('base').length);
    expect(rendered('event-day').length).toBe(rendered('base').length);
    expect(rendered('production')).not.toEqual(rendered('base'));
    expect(rendered('event-day')).not.toEqual(rendered('production'));
  });
});

describe('schema validation', () => {
  const baseSources: Source[] = yamlFiles(BASE_DIR)
    .filter((file) => !isKustomization(file))
    .flatMap((file) => (readDocs(file) as Obj[]).map((obj) => ({ file: rel(file), obj })));

  test('every YAML document under k8s/base is a valid object', () => {
    expect(baseSources.length).toBeGreaterThan(40);
    expect(validationErrors(baseSources)).toEqual([]);
  });

  test('the core kinds are all present and checked by kubernetes-models', () => {
    const kinds = new Set(baseSources.map(({ obj }) => `${obj.apiVersion}/${obj.kind}`));
    for (const kind of [
      'apps/v1/Deployment',
      'apps/v1/StatefulSet',
      'v1/Service',
      'v1/ConfigMap',
      'v1/Secret',
      'v1/Namespace',
      'networking.k8s.io/v1/Ingress',
      'autoscaling/v2/HorizontalPodAutoscaler',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  test('the validators reject a broken object (the check has teeth)', () => {
    const deployment = structuredClone(find(rendered('base'), 'Deployment', 'catalog'));
    deployment.spec.replicas = 'two';
    expect(() => validate(deployment)).toThrow();
    const topic = structuredClone(find(rendered('base'), 'KafkaTopic', 'order.paid'));
    delete topic.spec.partitions;
    expect(() => validate(topic)).toThrow();
  });

  test.each(OVERLAYS.map((name) => [name]))('every patch file of %s is a well-formed patch', (name) => {
    const dir = join(K8S_DIR, 'overlays', name);
    const problems: string[] = [];
    for (const entry of readKustomization(dir).patches ?? []) {
      const docs = readDocs(join(dir, entry.path as string));
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) {
        if (entry.target) {
          if (!Array.isArray(doc) || !doc.every((op: Obj) => typeof op.op === 'string' && typeof op.path === 'string')) {
            problems.push(`${entry.path}: not a JSON 6902 list`);
          }
        } else if (!isPlainObject(doc) || !doc.apiVersion || !doc.kind || !doc.metadata?.name) {
          problems.push(`${entry.path}: strategic-merge patch without apiVersion/kind/metadata.name`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test.each(OVERLAYS.map((name) => [name]))('every object rendered by the %s overlay (base + patches) is valid', (name) => {
    const sources = rendered(name).map((obj) => ({ file: `overlays/${name}`, obj }));
    expect(validationErrors(sources)).toEqual([]);
  });
});

describe.each(['base', ...OVERLAYS].map((name) => [name]))('apps in %s', (name) => {
  let objects: Obj[] = [];
  beforeAll(() => {
    objects = rendered(name);
  });

  test.each(APPS.map((app) => [app.name, app]))('%s has a hardened Deployment with probes and resources', (_name, app) => {
    const deployment = find(objects, 'Deployment', app.name);
    const pod = deployment.spec.template.spec;
    const container = mainContainer(deployment);

    expect(deployment.spec.selector.matchLabels).toEqual(
      expect.objectContaining({ 'app.kubernetes.io/name': app.name }),
    );
    expect(deployment.spec.template.metadata.labels).toEqual(expect.objectContaining(deployment.spec.selector.matchLabels));
    expect(imageName(container.image)).toMatch(new RegExp(`(^|/)ticketing/${app.name}$`));
    if (name !== 'base') expect(container.image).toMatch(/:[\w][\w.-]*$|@sha256:/);

    expect(containerPortNumber(container, 'http')).toBe(app.port);
    expect(envValue(container, 'PORT')).toEqual({ name: 'PORT', value: String(app.port) });

    // The gateway's /healthz reports every service, so a service outage must not restart gateways.
    expect(container.livenessProbe?.httpGet?.path).toBe(app.name === 'gateway' ? '/readyz' : '/healthz');
    expect(containerPortNumber(container, container.livenessProbe.httpGet.port)).toBe(app.port);
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(containerPortNumber(container, container.readinessProbe.httpGet.port)).toBe(app.port);

    for (const kind of ['requests', 'limits']) {
      expect(container.resources?.[kind]?.cpu).toBeDefined();
      expect(container.resources?.[kind]?.memory).toBeDefined();
    }
    expect(quantity(container.resources.limits.cpu)).toBeGreaterThanOrEqual(quantity(container.resources.requests.cpu));
    expect(quantity(container.resources.limits.memory)).toBeGreaterThanOrEqual(quantity(container.resources.requests.memory));

    expect(pod.securityContext).toEqual(expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000 }));
    expect(container.securityContext).toEqual(
      expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
    );
    expect(container.securityContext.runAsUser ?? pod.securityContext.runAsUser).toBe(1000);
    expect(container.securityContext.capabilities?.drop).toContain('ALL');
    expect(container.securityContext.privileged).not.toBe(true);
    // A read-only root needs a writable /tmp.
    const tmp = (container.volumeMounts ?? []).find((mount: Obj) => mount.mountPath === '/tmp');
    expect(tmp).toBeDefined();
    expect(pod.volumes.find((volume: Obj) => volume.name === tmp.name)?.emptyDir).toBeDefined();
  });

  test.each(APPS.map((app) => [app.name, app]))('%s has a Service that reaches its pods', (_name, app) => {
    const service = find(objects, 'Service', app.name);
    const deployment = find(objects, 'Deployment', app.name);
    const container = mainContainer(deployment);
    const podLabels = deployment.spec.template.metadata.labels;
    expect(Object.keys(service.spec.selector).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(service.spec.selector)) expect(podLabels[key]).toBe(value);
    const port = service.spec.ports.find((entry: Obj) => entry.name === 'http');
    expect(port?.port).toBe(app.port);
    expect(containerPortNumber(container, port.targetPort ?? port.port)).toBe(app.port);
  });

  test('services get the bus, database and shared settings; the gateway gets every upstream', () => {
    const config = find(objects, 'ConfigMap', 'ticketing-config').data;
    expect(config.BUS).toBe('kafka');
    expect(config.DEV_TOOLS).toBe('false');
    expect(config.IDENTITY_URL).toBe('http://identity:3001');
    const kafka = ofKind(objects, 'Kafka')[0];
    expect(config.KAFKA_BROKERS.split(',')).toContain(`${kafka.metadata.name}-kafka-bootstrap:9092`);
    expect(config.REDIS_URL).toBe(`redis://redis:${find(objects, 'Service', 'redis').spec.ports[0].port}`);

    for (const app of APPS) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      expect(container.envFrom).toContainEqual({ configMapRef: { name: 'ticketing-config' } });
    }
    for (const app of SERVICES) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      expect(envValue(container, 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe('ticketing-secrets');
    }
    const gateway = mainContainer(find(objects, 'Deployment', 'gateway'));
    const upstreams: Record<string, string> = {
      IDENTITY_URL: 'identity',
      CATALOG_URL: 'catalog',
      ORDERS_URL: 'orders',
      PAYMENTS_URL: 'payments',
      COURTESY_URL: 'courtesy',
      TICKETS_VERIFIER_URL: 'tickets-verifier',
    };
    for (const [variable, target] of Object.entries(upstreams)) {
      const port = APPS.find((app) => app.name === target)?.port;
      expect(envValue(gateway, variable)?.value).toBe(`http://${target}:${port}`);
    }
    expect(envValue(gateway, 'STATIC_DIR')?.value).toBeDefined();
    const payments = mainContainer(find(objects, 'Deployment', 'payments'));
    for (const secret of ['ASAAS_API_KEY', 'ASAAS_WEBHOOK_TOKEN']) {
      expect(envValue(payments, secret)?.valueFrom?.secretKeyRef?.key).toBe(secret);
    }
    expect(envValue(payments, 'ASAAS_BASE_URL')?.value).toMatch(/^https:\/\/api(-sandbox)?\.asaas\.com\/v3$/);
    const mail = mainContainer(find(objects, 'Deployment', 'mail'));
    expect(envValue(mail, 'SMTP_URL')?.valueFrom?.secretKeyRef?.key).toBe('SMTP_URL');
    expect(envValue(mail, 'MAIL_FROM')?.value).toBeTruthy();
    const identity = mainContainer(find(objects, 'Deployment', 'identity'));
    expect(envValue(identity, 'ADMIN_PASSWORD')?.valueFrom?.secretKeyRef?.key).toBe('ADMIN_PASSWORD');
  });

  test('every secret key and config map referenced exists', () => {
    const template = readDocs(join(BASE_DIR, 'secret.template.yaml'))[0] as Obj;
    const secretKeys = new Set(Object.keys(template.stringData));
    const configMaps = new Set(ofKind(objects, 'ConfigMap').map((obj) => obj.metadata.name));
    const problems: string[] = [];
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'StatefulSet')]) {
      for (const container of containersOf(workload)) {
        for (const entry of container.env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (ref && (ref.name !== template.metadata.name || !secretKeys.has(ref.key))) {
            problems.push(`${objectId(workload)} ${entry.name} -> ${ref.name}/${ref.key}`);
          }
        }
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef && !configMaps.has(source.configMapRef.name)) problems.push(`${objectId(workload)} envFrom ${source.configMapRef.name}`);
          if (source.secretRef && source.secretRef.name !== template.metadata.name) problems.push(`${objectId(workload)} envFrom ${source.secretRef.name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('PostgreSQL is a StatefulSet with a claim and a Service; Redis a Deployment and a Service', () => {
    const postgres = find(objects, 'StatefulSet', 'postgres');
    expect(postgres.spec.serviceName).toBe('postgres');
    expect(postgres.spec.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage).toBeDefined();
    const claim = postgres.spec.volumeClaimTemplates[0].metadata.name;
    expect(mainContainer(postgres).volumeMounts.map((mount: Obj) => mount.name)).toContain(claim);
    expect(mainContainer(postgres).image).toMatch(/^postgres:17/);
    expect(find(objects, 'Service', 'postgres').spec.ports[0].port).toBe(5432);
    expect(mainContainer(find(objects, 'Deployment', 'redis')).image).toMatch(/^redis:7/);
    expect(find(objects, 'Service', 'redis').spec.ports[0].port).toBe(6379);
    for (const workload of [postgres, find(objects, 'Deployment', 'redis')]) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(mainContainer(workload).securityContext).toEqual(
        expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true }),
      );
      expect(mainContainer(workload).readinessProbe).toBeDefined();
      expect(mainContainer(workload).livenessProbe).toBeDefined();
    }
  });

  test('the Ingress sends door traffic straight to tickets-verifier and the rest to the gateway', () => {
    const ingresses = ofKind(objects, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const [ingress] = ingresses;
    const paths: Obj[] = ingress.spec.rules.flatMap((rule: Obj) => rule.http.paths);
    const route = (path: string): Obj | undefined => paths.find((entry) => entry.path === path);

    const verify = route('/api/verify-ticket');
    expect(verify?.pathType).toMatch(/^(Prefix|Exact)$/);
    expect(verify?.backend.service.name).toBe('tickets-verifier');
    const root = route('/');
    expect(root?.pathType).toBe('Prefix');
    expect(root?.backend.service.name).toBe('gateway');
    for (const entry of [verify, root] as Obj[]) {
      const service = find(objects, 'Service', entry.backend.service.name);
      const { name: portName, number: portNumber } = entry.backend.service.port;
      expect(service.spec.ports.some((port: Obj) => port.name === portName || port.port === portNumber)).toBe(true);
    }
    const hosts = ingress.spec.rules.map((rule: Obj) => rule.host);
    if (name === 'base') expect(hosts).toEqual(['ingressos.example.com.br']);
    for (const tls of ingress.spec.tls ?? []) expect(hosts).toEqual(expect.arrayContaining(tls.hosts));
    const publicHost = new URL(find(objects, 'ConfigMap', 'ticketing-config').data.PUBLIC_URL).host;
    expect(hosts).toContain(publicHost);
  });

  test('tickets-verifier is autoscaled on CPU between 2 and 20 replicas (6 minimum on event day)', () => {
    const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas).toHaveLength(1);
    const [hpa] = hpas;
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tickets-verifier' });
    expect(hpa.spec.minReplicas).toBe(name === 'event-day' ? 6 : 2);
    expect(hpa.spec.maxReplicas).toBe(20);
    const cpu = hpa.spec.metrics.find((metric: Obj) => metric.type === 'Resource' && metric.resource.name === 'cpu');
    expect(cpu?.resource.target.type).toBe('Utilization');
    expect(cpu.resource.target.averageUtilization).toBeGreaterThan(0);
    expect(cpu.resource.target.averageUtilization).toBeLessThanOrEqual(100);

    const verifier = find(objects, 'Deployment', 'tickets-verifier');
    // The HPA owns the replica count; a fixed count would be reset on every apply.
    expect(verifier.spec.replicas).toBeUndefined();
    expect(mainContainer(verifier).resources.requests.cpu).toBeDefined();
  });

  test('Strimzi runs Kafka in KRaft mode with a node pool and a topic per event', () => {
    const kafkas = ofKind(objects, 'Kafka');
    expect(kafkas).toHaveLength(1);
    const [kafka] = kafkas;
    expect(kafka.apiVersion).toBe(STRIMZI_API);
    expect(kafka.metadata.annotations).toEqual(
      expect.objectContaining({ 'strimzi.io/kraft': 'enabled', 'strimzi.io/node-pools': 'enabled' }),
    );
    expect(kafka.spec.zookeeper).toBeUndefined();
    expect(kafka.spec.kafka.listeners).toContainEqual(expect.objectContaining({ port: 9092, type: 'internal', tls: false }));

    const pools = ofKind(objects, 'KafkaNodePool');
    expect(pools.length).toBeGreaterThan(0);
    for (const pool of pools) {
      expect(pool.apiVersion).toBe(STRIMZI_API);
      expect(pool.metadata.labels['strimzi.io/cluster']).toBe(kafka.metadata.name);
    }
    const roles = new Set(pools.flatMap((pool) => pool.spec.roles));
    expect(roles).toEqual(new Set(['controller', 'broker']));
    const brokers = pools.filter((pool) => pool.spec.roles.includes('broker')).reduce((sum, pool) => sum + pool.spec.replicas, 0);

    const topics = ofKind(objects, 'KafkaTopic');
    const names = topics.map((topic) => topic.spec.topicName ?? topic.metadata.name);
    expect([...names].sort()).toEqual([...EVENTS].sort());
    for (const topic of topics) {
      expect(topic.apiVersion).toBe(STRIMZI_API);
      expect(topic.metadata.labels['strimzi.io/cluster']).toBe(kafka.metadata.name);
      expect(topic.spec.replicas).toBeLessThanOrEqual(brokers);
      const minIsr = topic.spec.config?.['min.insync.replicas'];
      if (minIsr !== undefined) expect(minIsr).toBeLessThanOrEqual(topic.spec.replicas);
    }
  });
});

describe('overlays', () => {
  test('production pins every app image to a tag and runs more replicas', () => {
    const images = readKustomization(join(K8S_DIR, 'overlays', 'production')).images ?? [];
    expect(images.map((image) => image.name).sort()).toEqual(APPS.map((app) => `ticketing/${app.name}`).sort());
    for (const image of images) expect(image.newTag ?? image.digest).toBeTruthy();
    for (const app of APPS.filter((entry) => entry.name !== 'tickets-verifier')) {
      const base = find(rendered('base'), 'Deployment', app.name).spec.replicas ?? 1;
      expect(find(rendered('production'), 'Deployment', app.name).spec.replicas).toBeGreaterThanOrEqual(Math.max(2, base));
    }
    const payments = mainContainer(find(rendered('production'), 'Deployment', 'payments'));
    expect(envValue(payments, 'ASAAS_BASE_URL')?.value).toBe('https://api.asaas.com/v3');
  });

  test('event day gives the door API more warm replicas and bigger pods than production', () => {
    const production = find(rendered('production'), 'HorizontalPodAutoscaler', 'tickets-verifier');
    const eventDay = find(rendered('event-day'), 'HorizontalPodAutoscaler', 'tickets-verifier');
    expect(eventDay.spec.minReplicas).toBeGreaterThan(production.spec.minReplicas);
    const before = mainContainer(find(rendered('production'), 'Deployment', 'tickets-verifier')).resources;
    const after = mainContainer(find(rendered('event-day'), 'Deployment', 'tickets-verifier')).resources;
    expect(quantity(after.requests.cpu)).toBeGreaterThan(quantity(before.requests.cpu));
    expect(quantity(after.limits.cpu)).toBeGreaterThanOrEqual(quantity(before.limits.cpu));
    // The rest of the container survives the patch.
    const verifier = mainContainer(find(rendered('event-day'), 'Deployment', 'tickets-verifier'));
    expect(verifier.readinessProbe.httpGet.path).toBe('/readyz');
    expect(verifier.image).toMatch(/ticketing\/tickets-verifier:/);
  });
});
