/**
 * Offline checks of the deployment topology under k8s/. The base, each overlay and the Gateway API
 * component are rendered by the real kustomize, and every rendered object is validated: core kinds
 * against the OpenAPI schemas of `kubernetes-models`, the Strimzi, CloudNativePG, Barman Cloud and Gateway API
 * custom resources against their CRD schemas pinned in k8s/test/crds (with ajv; from-crd.ts converts a CRD). The
 * overlays render with the Secrets' files `npm run k8s:secrets` writes, run for real into a copy of k8s/ as an
 * operator runs it.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import {
  EVENT_CONSUMERS,
  EVENT_OWNERS,
  GATEWAY,
  SERVICES as LISTED_SERVICES,
  eventSchemas,
  type ServiceName,
  urlSetting,
} from '@ticketing/proto';
import {
  DATABASE_ROLES,
  REDIS_USER_NAMES,
  SERVICE_SCHEMAS,
  baseConfigSchema,
  keyRing,
  loadConfig,
  loadServiceConfig,
} from '@ticketing/platform';
import { gatewayConfigSchema } from '@ticketing/gateway';
import { Ajv } from 'ajv';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import {
  K8S_DIR,
  PROVIDED,
  REPO_DIR,
  SECRETS_COMPONENT,
  entriesOf,
  find,
  kustomizeBuild,
  matchesLabels,
  ofKind,
  operatorCopy,
  runSecretsScript,
  selects,
  type Obj,
} from './render.ts';
import { SERVICE_DEFINITIONS as DEFINITIONS } from '../../scripts/lib/service-definitions.ts';

// ---------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------

const BASE_DIR = join(K8S_DIR, 'base');
const OVERLAYS = ['production', 'event-day'] as const;
const secretsDir = () => join(operatorCopy(), SECRETS_COMPONENT);

/**
 * Every kustomization the tests render, by name. `gateway-api` is production with components/gateway-api,
 * `dead-letters` production with components/dead-letters.
 */
const KUSTOMIZATIONS: Record<string, () => string> = {
  base: () => BASE_DIR,
  production: () => join(operatorCopy(), 'overlays', 'production'),
  'event-day': () => join(operatorCopy(), 'overlays', 'event-day'),
  'gateway-api': () => join(operatorCopy(), 'test', 'gateway-api'),
  'dead-letters': () => join(operatorCopy(), 'test', 'dead-letters'),
};

interface App {
  name: string;
  dir: string;
  entry: string;
  port: number;
}

/** The list of services (proto's system.ts) and the gateway: the manifests must deploy exactly these. */
const SERVICES: App[] = LISTED_SERVICES.map(({ name, dir, entry, port }) => ({ name, dir, entry, port }));
const APPS: App[] = [...SERVICES, GATEWAY];

/** Whom each service calls on /internal: the callers the list names for each callee. */
const CALLS: Record<string, string[]> = Object.fromEntries(
  SERVICES.map((caller) => [
    caller.name,
    LISTED_SERVICES.filter((callee) => (callee.callers as readonly string[]).includes(caller.name)).map(
      (callee) => callee.name,
    ),
  ]),
);

/** Every event type of proto's eventSchemas (the dead letters among them) is a Kafka topic. */
const EVENTS = Object.keys(eventSchemas);
/** The streams that peak on sale openings and at the doors get more partitions (more consumers in parallel). */
const BUSY_TOPICS = ['ticket.checked-in', 'order.paid'];
const DAY_MS = 24 * 60 * 60 * 1000;

const STRIMZI_API = 'kafka.strimzi.io/v1';
const CNPG_API = 'postgresql.cnpg.io/v1';
const BARMAN_CLOUD_API = 'barmancloud.cnpg.io/v1';
const BARMAN_CLOUD_PLUGIN = 'barman-cloud.cloudnative-pg.io';

/** What a service's consumers get to finish the event in hand and the bus to close, when it stops. */
const CONSUMERS_STOP_SECONDS = 5;
/** How long Node keeps an idle connection (`server.keepAliveTimeout`): a drain this long sees every client leave. */
const NODE_KEEP_ALIVE_SECONDS = 5;

// ---------------------------------------------------------------------------------------
// Loading and rendering
// ---------------------------------------------------------------------------------------

interface Source {
  file: string;
  obj: Obj;
}

function rel(file: string): string {
  return relative(REPO_DIR, file);
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

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
}

function readKustomization(dir: string): Kustomization {
  return parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
}

function objectId(obj: Obj): string {
  return `${obj.kind}/${obj.metadata?.name}`;
}

function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function podSpecs(obj: Obj): Obj[] {
  const spec = obj.kind === 'CronJob' ? obj.spec?.jobTemplate?.spec?.template?.spec : obj.spec?.template?.spec;
  return ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'].includes(obj.kind) && spec ? [spec] : [];
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
  'batch/v1/CronJob': (obj) => new CronJob(obj as never).validate(),
  'v1/Service': (obj) => new Service(obj as never).validate(),
  'v1/ConfigMap': (obj) => new ConfigMap(obj as never).validate(),
  // kustomize wraps long base64 values in lines, which the API server's decoder skips.
  'v1/Secret': (obj) => {
    const data = Object.entries(obj.data ?? {}).map(([key, value]) => [key, String(value).replace(/\n/g, '')]);
    new Secret({ ...obj, data: Object.fromEntries(data) } as never).validate();
  },
  'v1/Namespace': (obj) => new Namespace(obj as never).validate(),
  'v1/PersistentVolumeClaim': (obj) => new PersistentVolumeClaim(obj as never).validate(),
  'networking.k8s.io/v1/Ingress': (obj) => new Ingress(obj as never).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (obj) => new NetworkPolicy(obj as never).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (obj) => new HorizontalPodAutoscaler(obj as never).validate(),
  'policy/v1/PodDisruptionBudget': (obj) => new PodDisruptionBudget(obj as never).validate(),
};

const ajv = new Ajv({ allErrors: true });
// Kubernetes' own schema extension: the field keeps whatever it holds.
ajv.addKeyword({ keyword: 'x-kubernetes-preserve-unknown-fields', schemaType: 'boolean' });
for (const file of ['strimzi-v1', 'gateway-api-v1', 'cnpg-v1', 'barman-cloud-v1']) {
  ajv.addSchema(JSON.parse(readFileSync(join(K8S_DIR, 'test', 'crds', `${file}.schema.json`), 'utf8')), file);
}

/** A custom resource's spec, checked against the `kind` entry of a pinned CRD schema file. */
function crdValidator(file: string, kind: string): (obj: Obj) => void {
  return (obj) => {
    const validateSpec = ajv.getSchema(`${file}#/definitions/${kind}`);
    if (!validateSpec) throw new Error(`${file} has no schema for ${kind}`);
    for (const [key, value] of Object.entries(obj.metadata?.labels ?? {})) {
      check(typeof value === 'string', `label ${key} must be a string`);
    }
    check(isPlainObject(obj.spec), 'spec is required');
    if (!validateSpec(obj.spec)) throw new Error(ajv.errorsText(validateSpec.errors, { dataVar: 'spec' }));
  };
}

const CUSTOM_VALIDATORS: Record<string, (obj: Obj) => void> = {
  [`${STRIMZI_API}/Kafka`]: crdValidator('strimzi-v1', 'Kafka'),
  [`${STRIMZI_API}/KafkaNodePool`]: crdValidator('strimzi-v1', 'KafkaNodePool'),
  [`${STRIMZI_API}/KafkaTopic`]: crdValidator('strimzi-v1', 'KafkaTopic'),
  [`${STRIMZI_API}/KafkaUser`]: crdValidator('strimzi-v1', 'KafkaUser'),
  'gateway.networking.k8s.io/v1/HTTPRoute': crdValidator('gateway-api-v1', 'HTTPRoute'),
  [`${CNPG_API}/Cluster`]: crdValidator('cnpg-v1', 'Cluster'),
  [`${CNPG_API}/ScheduledBackup`]: crdValidator('cnpg-v1', 'ScheduledBackup'),
  [`${BARMAN_CLOUD_API}/ObjectStore`]: crdValidator('barman-cloud-v1', 'ObjectStore'),
};

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function check(condition: unknown, message: string): void {
  if (!condition) throw new Error(message);
}

function validate(obj: Obj): void {
  check(isPlainObject(obj), 'a document must be a mapping');
  check(typeof obj.apiVersion === 'string' && typeof obj.kind === 'string', 'apiVersion and kind are required');
  check(typeof obj.metadata?.name === 'string' && DNS_SUBDOMAIN.test(obj.metadata.name), `invalid metadata.name ${obj.metadata?.name}`);
  const validator = CORE_VALIDATORS[`${obj.apiVersion}/${obj.kind}`] ?? CUSTOM_VALIDATORS[`${obj.apiVersion}/${obj.kind}`];
  if (!validator) throw new Error(`no validator for ${obj.apiVersion} ${obj.kind}: add one before using this kind`);
  validator(obj);
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

function mainContainer(deployment: Obj): Obj {
  const containers: Obj[] = deployment.spec.template.spec.containers;
  return containers.find((container) => container.name === deployment.metadata.name) ?? containers[0];
}

function envValue(container: Obj, name: string): Obj | undefined {
  return (container.env ?? []).find((entry: Obj) => entry.name === name);
}

/** A generated object's name without the hash of its content kustomize appends. */
const unhashed = (name: string) => name.replace(/-[a-z0-9]{10}$/, '');

/** A secretKeyRef with its Secret's generated name as the manifests write it. */
const unhashedRef = (ref: Obj | undefined) => ref && { ...ref, name: unhashed(ref.name) };

/** The value a container's setting takes from its Secret. */
function secretValue(objects: Obj[], container: Obj, setting: string): string {
  const ref = envValue(container, setting)?.valueFrom?.secretKeyRef;
  if (!ref) throw new Error(`${container.name} reads ${setting} from no Secret`);
  return entriesOf(find(objects, 'Secret', ref.name))[ref.key]!;
}

/** The Secrets a CloudNativePG Cluster names: the superuser's login and the owner's (from scratch or a backup). */
function clusterSecrets(cluster: Obj): string[] {
  const { superuserSecret, bootstrap } = cluster.spec;
  return [superuserSecret, bootstrap?.initdb?.secret, bootstrap?.recovery?.secret].flatMap((ref) => (ref?.name ? [ref.name] : []));
}

/** Every Secret a workload's pods read (settings, envFrom, volumes), or an operator's object names, by that name. */
function secretsRead(workload: Obj): string[] {
  const names: (string | undefined)[] = containersOf(workload).flatMap((container) => [
    ...(container.env ?? []).map((entry: Obj) => entry.valueFrom?.secretKeyRef?.name),
    ...(container.envFrom ?? []).map((source: Obj) => source.secretRef?.name),
  ]);
  for (const spec of podSpecs(workload)) names.push(...(spec.volumes ?? []).map((volume: Obj) => volume.secret?.secretName));
  if (workload.kind === 'Cluster') names.push(...clusterSecrets(workload));
  if (workload.kind === 'ObjectStore') names.push(...Object.values<Obj>(workload.spec.configuration.s3Credentials).map((ref) => ref.name));
  return [...new Set(names.filter((entry) => entry !== undefined))].sort();
}

/** The service that owns a schema (tickets: the worker, not the door API, whose role has less). */
const schemaOwner = (schema: string) => LISTED_SERVICES.find((service) => service.schema === schema && service.role === schema)!.name;

/**
 * The one Secret each workload's pods (init containers included, or each operator's object) may read: its own
 * role's. A schema's dead-letter CronJob runs as the role that owns it, with that service's Secret.
 */
const OWN_SECRET: Record<string, string> = {
  ...Object.fromEntries(APPS.map((app) => [`Deployment/${app.name}`, `${app.name}-secrets`])),
  ...Object.fromEntries(SERVICE_SCHEMAS.map((schema) => [`CronJob/dead-letters-${schema}`, `${schemaOwner(schema)}-secrets`])),
  'Job/database-roles': 'database-roles',
  'Deployment/pgbouncer': 'pgbouncer-users',
  'Deployment/redis': 'redis-users',
  'Cluster/postgres': 'postgres-owner',
  'ObjectStore/postgres-backups': 'backup-object-store',
};

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

/** `key = value` settings of an ini text (sections ignored; `;` and `#` start comments). */
function iniSettings(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([\w.]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !/^\s*[;#]/.test(line)) settings[match[1]] = match[2];
  }
  return settings;
}

/** The section names and entries of an ini text, e.g. `[databases]` -> `ticketing = host=...`. */
function iniSection(text: string, section: string): Record<string, string> {
  const body = text.split(/^\s*\[/m).find((part) => part.startsWith(`${section}]`)) ?? '';
  return iniSettings(body.slice(section.length + 1));
}

type Labels = Record<string, string>;
type Peer = (peer: Obj) => boolean;

/** TCP ports that `direction` rules of the policies selecting a pod open towards peers accepted by `peer` (Infinity: any). */
function openPorts(policies: Obj[], labels: Labels, direction: 'ingress' | 'egress', peer: Peer): Set<number> {
  const ports = new Set<number>();
  for (const policy of policies.filter((entry) => selects(entry, labels))) {
    for (const rule of policy.spec[direction] ?? []) {
      if (!(rule[direction === 'egress' ? 'to' : 'from'] ?? []).some(peer)) continue;
      if (!rule.ports) ports.add(Infinity);
      for (const port of rule.ports ?? []) ports.add(port.port);
    }
  }
  return ports;
}

/** A peer of the same namespace, picked by pod labels. */
const podPeer =
  (labels: Labels): Peer =>
  (peer) =>
    !peer.namespaceSelector && !peer.ipBlock && matchesLabels(peer.podSelector, labels);

/** The TCP ports one pod of the namespace may open to another: its egress and the other's ingress both allow them. */
function allowedPorts(policies: Obj[], from: Labels, to: Labels): Set<number> {
  const egress = openPorts(policies, from, 'egress', podPeer(to));
  const ingress = openPorts(policies, to, 'ingress', podPeer(from));
  const any = (ports: Set<number>, port: number) => ports.has(port) || ports.has(Infinity);
  return new Set([...egress, ...ingress].filter((port) => Number.isFinite(port) && any(egress, port) && any(ingress, port)));
}

/** The labels of a workload's pods; a CloudNativePG Cluster's carry its inherited labels and the operator's own. */
function podLabels(objects: Obj[], name: string): Labels {
  const workload = objects.find((obj) => ['Deployment', 'StatefulSet', 'Cluster'].includes(obj.kind) && obj.metadata.name === name);
  if (!workload) throw new Error(`no workload ${name}`);
  if (workload.kind === 'Cluster') {
    return { ...workload.spec.inheritedMetadata?.labels, 'cnpg.io/cluster': name, 'cnpg.io/podRole': 'instance' };
  }
  return workload.spec.template.metadata.labels;
}

/** Where a public path rule (an Ingress path or an HTTPRoute match) sends requests. */
interface PublicRoute {
  path: string;
  exact: boolean;
  service: string;
  port: number;
}

/** The path rules of every Ingress, with named Service ports resolved to numbers. */
function ingressRoutes(objects: Obj[]): PublicRoute[] {
  return ofKind(objects, 'Ingress').flatMap((ingress) =>
    ingress.spec.rules.flatMap((rule: Obj) =>
      rule.http.paths.map((entry: Obj) => {
        const { name: service, port } = entry.backend.service;
        const ports: Obj[] = find(objects, 'Service', service).spec.ports;
        const number = port.number ?? ports.find((candidate) => candidate.name === port.name)?.port;
        return { path: entry.path, exact: entry.pathType === 'Exact', service, port: number };
      }),
    ),
  );
}

function httpRouteRoutes(route: Obj): PublicRoute[] {
  return route.spec.rules.map((rule: Obj) => ({
    path: rule.matches[0].path.value,
    exact: rule.matches[0].path.type === 'Exact',
    service: rule.backendRefs[0].name,
    port: rule.backendRefs[0].port,
  }));
}

const samePathRules = (routes: PublicRoute[]) =>
  [...routes].sort((a, b) => a.path.localeCompare(b.path) || Number(a.exact) - Number(b.exact));

/**
 * The rule a request path takes, as both Ingress and the Gateway API match: an Exact match first, then the
 * longest prefix, compared by whole path segments (`/api/door` does not match `/api/doorway`).
 */
function routeOf(routes: PublicRoute[], path: string): PublicRoute | undefined {
  const exact = routes.find((route) => route.exact && route.path === path);
  if (exact) return exact;
  const under = (prefix: string) => prefix === '/' || path === prefix || path.startsWith(`${prefix.replace(/\/$/, '')}/`);
  return routes
    .filter((route) => !route.exact && under(route.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** Public paths and the Service that must answer each: the door straight to the verifier, but its event list. */
const PUBLIC_PATHS: [string, string][] = [
  ['/api/verify-ticket', 'tickets-verifier'],
  ['/api/door/events', 'gateway'],
  ['/api/door/events/3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69/live', 'tickets-verifier'],
  ['/api/door/events/3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69/tickets', 'tickets-verifier'],
  ['/api/door/events/3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69/search', 'tickets-verifier'],
  ['/api/door/readings', 'tickets-verifier'],
  ['/api/doorway', 'gateway'],
  ['/api/events', 'gateway'],
  ['/api/auth/renew', 'gateway'],
  ['/api/ticket-keys', 'gateway'],
  ['/verificar', 'gateway'],
  ['/', 'gateway'],
];

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

const renderCache = new Map<string, Obj[]>();

/** Objects of a kustomization, rendered on first use (a rendering error fails the test using it). */
function rendered(name: string): Obj[] {
  let objects = renderCache.get(name);
  if (!objects) {
    objects = kustomizeBuild(KUSTOMIZATIONS[name]!());
    renderCache.set(name, objects);
  }
  return objects;
}

describe('kustomizations', () => {
  test.each(Object.keys(KUSTOMIZATIONS).map((name) => [name]))('%s renders with kustomize', (name) => {
    expect(rendered(name).length).toBeGreaterThan(40);
    for (const obj of rendered(name)) {
      if (obj.kind !== 'Namespace') expect(`${objectId(obj)} in ${obj.metadata.namespace}`).toBe(`${objectId(obj)} in ticketing`);
    }
  });

  test('every manifest file of the base is used', () => {
    const listed = new Set<string>();
    const walk = (dir: string): void => {
      for (const resource of readKustomization(dir).resources ?? []) {
        const path = join(dir, resource);
        if (statSync(path).isDirectory()) walk(path);
        else listed.add(path);
      }
    };
    walk(BASE_DIR);
    const unused = yamlFiles(BASE_DIR).filter((file) => !isKustomization(file) && !listed.has(file));
    expect(unused.map(rel)).toEqual([]);
  });

  test('overlays change the base and add only the generated Secrets and public keys', () => {
    const generated = (objects: Obj[]) =>
      objects.filter((obj) => obj.kind === 'Secret' || (obj.kind === 'ConfigMap' && unhashed(obj.metadata.name) === 'service-public-keys'));
    expect(generated(rendered('base'))).toEqual([]);
    const component = parse(readFileSync(join(K8S_DIR, SECRETS_COMPONENT, 'kustomization.yaml'), 'utf8'));
    const names = [...component.secretGenerator, ...component.configMapGenerator].map((entry: Obj) => entry.name);
    for (const overlay of OVERLAYS) {
      expect(generated(rendered(overlay)).map((obj) => unhashed(obj.metadata.name)).sort()).toEqual(names.sort());
      expect(rendered(overlay).length).toBe(rendered('base').length + names.length);
    }
    expect(rendered('production')).not.toEqual(rendered('base'));
    expect(rendered('event-day')).not.toEqual(rendered('production'));
  });

  test('the Gateway API component swaps the Ingress for an HTTPRoute and leaves the rest alone', () => {
    const withRoute = rendered('gateway-api');
    expect(ofKind(withRoute, 'Ingress')).toEqual([]);
    expect(ofKind(withRoute, 'HTTPRoute')).toHaveLength(1);
    const others = (objects: Obj[]) => objects.filter((obj) => !['Ingress', 'HTTPRoute'].includes(obj.kind));
    expect(others(withRoute)).toEqual(others(rendered('production')));
  });
});

describe('schema validation', () => {
  test.each(Object.keys(KUSTOMIZATIONS).map((name) => [name]))('every object rendered from %s is valid', (name) => {
    const sources = rendered(name).map((obj) => ({ file: name, obj }));
    expect(validationErrors(sources)).toEqual([]);
  });

  test('the core kinds are all present and checked by kubernetes-models, the custom ones by their CRD schemas', () => {
    const kinds = new Set(rendered('base').map((obj) => `${obj.apiVersion}/${obj.kind}`));
    for (const kind of [
      'apps/v1/Deployment',
      'v1/Service',
      'v1/ConfigMap',
      'v1/Namespace',
      'batch/v1/Job',
      'networking.k8s.io/v1/Ingress',
      'networking.k8s.io/v1/NetworkPolicy',
      'autoscaling/v2/HorizontalPodAutoscaler',
      'policy/v1/PodDisruptionBudget',
      `${STRIMZI_API}/Kafka`,
      `${STRIMZI_API}/KafkaNodePool`,
      `${STRIMZI_API}/KafkaTopic`,
      `${STRIMZI_API}/KafkaUser`,
      `${CNPG_API}/Cluster`,
      `${CNPG_API}/ScheduledBackup`,
      `${BARMAN_CLOUD_API}/ObjectStore`,
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  test('the validators reject a broken object (the check has teeth)', () => {
    const objects = rendered('gateway-api');
    const deployment = structuredClone(find(objects, 'Deployment', 'catalog'));
    deployment.spec.replicas = 'two';
    expect(() => validate(deployment)).toThrow();
    const policy = structuredClone(find(objects, 'NetworkPolicy', 'catalog'));
    policy.spec.ingress[0].ports[0].port = { number: 3002 };
    expect(() => validate(policy)).toThrow();
    const topic = structuredClone(find(objects, 'KafkaTopic', 'order.paid'));
    topic.spec.partitions = 0;
    expect(() => validate(topic)).toThrow(/partitions/);
    const kafka = structuredClone(ofKind(objects, 'Kafka')[0]);
    kafka.spec.kafka.replicas = 3;
    expect(() => validate(kafka)).toThrow(/additional properties/);
    const pool = structuredClone(ofKind(objects, 'KafkaNodePool')[0]);
    pool.spec.roles.push('zookeeper');
    expect(() => validate(pool)).toThrow(/roles/);
    const user = structuredClone(find(objects, 'KafkaUser', 'mail'));
    user.spec.authorization.acls[0].operation = 'Write';
    expect(() => validate(user)).toThrow(/additional properties/);
    const route = structuredClone(ofKind(objects, 'HTTPRoute')[0]);
    route.spec.rules[0].matches[0].path.type = 'Prefix';
    expect(() => validate(route)).toThrow(/path\/type/);
    const cluster = structuredClone(find(objects, 'Cluster', 'postgres'));
    cluster.spec.instances = 0;
    expect(() => validate(cluster)).toThrow(/instances/);
    const schedule = structuredClone(ofKind(objects, 'ScheduledBackup')[0]);
    schedule.spec.method = 'barman';
    expect(() => validate(schedule)).toThrow(/method/);
    const store = structuredClone(ofKind(objects, 'ObjectStore')[0]);
    store.spec.retentionPolicy = '30 days';
    expect(() => validate(store)).toThrow(/retentionPolicy/);
    const oldApi = { ...structuredClone(topic), apiVersion: 'kafka.strimzi.io/v1beta2' };
    expect(() => validate(oldApi)).toThrow(/no validator/);
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

  test.each(APPS.map((app) => [app.name, app]))(
    '%s migrates before it starts and stops within its grace period: pause, drain, requests in flight, consumers',
    (_name, app) => {
      const deployment = find(objects, 'Deployment', app.name);
      const pod = deployment.spec.template.spec;
      const container = mainContainer(deployment);
      // The settings the process reads: the shared ConfigMap, then its own literal values.
      const env = {
        ...find(objects, 'ConfigMap', 'ticketing-config').data,
        ...Object.fromEntries((container.env ?? []).filter((e: Obj) => 'value' in e).map((e: Obj) => [e.name, e.value])),
      };
      const isGateway = app.name === GATEWAY.name;
      const settings = loadConfig(isGateway ? gatewayConfigSchema : baseConfigSchema, env);

      const [sleep, seconds] = container.lifecycle?.preStop?.exec?.command ?? [];
      expect(sleep).toBe('/bin/sleep');
      // Endpoint removal takes a few seconds to reach every node; then the drain outlasts any kept connection.
      expect(Number(seconds)).toBeGreaterThanOrEqual(3);
      expect(settings.DRAIN_DELAY_MS / 1000).toBeGreaterThanOrEqual(NODE_KEEP_ALIVE_SECONDS);
      const stopSeconds =
        Number(seconds) +
        (settings.DRAIN_DELAY_MS + settings.DRAIN_TIMEOUT_MS) / 1000 +
        (isGateway ? 0 : CONSUMERS_STOP_SECONDS);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(stopSeconds);

      if (isGateway) return;
      // Migrated once per release by an init container of the same image, never within the startup probe.
      expect('MIGRATE_ON_START' in settings && settings.MIGRATE_ON_START).toBe(false);
      const [migrate] = pod.initContainers ?? [];
      expect(migrate.image).toBe(container.image);
      expect(migrate.args).toEqual(['node', app.entry, 'migrate']);
      expect(migrate.startupProbe ?? migrate.readinessProbe ?? migrate.livenessProbe).toBeUndefined();
      expect(migrate.securityContext).toEqual(container.securityContext);
      for (const name of ['DATABASE_DIRECT_URL', 'DB_SCHEMA']) expect(envValue(migrate, name)).toEqual(envValue(container, name));
    },
  );

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
    expect(config.KAFKA_SASL_MECHANISM).toBe('scram-sha-512');
    expect(config.REDIS_URL).toBeUndefined();

    for (const app of APPS) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      expect(container.envFrom).toContainEqual({ configMapRef: { name: 'ticketing-config' } });
    }
    for (const app of SERVICES) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      const pooled = envValue(container, 'DATABASE_URL')?.valueFrom?.secretKeyRef;
      const direct = envValue(container, 'DATABASE_DIRECT_URL')?.valueFrom?.secretKeyRef;
      // The same role, once through PgBouncer and once straight to PostgreSQL: both in the app's own Secret.
      expect(unhashedRef(pooled)).toEqual({ name: `${app.name}-secrets`, key: 'DATABASE_URL' });
      expect(direct).toEqual({ name: pooled.name, key: 'DATABASE_DIRECT_URL' });
      expect(Number(envValue(container, 'DB_POOL_MAX')?.value)).toBeGreaterThanOrEqual(2);
      // Each service it calls (the list names it among the callee's callers): in its own env, or the shared one.
      for (const callee of LISTED_SERVICES.filter((other) => (other.callers as readonly string[]).includes(app.name))) {
        const setting = urlSetting(callee.name);
        expect(envValue(container, setting)?.value ?? config[setting]).toBe(`http://${callee.name}:${callee.port}`);
      }
    }
    const gateway = mainContainer(find(objects, 'Deployment', 'gateway'));
    // Every service the gateway routes to; mail and the tickets worker take no request, so it only reports them.
    for (const app of LISTED_SERVICES.filter((service) => service.routes.length > 0)) {
      expect(envValue(gateway, urlSetting(app.name))?.value).toBe(`http://${app.name}:${app.port}`);
    }
    expect(envValue(gateway, 'STATIC_DIR')?.value).toBeDefined();
    const payments = mainContainer(find(objects, 'Deployment', 'payments'));
    for (const secret of ['ASAAS_API_KEY', 'ASAAS_WEBHOOK_TOKEN']) {
      expect(unhashedRef(envValue(payments, secret)?.valueFrom?.secretKeyRef)).toEqual({ name: 'payments-secrets', key: secret });
    }
    expect(envValue(payments, 'ASAAS_BASE_URL')?.value).toMatch(/^https:\/\/api(-sandbox)?\.asaas\.com\/v3$/);
    const mail = mainContainer(find(objects, 'Deployment', 'mail'));
    expect(unhashedRef(envValue(mail, 'SMTP_URL')?.valueFrom?.secretKeyRef)).toEqual({ name: 'mail-secrets', key: 'SMTP_URL' });
    expect(envValue(mail, 'MAIL_FROM')?.value).toBeTruthy();
    const identity = mainContainer(find(objects, 'Deployment', 'identity'));
    expect(unhashedRef(envValue(identity, 'ADMIN_PASSWORD')?.valueFrom?.secretKeyRef)).toEqual({ name: 'identity-secrets', key: 'ADMIN_PASSWORD' });
  });

  test('each app logs in to Redis as its own user and to Kafka as its own KafkaUser', () => {
    for (const app of APPS) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      expect(unhashedRef(envValue(container, 'REDIS_URL')?.valueFrom?.secretKeyRef)).toEqual({ name: `${app.name}-secrets`, key: 'REDIS_URL' });
    }
    for (const app of SERVICES) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      const password = envValue(container, 'KAFKA_PASSWORD')?.valueFrom?.secretKeyRef;
      expect(envValue(container, 'KAFKA_USERNAME')?.value).toBe(app.name);
      expect(unhashedRef(password)).toEqual({ name: `${app.name}-secrets`, key: 'KAFKA_PASSWORD' });
      // The User Operator sets the KafkaUser's password from the same key.
      expect(find(objects, 'KafkaUser', app.name).spec.authentication).toEqual({
        type: 'scram-sha-512',
        password: { valueFrom: { secretKeyRef: password } },
      });
    }
    // Each database role's password, for the Job that makes the roles.
    const job = mainContainer(find(objects, 'Job', 'database-roles'));
    const passwords = DATABASE_ROLES.map((role) => `${role.toUpperCase()}_DATABASE_PASSWORD`);
    for (const setting of passwords) {
      expect(unhashedRef(envValue(job, setting)?.valueFrom?.secretKeyRef)).toEqual({ name: 'database-roles', key: setting });
    }
  });

  test("a pod reads only its own role's Secret", () => {
    // In production, with the dead-letter CronJobs (the rest is production's, as dead-letters.test.ts checks).
    const workloads = (name === 'production' ? rendered('dead-letters') : objects).filter(
      (obj) => podSpecs(obj).length > 0 || ['Cluster', 'ObjectStore'].includes(obj.kind),
    );
    if (name === 'production') expect(ofKind(workloads, 'CronJob')).toHaveLength(SERVICE_SCHEMAS.length);
    const problems: string[] = [];
    for (const workload of workloads) {
      const read = secretsRead(workload).map(unhashed);
      const own = OWN_SECRET[objectId(workload)];
      if (read.some((secret) => secret !== own)) problems.push(`${objectId(workload)} reads ${read.join(', ')} (its own: ${own})`);
    }
    expect(problems).toEqual([]);
    // No two roles share a Secret: only the dead-letter CronJobs read their schema owner's.
    const roles = Object.keys(OWN_SECRET).filter((workload) => !workload.startsWith('CronJob/dead-letters-'));
    expect(new Set(Object.values(OWN_SECRET)).size).toBe(roles.length);
  });

  test('each service signs with its own private key, from an entry of its own, and reads every public key from one ConfigMap', () => {
    // Both tickets processes share one schema and outbox, so one identity: `tickets`.
    const identity = (app: string) => (app.startsWith('tickets-') ? 'tickets' : app);
    for (const app of SERVICES) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      expect([app.name, unhashedRef(envValue(container, 'SERVICE_KEY')?.valueFrom?.secretKeyRef)]).toEqual([
        app.name,
        { name: `${app.name}-secrets`, key: 'SERVICE_KEY' },
      ]);
      const publicKeys = envValue(container, 'SERVICE_PUBLIC_KEYS')?.valueFrom?.configMapKeyRef;
      expect({ ...publicKeys, name: unhashed(publicKeys.name) }).toEqual({ name: 'service-public-keys', key: 'SERVICE_PUBLIC_KEYS' });
      if (name !== 'base') {
        // Its private key is the one the list's public key under its name (`tickets` for both processes) checks.
        const ring = keyRing({ [identity(app.name)]: secretValue(objects, container, 'SERVICE_KEY') });
        const list = entriesOf(find(objects, 'ConfigMap', publicKeys.name)).SERVICE_PUBLIC_KEYS!;
        expect(list.split(',')).toContain(ring.publicKeys);
      }
    }
    const gateway = mainContainer(find(objects, 'Deployment', 'gateway'));
    expect(envValue(gateway, 'SERVICE_KEY')).toBeUndefined();
  });

  test("Redis starts with the ACL file of every app's user, written before it by an init container", () => {
    const redis = find(objects, 'Deployment', 'redis');
    const [init] = redis.spec.template.spec.initContainers;
    expect(init.command).toEqual(['node', 'services/platform/src/redis-users-main.ts', '/acl/users.acl']);
    expect(init.env.map((entry: Obj) => entry.valueFrom.secretKeyRef.key).sort()).toEqual(
      REDIS_USER_NAMES.map((user) => `${user.toUpperCase().replaceAll('-', '_')}_REDIS_PASSWORD`).sort(),
    );
    const args: string[] = mainContainer(redis).args;
    expect(args[args.indexOf('--aclfile') + 1]).toBe('/acl/users.acl');
    const mountOf = (container: Obj) => container.volumeMounts.find((mount: Obj) => mount.mountPath === '/acl')?.name;
    expect(mountOf(init)).toBe(mountOf(mainContainer(redis)));
    expect([...REDIS_USER_NAMES].sort()).toEqual(APPS.map((app) => app.name).sort());
  });

  test('the brokers ask every client to log in and refuse what no ACL allows', () => {
    const kafka = ofKind(objects, 'Kafka')[0];
    for (const listener of kafka.spec.kafka.listeners) expect(listener.authentication).toEqual({ type: 'scram-sha-512' });
    expect(kafka.spec.kafka.authorization).toEqual({ type: 'simple' });
    expect(kafka.spec.entityOperator.userOperator).toBeDefined();
  });

  test("each KafkaUser writes only its service's event types and reads only what its consumers handle", () => {
    const users = ofKind(objects, 'KafkaUser');
    expect(users.map((user) => user.metadata.name).sort()).toEqual(SERVICES.map((app) => app.name).sort());
    for (const user of users) {
      const name: string = user.metadata.name;
      expect(user.metadata.labels['strimzi.io/cluster']).toBe(ofKind(objects, 'Kafka')[0].metadata.name);
      expect(user.spec.authorization.type).toBe('simple');
      const granted = user.spec.authorization.acls.flatMap((acl: Obj) => {
        expect([name, acl.resource.patternType, acl.type ?? 'allow']).toEqual([name, 'literal', 'allow']);
        return acl.operations.map((operation: string) => `${operation} ${acl.resource.type} ${acl.resource.name}`);
      });
      // The door API and the worker are both the tickets service on the bus.
      const producer = name.startsWith('tickets-') ? 'tickets' : name;
      const writes = Object.entries(EVENT_OWNERS)
        .filter(([, owners]) => (owners as readonly string[]).includes(producer))
        .map(([topic]) => topic);
      const reads: readonly string[] = (EVENT_CONSUMERS as Record<string, readonly string[]>)[name] ?? [];
      const expected = [
        ...writes.flatMap((topic) => [`Write topic ${topic}`, `Describe topic ${topic}`]),
        ...reads.flatMap((topic) => [`Read topic ${topic}`, `Describe topic ${topic}`]),
        ...(reads.length > 0 ? [`Read group ${name}`] : []),
      ];
      expect([name, [...granted].sort()]).toEqual([name, expected.sort()]);
    }
  });

  test('every Secret and ConfigMap key referenced is generated', () => {
    // The base has no generated objects: its references are checked against the production overlay's, by name.
    const generated = name === 'base' ? rendered('production') : objects;
    const named = (kind: string, ref: string) =>
      generated.find(
        (obj) => obj.kind === kind && (obj.metadata.name === ref || (name === 'base' && unhashed(obj.metadata.name) === ref)),
      );
    const problems: string[] = [];
    const need = (where: string, kind: string, ref: string, key?: string) => {
      const obj = named(kind, ref);
      if (!obj || (key !== undefined && !(key in (obj.data ?? {})))) problems.push(`${where} -> ${kind} ${ref} ${key ?? ''}`);
    };
    for (const workload of objects.filter((obj) => podSpecs(obj).length > 0)) {
      for (const container of containersOf(workload)) {
        const where = `${objectId(workload)} ${container.name}`;
        for (const entry of container.env ?? []) {
          const secret = entry.valueFrom?.secretKeyRef;
          const configMap = entry.valueFrom?.configMapKeyRef;
          if (secret) need(`${where} ${entry.name}`, 'Secret', secret.name, secret.key);
          if (configMap) need(`${where} ${entry.name}`, 'ConfigMap', configMap.name, configMap.key);
        }
        for (const source of container.envFrom ?? []) {
          if (source.secretRef) need(where, 'Secret', source.secretRef.name);
          if (source.configMapRef) need(where, 'ConfigMap', source.configMapRef.name);
        }
      }
      for (const volume of podSpecs(workload).flatMap((spec) => spec.volumes ?? [])) {
        const where = `${objectId(workload)} volume ${volume.name}`;
        if (volume.secret) for (const item of volume.secret.items ?? [{}]) need(where, 'Secret', volume.secret.secretName, item.key);
        if (volume.configMap) for (const item of volume.configMap.items ?? [{}]) need(where, 'ConfigMap', volume.configMap.name, item.key);
      }
    }
    for (const user of ofKind(objects, 'KafkaUser')) {
      const ref = user.spec.authentication.password.valueFrom.secretKeyRef;
      need(objectId(user), 'Secret', ref.name, ref.key);
    }
    for (const store of ofKind(objects, 'ObjectStore')) {
      for (const [field, ref] of Object.entries<Obj>(store.spec.configuration.s3Credentials)) need(`${objectId(store)} ${field}`, 'Secret', ref.name, ref.key);
    }
    for (const cluster of ofKind(objects, 'Cluster')) {
      for (const secret of clusterSecrets(cluster)) need(objectId(cluster), 'Secret', secret);
    }
    expect(problems).toEqual([]);
  });

  test('PostgreSQL is a CloudNativePG Cluster with a standby and claims of its own; Redis a Deployment and a Service', () => {
    const postgres = find(objects, 'Cluster', 'postgres');
    expect(postgres.spec.instances).toBeGreaterThanOrEqual(2);
    expect(quantity(postgres.spec.storage.size)).toBeGreaterThanOrEqual(quantity('20Gi'));
    expect(postgres.spec.walStorage.size).toBeDefined();
    expect(postgres.spec.imageName).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:17/);
    expect(postgres.spec.bootstrap.initdb).toEqual(expect.objectContaining({ database: 'ticketing', owner: 'ticketing' }));
    // CloudNativePG makes the Services; nothing of the platform may claim their names.
    for (const suffix of ['rw', 'ro', 'r']) expect(ofKind(objects, 'Service').map((service) => service.metadata.name)).not.toContain(`postgres-${suffix}`);
    expect(mainContainer(find(objects, 'Deployment', 'redis')).image).toMatch(/^redis:7/);
    expect(find(objects, 'Service', 'redis').spec.ports[0].port).toBe(6379);
    for (const workload of [find(objects, 'Deployment', 'redis')]) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(mainContainer(workload).securityContext).toEqual(
        expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true }),
      );
      expect(mainContainer(workload).readinessProbe).toBeDefined();
      expect(mainContainer(workload).livenessProbe).toBeDefined();
    }
  });

  test('the Ingresses send the door straight to tickets-verifier, its event list and the rest to the gateway', () => {
    const routes = ingressRoutes(objects);
    for (const [path, service] of PUBLIC_PATHS) expect([path, routeOf(routes, path)?.service]).toEqual([path, service]);
    for (const route of routes) expect(route.port).toBe(APPS.find((app) => app.name === route.service)?.port);
    expect(routes).toContainEqual(expect.objectContaining({ path: '/api/door/events', exact: true, service: 'gateway' }));

    const ingresses = ofKind(objects, 'Ingress');
    const hosts = ingresses.flatMap((ingress) => ingress.spec.rules.map((rule: Obj) => rule.host));
    if (name === 'base') expect(new Set(hosts)).toEqual(new Set(['ingressos.example.com.br']));
    for (const ingress of ingresses) {
      const own = ingress.spec.rules.map((rule: Obj) => rule.host);
      expect(ingress.spec.tls.flatMap((tls: Obj) => tls.hosts)).toEqual(expect.arrayContaining(own));
      expect(ingress.spec.ingressClassName).toBe(ingresses[0].spec.ingressClassName);
    }
    const publicHost = new URL(find(objects, 'ConfigMap', 'ticketing-config').data.PUBLIC_URL).host;
    expect(new Set(hosts)).toEqual(new Set([publicHost]));
    // One certificate request for the host: two would fight over the same Secret.
    const issuers = ingresses.filter((ingress) => ingress.metadata.annotations?.['cert-manager.io/cluster-issuer']);
    expect(issuers.map((ingress) => ingress.metadata.name)).toEqual(name === 'base' ? [] : ['gateway']);
  });

  test("the door's live counts stream unbuffered for an hour; the site keeps the controller's defaults", () => {
    const holding = (path: string) =>
      ofKind(objects, 'Ingress').find((ingress) =>
        ingress.spec.rules.some((rule: Obj) => rule.http.paths.some((entry: Obj) => entry.path === path)),
      );
    const door = holding('/api/door')!.metadata.annotations;
    expect(door['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    expect(Number(door['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
    const site = holding('/')!;
    expect(site).not.toBe(holding('/api/door'));
    expect(site.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-buffering']).toBeUndefined();
    expect(site.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout']).toBeUndefined();
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

  test('Strimzi runs Kafka 4.1 in KRaft mode with node pools and a topic per event', () => {
    const kafkas = ofKind(objects, 'Kafka');
    expect(kafkas).toHaveLength(1);
    const [kafka] = kafkas;
    expect(kafka.apiVersion).toBe(STRIMZI_API);
    expect(kafka.spec.kafka.version).toMatch(/^4\.1\.\d+$/);
    expect(kafka.spec.kafka.metadataVersion).toMatch(/^4\.1-IV\d+$/);
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
      const topicName = topic.spec.topicName ?? topic.metadata.name;
      expect(topic.apiVersion).toBe(STRIMZI_API);
      expect(topic.metadata.labels['strimzi.io/cluster']).toBe(kafka.metadata.name);
      expect(topic.spec.replicas).toBeLessThanOrEqual(brokers);
      expect(topic.spec.config['min.insync.replicas']).toBeLessThan(topic.spec.replicas);
      expect(topic.spec.partitions).toBe(BUSY_TOPICS.includes(topicName) ? 6 : 3);
      expect(topic.spec.config['retention.ms']).toBe((topicName === 'bus.dead-letter' ? 30 : 7) * DAY_MS);
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

describe.each(['production', 'event-day'].map((name) => [name]))('database connections in %s', (name) => {
  let objects: Obj[] = [];
  let ini = '';
  beforeAll(() => {
    objects = rendered(name);
    // Generated by kustomize with a hash suffix: found through the volume that mounts it.
    const volumes: Obj[] = find(objects, 'Deployment', 'pgbouncer').spec.template.spec.volumes;
    const configMap = volumes.find((volume) => volume.configMap)?.configMap.name;
    expect(configMap).toMatch(/^pgbouncer-[a-z0-9]+$/);
    ini = find(objects, 'ConfigMap', configMap).data['pgbouncer.ini'];
  });

  test('PgBouncer pools transactions in front of PostgreSQL', () => {
    const pgbouncer = find(objects, 'Deployment', 'pgbouncer');
    expect(mainContainer(pgbouncer).image).toMatch(/^edoburu\/pgbouncer:v\d+\.\d+\.\d+/);
    const settings = iniSection(ini, 'pgbouncer');
    expect(settings.pool_mode).toBe('transaction');
    // The services' hot statements are named prepared statements: the pooler must keep them.
    expect(Number(settings.max_prepared_statements)).toBeGreaterThan(0);
    // The primary, wherever CloudNativePG has put it.
    expect(iniSection(ini, 'databases').ticketing).toBe(`host=${find(objects, 'Cluster', 'postgres').metadata.name}-rw port=5432 dbname=ticketing`);
    const service = find(objects, 'Service', 'pgbouncer');
    expect(service.spec.ports[0].port).toBe(Number(settings.listen_port));
    expect(containerPortNumber(mainContainer(pgbouncer), service.spec.ports[0].targetPort)).toBe(Number(settings.listen_port));
    // It reads its users from the Secret, where it is mounted.
    const authDir = mainContainer(pgbouncer).volumeMounts.find((mount: Obj) => settings.auth_file.startsWith(`${mount.mountPath}/`));
    const volume = pgbouncer.spec.template.spec.volumes.find((entry: Obj) => entry.name === authDir?.name);
    expect(volume.secret.items).toContainEqual({ key: 'userlist.txt', path: basename(settings.auth_file) });
  });

  test('each service reaches its role through PgBouncer, and PostgreSQL directly for sessions, with one password', () => {
    const volumes: Obj[] = find(objects, 'Deployment', 'pgbouncer').spec.template.spec.volumes;
    const userlist = entriesOf(find(objects, 'Secret', volumes.find((volume) => volume.secret)!.secret.secretName))['userlist.txt']!;
    const users = Object.fromEntries(
      userlist
        .trim()
        .split('\n')
        .map((line) => /^"([^"]+)" "([^"]*)"$/.exec(line)!.slice(1)),
    );
    const job = mainContainer(find(objects, 'Job', 'database-roles'));
    for (const app of LISTED_SERVICES) {
      const container = mainContainer(find(objects, 'Deployment', app.name));
      const pooled = new URL(secretValue(objects, container, 'DATABASE_URL'));
      const direct = new URL(secretValue(objects, container, 'DATABASE_DIRECT_URL'));
      expect(pooled.host).toBe(`pgbouncer:${find(objects, 'Service', 'pgbouncer').spec.ports[0].port}`);
      expect(direct.host).toBe(`${find(objects, 'Cluster', 'postgres').metadata.name}-rw:5432`);
      expect([pooled.username, direct.username, pooled.pathname]).toEqual([app.role, app.role, '/ticketing']);
      // The role's password, as the Job gives it to PostgreSQL and PgBouncer checks it.
      const password = secretValue(objects, job, `${app.role.toUpperCase()}_DATABASE_PASSWORD`);
      expect([app.name, pooled.password, direct.password, users[app.role]]).toEqual([app.name, password, password, password]);
    }
    expect(Object.keys(users).sort()).toEqual([...DATABASE_ROLES].sort());
  });

  test('20 verifier pods and every other service stay within PgBouncer and PostgreSQL limits', () => {
    const settings = iniSection(ini, 'pgbouncer');
    const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
    // The most pods a Deployment runs: the HPA's ceiling, or its replicas plus one surging during a rollout.
    const maxPods = (deployment: Obj): number =>
      hpas.find((hpa) => hpa.spec.scaleTargetRef.name === deployment.metadata.name)?.spec.maxReplicas ??
      (deployment.spec.replicas ?? 1) + 1;
    const services = SERVICES.map((app) => find(objects, 'Deployment', app.name));
    expect(maxPods(find(objects, 'Deployment', 'tickets-verifier'))).toBe(20);

    const clients = services.reduce((sum, deployment) => sum + maxPods(deployment) * Number(envValue(mainContainer(deployment), 'DB_POOL_MAX')?.value), 0);
    expect(clients).toBeLessThanOrEqual(Number(settings.max_client_conn));

    const roles = new Set(services.map((deployment) => new URL(secretValue(objects, mainContainer(deployment), 'DATABASE_URL')).username));
    const pooled = Number(settings.default_pool_size) * roles.size;
    expect(Number(settings.max_db_connections)).toBeLessThanOrEqual(pooled);
    const serverSide = Math.min(pooled, Number(settings.max_db_connections)) * find(objects, 'Deployment', 'pgbouncer').spec.replicas;
    // Migrations and the PostgreSQL bus: one session per pod; the database-roles Job; superuser_reserved_connections.
    const direct = services.reduce((sum, deployment) => sum + maxPods(deployment), 0) + 1 + 3;
    const maxConnections = Number(find(objects, 'Cluster', 'postgres').spec.postgresql.parameters.max_connections);
    expect(serverSide + direct).toBeLessThanOrEqual(maxConnections);
    expect({ clients, serverSide, direct, maxConnections }).toEqual({ clients: 220, serverSide: 105, direct: 48, maxConnections: 200 });
  });
});

/** The most data a loss of the whole database cluster may take: PostgreSQL's archive_timeout, at most. */
const RECOVERY_POINT_SECONDS = 60;
/** How far back a restore can go. */
const RECOVERY_WINDOW_DAYS = 30;

/** Seconds of a PostgreSQL duration setting (`60`, `60s`, `1min`, `5min`, `1h`). */
function seconds(value: string): number {
  const match = /^(\d+)\s*(s|min|h)?$/.exec(value);
  if (!match) throw new Error(`bad duration ${value}`);
  return Number(match[1]) * { s: 1, min: 60, h: 3600 }[match[2] ?? 's']!;
}

describe.each(['base', ...OVERLAYS].map((name) => [name]))('PostgreSQL backups in %s', (name) => {
  let objects: Obj[] = [];
  let cluster: Obj = {};
  beforeAll(() => {
    objects = rendered(name);
    cluster = find(objects, 'Cluster', 'postgres');
  });

  test('every WAL segment goes to the object store, within a minute when the database is quiet', () => {
    const archivers = (cluster.spec.plugins ?? []).filter((plugin: Obj) => plugin.isWALArchiver);
    expect(archivers).toEqual([expect.objectContaining({ name: BARMAN_CLOUD_PLUGIN })]);
    const store = find(objects, 'ObjectStore', archivers[0].parameters.barmanObjectName);
    expect(store.spec.configuration.destinationPath).toMatch(/^s3:\/\/[a-z0-9.-]+\//);
    expect(store.spec.configuration.wal).toBeDefined();
    // The in-tree archiver is deprecated: only the plugin archives.
    expect(cluster.spec.backup?.barmanObjectStore).toBeUndefined();
    expect(seconds(cluster.spec.postgresql.parameters.archive_timeout)).toBeLessThanOrEqual(RECOVERY_POINT_SECONDS);
  });

  test('a base backup of the cluster every night, kept with its WAL for 30 days', () => {
    const schedules = ofKind(objects, 'ScheduledBackup').filter((backup) => backup.spec.cluster.name === cluster.metadata.name);
    expect(schedules).toHaveLength(1);
    const [backup] = schedules;
    expect(backup.spec).toEqual(
      expect.objectContaining({ method: 'plugin', pluginConfiguration: { name: BARMAN_CLOUD_PLUGIN }, immediate: true }),
    );
    // Six fields, seconds first; a fixed time of day on every day.
    expect(backup.spec.schedule).toMatch(/^\d+ \d+ \d+ \* \* \*$/);
    const store = find(objects, 'ObjectStore', cluster.spec.plugins[0].parameters.barmanObjectName);
    const [, amount, unit] = /^(\d+)([dwm])$/.exec(store.spec.retentionPolicy)!;
    expect(Number(amount) * { d: 1, w: 7, m: 30 }[unit!]!).toBeGreaterThanOrEqual(RECOVERY_WINDOW_DAYS);
  });
});

describe('the Secrets `npm run k8s:secrets` writes', () => {
  let objects: Obj[] = [];
  beforeAll(() => {
    objects = rendered('production');
  });

  test('each app logs in to Redis as its own user, with the password Redis is given for it', () => {
    const init = find(objects, 'Deployment', 'redis').spec.template.spec.initContainers[0];
    for (const app of APPS) {
      const url = new URL(secretValue(objects, mainContainer(find(objects, 'Deployment', app.name)), 'REDIS_URL'));
      const password = secretValue(objects, init, `${app.name.toUpperCase().replaceAll('-', '_')}_REDIS_PASSWORD`);
      expect([url.username, url.host, url.password]).toEqual([app.name, `redis:${find(objects, 'Service', 'redis').spec.ports[0].port}`, password]);
    }
  });

  test("CloudNativePG sets the owner's password the database-roles Job logs in with; the superuser has none", () => {
    const cluster = find(objects, 'Cluster', 'postgres');
    const owner = new URL(secretValue(objects, mainContainer(find(objects, 'Job', 'database-roles')), 'DATABASE_URL'));
    expect([owner.host, owner.pathname]).toEqual([`${cluster.metadata.name}-rw:5432`, `/${cluster.spec.bootstrap.initdb.database}`]);
    const login = find(objects, 'Secret', cluster.spec.bootstrap.initdb.secret.name);
    expect(login.type).toBe('kubernetes.io/basic-auth');
    expect(entriesOf(login)).toEqual({ username: cluster.spec.bootstrap.initdb.owner, password: owner.password });
    expect(owner.username).toBe(cluster.spec.bootstrap.initdb.owner);
    expect([cluster.spec.enableSuperuserAccess, cluster.spec.superuserSecret]).toEqual([false, undefined]);
  });

  test("the operator's values go to their own role's Secret: Asaas to payments, the relay to mail, the bucket's keys to the backups", () => {
    const payments = mainContainer(find(objects, 'Deployment', 'payments'));
    expect(secretValue(objects, payments, 'ASAAS_API_KEY')).toBe(PROVIDED.ASAAS_API_KEY);
    const smtp = new URL(secretValue(objects, mainContainer(find(objects, 'Deployment', 'mail')), 'SMTP_URL'));
    expect([smtp.protocol, smtp.host, smtp.username, decodeURIComponent(smtp.password)]).toEqual([
      'smtp:',
      'smtp.relay.com.br:587',
      PROVIDED.SMTP_USERNAME,
      PROVIDED.SMTP_PASSWORD,
    ]);
    // The bucket's keys, as the ObjectStore reads them.
    const { accessKeyId, secretAccessKey } = find(objects, 'ObjectStore', 'postgres-backups').spec.configuration.s3Credentials;
    expect([accessKeyId, secretAccessKey].map((ref: Obj) => entriesOf(find(objects, 'Secret', ref.name))[ref.key])).toEqual([
      PROVIDED.BACKUP_ACCESS_KEY_ID,
      PROVIDED.BACKUP_ACCESS_SECRET_KEY,
    ]);
  });

  test('no placeholder is left, and every generated value is long, random and made once', () => {
    const rendering = JSON.stringify(objects.map((obj) => ({ ...obj, data: obj.data && entriesOf(obj) })));
    expect(rendering).not.toMatch(/CHANGE_ME/);
    for (const secret of ofKind(objects, 'Secret')) {
      for (const [key, value] of Object.entries(entriesOf(secret))) expect([secret.metadata.name, key, value.trim()]).not.toContain('');
    }
    const made = Object.values(parseEnv(readFileSync(join(secretsDir(), 'generated.env'), 'utf8')));
    expect(made.length).toBeGreaterThan(30);
    expect(new Set(made).size).toBe(made.length);
    for (const value of made) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test.each([...SERVICES, GATEWAY].map((app) => [app.name]))(
    '%s boots in production with the settings its pod gets',
    (appName) => {
      const container = mainContainer(find(objects, 'Deployment', appName));
      const env: Record<string, string> = {};
      for (const source of container.envFrom ?? []) Object.assign(env, entriesOf(find(objects, 'ConfigMap', source.configMapRef.name)));
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.secretKeyRef ?? entry.valueFrom?.configMapKeyRef;
        const kind = entry.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap';
        env[entry.name] = ref ? entriesOf(find(objects, kind, ref.name))[ref.key]! : entry.value;
      }
      expect(env.NODE_ENV).toBe('production');
      // The operator's own address and administrator instead of the overlay's examples, which production refuses.
      Object.assign(env, { PUBLIC_URL: 'https://ingressos.educacaofarma.com.br' });
      if (appName === 'identity') env.ADMIN_EMAIL = 'ti@educacaofarma.com.br';
      if (appName === GATEWAY.name) expect(loadConfig(gatewayConfigSchema, env)).toBeDefined();
      else expect(loadServiceConfig(DEFINITIONS[appName as ServiceName], env).config.NODE_ENV).toBe('production');
    },
  );

  test('run again, the script keeps every value it made and writes the same files', () => {
    const dir = secretsDir();
    const files = () => Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
    const before = files();
    expect(runSecretsScript(dir).status).toBe(0);
    expect(files()).toEqual(before);
  });

  test("with POSTGRES_HOST in provided.env (a restored cluster's primary), every direct URL and the owner's go there", () => {
    const copy = mkdtempSync(join(tmpdir(), 'k8s-secrets-'));
    try {
      cpSync(secretsDir(), copy, { recursive: true });
      writeFileSync(join(copy, 'provided.env'), `${readFileSync(join(copy, 'provided.env'), 'utf8')}POSTGRES_HOST=postgres-pitr-rw:5432\n`);
      expect(runSecretsScript(copy).status).toBe(0);
      const setting = (file: string, name: string) => new URL(parseEnv(readFileSync(join(copy, file), 'utf8'))[name]!);
      for (const app of LISTED_SERVICES) {
        expect([setting(`${app.name}-secrets.env`, 'DATABASE_DIRECT_URL').host, setting(`${app.name}-secrets.env`, 'DATABASE_URL').host]).toEqual([
          'postgres-pitr-rw:5432',
          'pgbouncer:6432',
        ]);
      }
      expect(setting('database-roles.env', 'DATABASE_URL').host).toBe('postgres-pitr-rw:5432');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('network isolation', () => {
  let objects: Obj[] = [];
  let policies: Obj[] = [];
  beforeAll(() => {
    objects = rendered('production');
    policies = ofKind(objects, 'NetworkPolicy');
  });

  test('everything is denied unless allowed, DNS excepted', () => {
    const deny = find(policies, 'NetworkPolicy', 'default-deny');
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const dns = (peer: Obj) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system';
    for (const app of APPS) {
      const ports = openPorts(policies, podLabels(objects, app.name), 'egress', dns);
      expect(ports).toEqual(new Set([53]));
    }
  });

  test('the gateway reaches every app; each service only the services it calls', () => {
    const problems: string[] = [];
    for (const from of APPS) {
      for (const to of APPS) {
        if (from === to) continue;
        const expected = from.name === 'gateway' || CALLS[from.name]?.includes(to.name) ? [to.port] : [];
        const actual = [...allowedPorts(policies, podLabels(objects, from.name), podLabels(objects, to.name))];
        if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${from.name} -> ${to.name}: ${actual} (expected ${expected})`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('only the gateway and tickets-verifier take traffic from the edge', () => {
    const edge = (peer: Obj) => peer.namespaceSelector?.matchLabels?.['ticketing/edge'] === 'true';
    for (const app of APPS) {
      const ports = [...openPorts(policies, podLabels(objects, app.name), 'ingress', edge)];
      expect([app.name, ports]).toEqual([app.name, ['gateway', 'tickets-verifier'].includes(app.name) ? [app.port] : []]);
    }
  });

  test('services reach PgBouncer, PostgreSQL, Redis and Kafka; the gateway only Redis', () => {
    const kafka: Labels = { 'strimzi.io/cluster': 'ticketing', 'strimzi.io/kind': 'Kafka', 'strimzi.io/name': 'ticketing-kafka' };
    for (const app of SERVICES) {
      const labels = podLabels(objects, app.name);
      expect(allowedPorts(policies, labels, podLabels(objects, 'pgbouncer'))).toEqual(new Set([6432]));
      expect(allowedPorts(policies, labels, podLabels(objects, 'postgres'))).toEqual(new Set([5432]));
      expect(allowedPorts(policies, labels, podLabels(objects, 'redis'))).toEqual(new Set([6379]));
      // Ingress to the brokers is Strimzi's own policy, from the listener's peers.
      expect(openPorts(policies, labels, 'egress', podPeer(kafka))).toEqual(new Set([9092]));
      const listener = ofKind(objects, 'Kafka')[0].spec.kafka.listeners.find((entry: Obj) => entry.port === 9092);
      expect(listener.networkPolicyPeers.some((peer: Obj) => matchesLabels(peer.podSelector, labels))).toBe(true);
    }
    const gateway = podLabels(objects, 'gateway');
    expect(allowedPorts(policies, gateway, podLabels(objects, 'redis'))).toEqual(new Set([6379]));
    expect(allowedPorts(policies, gateway, podLabels(objects, 'postgres'))).toEqual(new Set());
    expect(allowedPorts(policies, gateway, podLabels(objects, 'pgbouncer'))).toEqual(new Set());
    expect(allowedPorts(policies, podLabels(objects, 'pgbouncer'), podLabels(objects, 'postgres'))).toEqual(new Set([5432]));
  });

  test('PostgreSQL takes its standby and the operator; it reaches the object store and the API over HTTPS', () => {
    const postgres = podLabels(objects, 'postgres');
    expect(allowedPorts(policies, postgres, postgres)).toEqual(new Set([5432]));
    const operator = (peer: Obj) => peer.namespaceSelector?.matchLabels?.['ticketing/postgres-operator'] === 'true';
    expect(openPorts(policies, postgres, 'ingress', operator)).toEqual(new Set([8000]));
    const outside = (peer: Obj) => peer.ipBlock?.cidr === '0.0.0.0/0';
    expect(openPorts(policies, postgres, 'egress', outside)).toEqual(new Set([443, 6443]));
    const roles = find(objects, 'Job', 'database-roles').spec.template.metadata.labels;
    expect(allowedPorts(policies, roles, postgres)).toEqual(new Set([5432]));
  });

  test("Prometheus reaches each app's metrics port; the gateway's is its ops port, which no Service exposes", () => {
    const monitoring = (peer: Obj) => peer.namespaceSelector?.matchLabels?.['ticketing/monitoring'] === 'true';
    for (const app of APPS) {
      const deployment = find(objects, 'Deployment', app.name);
      const metricsPort = Number(deployment.spec.template.metadata.annotations['prometheus.io/port']);
      expect([app.name, metricsPort]).toEqual([app.name, app.name === 'gateway' ? 9090 : app.port]);
      expect(openPorts(policies, podLabels(objects, app.name), 'ingress', monitoring).has(metricsPort)).toBe(true);
    }
    const gateway = mainContainer(find(objects, 'Deployment', 'gateway'));
    expect(containerPortNumber(gateway, 'ops')).toBe(9090);
    expect(envValue(gateway, 'OPS_PORT')).toEqual({ name: 'OPS_PORT', value: '9090' });
    const exposed = find(objects, 'Service', 'gateway').spec.ports.map((port: Obj) => port.targetPort);
    expect(exposed).toEqual(['http']);
  });

  test('only mail leaves the cluster for SMTP and only payments for HTTPS (Asaas)', () => {
    const outside = (peer: Obj) => peer.ipBlock?.cidr === '0.0.0.0/0';
    for (const app of APPS) {
      const ports = [...openPorts(policies, podLabels(objects, app.name), 'egress', outside)].sort((a, b) => a - b);
      const expected = app.name === 'mail' ? [25, 465, 587] : app.name === 'payments' ? [443] : [];
      expect([app.name, ports]).toEqual([app.name, expected]);
    }
  });
});

describe('public routes', () => {
  test('the Ingresses name a class and the HTTPRoute routes the same paths to the same Services', () => {
    const production = rendered('production');
    for (const ingress of ofKind(production, 'Ingress')) expect(ingress.spec.ingressClassName).toBeTruthy();
    const objects = rendered('gateway-api');
    const route = find(objects, 'HTTPRoute', 'gateway');
    expect(route.spec.parentRefs[0]).toEqual(expect.objectContaining({ kind: 'Gateway', name: expect.any(String) }));
    const hosts = ofKind(production, 'Ingress').flatMap((ingress) => ingress.spec.rules.map((rule: Obj) => rule.host));
    expect(route.spec.hostnames).toEqual([...new Set(hosts)]);

    const fromRoute = httpRouteRoutes(route);
    expect(samePathRules(fromRoute)).toEqual(samePathRules(ingressRoutes(production)));
    for (const [path, service] of PUBLIC_PATHS) expect([path, routeOf(fromRoute, path)?.service]).toEqual([path, service]);
    // Envoy's default of 15 s would cut the live counts: the door's rule waits as long as nginx does.
    const door = route.spec.rules.find((rule: Obj) => rule.matches[0].path.value === '/api/door');
    expect(door.timeouts).toEqual({ request: '1h' });
  });
});
