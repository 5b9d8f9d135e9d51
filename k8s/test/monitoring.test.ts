/**
 * The monitoring component (k8s/components/monitoring) on the production overlay, rendered by the real kustomize:
 * PodMonitors and PrometheusRules checked against the prometheus-operator CRD schemas pinned in k8s/test/crds, every
 * app scraped where it serves /metrics and allowed there by the NetworkPolicies, the rule files in promtool's form,
 * every PromQL expression (alerts and dashboard panels) parsed by Prometheus's own grammar (lezer-promql) and naming
 * only metrics the code exports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { Ajv } from 'ajv';
import { parseSync } from '@swc/core';
import { ConfigMap } from 'kubernetes-models/v1';
import { GATEWAY, SERVICES } from '@ticketing/proto';
import { createMetrics } from '@ticketing/platform';
import { K8S_DIR, REPO_DIR, find, ofKind, opens, rendered, type Obj } from './render.ts';

const API = 'monitoring.coreos.com/v1';
const APPS = [...SERVICES, GATEWAY].map(({ name, port }) => ({ name, port }));
/** Where each app serves /metrics: its own port, the gateway its ops port (which no Service exposes). */
const metricsPort = (app: { name: string; port: number }) => (app.name === 'gateway' ? 9090 : app.port);
const SEVERITIES = ['critical', 'warning', 'info'];
/** A Prometheus duration, as `for:` takes it. */
const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;

// ---------------------------------------------------------------------------------------
// What the code exports
// ---------------------------------------------------------------------------------------

const SERIES_OF: Record<string, string[]> = {
  Counter: [''],
  Gauge: [''],
  Histogram: ['_bucket', '_sum', '_count'],
  Summary: ['', '_sum', '_count'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

type Node = Record<string, any>;

/** Every AST node below `node`, depth first (swc's nodes are plain objects with a `type`). */
function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) for (const child of node) yield* walk(child);
  else if (node && typeof node === 'object') {
    if (typeof (node as Node).type === 'string') yield node as Node;
    for (const value of Object.values(node)) if (value && typeof value === 'object') yield* walk(value);
  }
}

/**
 * The series every `new Counter|Gauge|Histogram|Summary({ name })` of the apps' sources makes (read with swc's
 * TypeScript parser; a name held in a const of the same file is followed), plus prom-client's default metrics.
 */
async function exportedSeries(): Promise<Set<string>> {
  const dirs = [
    join(REPO_DIR, 'gateway', 'src'),
    ...readdirSync(join(REPO_DIR, 'services')).map((name) => join(REPO_DIR, 'services', name, 'src')),
  ];
  const series = new Set<string>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const nodes = [...walk(parseSync(readFileSync(file, 'utf8'), { syntax: 'typescript', target: 'es2024' }))];
    const constants = new Map<string, string>();
    for (const node of nodes) {
      if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init?.type === 'StringLiteral') {
        constants.set(node.id.value, node.init.value);
      }
    }
    for (const node of nodes) {
      if (node.type !== 'NewExpression') continue;
      const kind = node.callee.type === 'Identifier' ? node.callee.value : node.callee.property?.value;
      const options = node.arguments?.[0]?.expression;
      if (!SERIES_OF[kind] || options?.type !== 'ObjectExpression') continue;
      const name = options.properties.find(
        (property: Node) => property.type === 'KeyValueProperty' && property.key.value === 'name',
      )?.value;
      if (!name) continue;
      const text = name.type === 'StringLiteral' ? name.value : name.type === 'Identifier' ? constants.get(name.value) : undefined;
      if (!text) throw new Error(`${file}: a ${kind} whose name is not a string this test can read`);
      for (const suffix of SERIES_OF[kind]!) series.add(`${text}${suffix}`);
    }
  }
  // prom-client's default metrics (process_*, nodejs_*), as every app's registry has them.
  for (const metric of await createMetrics('catalogue').registry.getMetricsAsJSON()) {
    for (const suffix of SERIES_OF[metric.type === 'histogram' ? 'Histogram' : metric.type === 'summary' ? 'Summary' : 'Gauge']!) {
      series.add(`${metric.name}${suffix}`);
    }
  }
  return series;
}

// ---------------------------------------------------------------------------------------
// PromQL
// ---------------------------------------------------------------------------------------

/** The syntax errors lezer-promql finds in an expression, and the metric names its selectors read. */
function parsePromql(expr: string): { errors: string[]; metrics: string[] } {
  const errors: string[] = [];
  const metrics: string[] = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(node.from, node.from + 20))}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(expr.slice(node.from, node.to));
    },
  });
  return { errors, metrics };
}

// ---------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------

/** The CRDs' patterns are Go regular expressions: their inline `(?i)` becomes JavaScript's `i` flag. */
const goRegExp = Object.assign(
  (pattern: string, flags: string) =>
    pattern.includes('(?i)') ? new RegExp(pattern.replaceAll('(?i)', ''), `${flags}i`) : new RegExp(pattern, flags),
  { code: 'goRegExp' },
);
// The CRDs put `pattern` on fields typed by x-kubernetes-int-or-string: no strict typing.
const ajv = new Ajv({ allErrors: true, strictTypes: false, code: { regExp: goRegExp } });
// Kubernetes' own schema extensions: annotations for the API server, no constraint on the value.
for (const keyword of ['x-kubernetes-int-or-string', 'x-kubernetes-map-type', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys']) {
  ajv.addKeyword({ keyword });
}
ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && Math.abs(value) < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
ajv.addSchema(JSON.parse(readFileSync(join(K8S_DIR, 'test', 'crds', 'prometheus-operator-v1.schema.json'), 'utf8')), 'po');

function validate(obj: Obj): void {
  if (obj.apiVersion === 'v1' && obj.kind === 'ConfigMap') {
    new ConfigMap(obj as never).validate();
    return;
  }
  if (obj.apiVersion !== API) throw new Error(`no validator for ${obj.apiVersion} ${obj.kind}`);
  const validateSpec = ajv.getSchema(`po#/definitions/${obj.kind}`);
  if (!validateSpec) throw new Error(`the pinned CRDs have no ${obj.kind}`);
  if (!validateSpec(obj.spec)) throw new Error(ajv.errorsText(validateSpec.errors, { dataVar: 'spec' }));
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

let production: Obj[] = [];
let objects: Obj[] = [];
let added: Obj[] = [];
let exported = new Set<string>();

beforeAll(async () => {
  production = rendered('overlays/production');
  objects = rendered('test/monitoring');
  const before = new Set(production.map((obj) => `${obj.kind}/${obj.metadata.name}`));
  added = objects.filter((obj) => !before.has(`${obj.kind}/${obj.metadata.name}`));
  exported = await exportedSeries();
});

const rules = (): Obj[] => ofKind(objects, 'PrometheusRule').flatMap((rule) => rule.spec.groups.flatMap((group: Obj) => group.rules));
const dashboard = (): Obj => JSON.parse(find(objects, 'ConfigMap', 'grafana-dashboard-event-day').data['event-day.json']);
const panelQueries = (): { panel: string; expr: string }[] =>
  dashboard().panels.flatMap((panel: Obj) => (panel.targets ?? []).map((target: Obj) => ({ panel: panel.title, expr: target.expr })));

test('the component adds PodMonitors, PrometheusRules and the dashboard in the namespace, and changes nothing else', () => {
  expect(new Set(added.map((obj) => obj.kind))).toEqual(new Set(['PodMonitor', 'PrometheusRule', 'ConfigMap']));
  for (const obj of added) expect([obj.kind, obj.metadata.name, obj.metadata.namespace]).toEqual([obj.kind, obj.metadata.name, 'ticketing']);
  expect(objects.filter((obj) => !added.includes(obj))).toEqual(production);
  expect(find(objects, 'ConfigMap', 'grafana-dashboard-event-day').metadata.labels.grafana_dashboard).toBe('1');
});

test('every added object is valid: the custom resources against the pinned prometheus-operator CRDs', () => {
  const errors: string[] = [];
  for (const obj of added) {
    try {
      validate(obj);
    } catch (error) {
      errors.push(`${obj.kind}/${obj.metadata.name}: ${(error as Error).message}`);
    }
  }
  expect(errors).toEqual([]);
  // The check has teeth.
  const monitor = structuredClone(ofKind(objects, 'PodMonitor')[0]!);
  monitor.spec.podMetricsEndpoints[0].scheme = 'gopher';
  expect(() => validate(monitor)).toThrow(/scheme/);
  const rule = structuredClone(ofKind(objects, 'PrometheusRule')[0]!);
  delete rule.spec.groups[0].rules[0].expr;
  expect(() => validate(rule)).toThrow(/expr/);
});

test("every app is scraped once, on the port that serves its /metrics, and the NetworkPolicies let Prometheus in", () => {
  const monitors = ofKind(objects, 'PodMonitor');
  const policies = ofKind(objects, 'NetworkPolicy');
  const fromPrometheus = (peer: Obj) => peer.namespaceSelector?.matchLabels?.['ticketing/monitoring'] === 'true';
  const scraped = (pod: Obj) =>
    monitors.flatMap((monitor) =>
      Object.entries(monitor.spec.selector.matchLabels).every(([key, value]) => pod.metadata.labels[key] === value)
        ? monitor.spec.podMetricsEndpoints
        : [],
    );
  for (const app of APPS) {
    const pod = find(objects, 'Deployment', app.name).spec.template;
    const endpoints = scraped(pod);
    expect([app.name, endpoints.length]).toEqual([app.name, 1]);
    const container = pod.spec.containers.find((entry: Obj) => entry.name === app.name);
    const port = container.ports.find((entry: Obj) => entry.name === endpoints[0].port)?.containerPort;
    expect([app.name, port, endpoints[0].path]).toEqual([app.name, metricsPort(app), '/metrics']);
    // The pods' own scrape annotations say the same.
    expect(Number(pod.metadata.annotations['prometheus.io/port'])).toBe(port);
    expect([app.name, opens(policies, pod.metadata.labels, 'ingress', fromPrometheus, port)]).toEqual([app.name, true]);
  }
  // Nothing else: PostgreSQL, PgBouncer, Redis and the jobs serve no /metrics.
  const others = [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'StatefulSet')].filter(
    (workload) => !APPS.some((app) => app.name === workload.metadata.name),
  );
  expect(others.length).toBeGreaterThan(0);
  for (const workload of others) expect([workload.metadata.name, scraped(workload.spec.template)]).toEqual([workload.metadata.name, []]);
});

test("the rules are in promtool's form: named groups of alerts with an expression, a duration, a severity and a summary", () => {
  const groups = ofKind(objects, 'PrometheusRule').flatMap((rule) => rule.spec.groups);
  const names = groups.map((group: Obj) => group.name);
  expect(new Set(names).size).toBe(names.length);
  for (const group of groups) {
    expect(group.name).toMatch(/^ticketing\.[a-z]+$/);
    expect(group.rules.length).toBeGreaterThan(0);
    for (const rule of group.rules) {
      const shape = {
        alert: typeof rule.alert === 'string' && /^[A-Z][A-Za-z0-9]+$/.test(rule.alert),
        expr: typeof rule.expr === 'string' && rule.expr.trim().length > 0,
        for: DURATION.test(rule.for),
        severity: SEVERITIES.includes(rule.labels?.severity),
        summary: typeof rule.annotations?.summary === 'string' && rule.annotations.summary.length > 0,
        runbook: typeof rule.annotations?.runbook === 'string' && rule.annotations.runbook.length > 0,
        onlyKnownKeys: Object.keys(rule).every((key) => ['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'].includes(key)),
      };
      expect([rule.alert, shape]).toEqual([rule.alert, Object.fromEntries(Object.keys(shape).map((key) => [key, true]))]);
    }
  }
  const alerts = rules().map((rule) => rule.alert);
  expect(new Set(alerts).size).toBe(alerts.length);
  // What operators are paged for.
  expect(alerts).toEqual(
    expect.arrayContaining([
      'DeadLettersWaiting',
      'PaymentMismatch',
      'RefundsNeedAttention',
      'InvoiceErrors',
      'ConsumerLagHigh',
      'ServerErrorsHigh',
      'DoorConflicts',
      'PendingOrdersNearExpiry',
      'CertificateReleaseFailing',
    ]),
  );
});

test("every alert's expression is valid PromQL and reads only metrics the apps export", () => {
  const problems: string[] = [];
  for (const rule of rules()) {
    const { errors, metrics } = parsePromql(rule.expr);
    problems.push(...errors.map((error) => `${rule.alert}: ${error}`));
    if (metrics.length === 0) problems.push(`${rule.alert}: reads no metric`);
    for (const metric of metrics) if (!exported.has(metric)) problems.push(`${rule.alert}: no app exports ${metric}`);
  }
  expect(problems).toEqual([]);
});

test('the dashboard is Grafana JSON whose every panel query is valid PromQL on exported metrics', () => {
  const board = dashboard();
  expect(board.uid).toBe('ticketing-event-day');
  expect(board.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }));
  const ids = board.panels.map((panel: Obj) => panel.id);
  expect(new Set(ids).size).toBe(ids.length);
  const queries = panelQueries();
  expect(queries.length).toBeGreaterThan(8);
  const problems: string[] = [];
  for (const { panel, expr } of queries) {
    const { errors, metrics } = parsePromql(expr);
    problems.push(...errors.map((error) => `${panel}: ${error}`));
    for (const metric of metrics) if (!exported.has(metric)) problems.push(`${panel}: no app exports ${metric}`);
  }
  expect(problems).toEqual([]);
  // Event day at a glance: sales, door arrivals, consumer lag and errors.
  const read = queries.map((query) => query.expr).join('\n');
  for (const metric of ['http_requests_total', 'door_readings_total', 'bus_consume_lag_seconds_bucket', 'bus_events_handled_total']) {
    expect(read).toContain(metric);
  }
});

test('the checks have teeth: a syntax error and a metric nobody exports are caught', () => {
  expect(parsePromql('sum(rate(http_requests_total[5m]) > 1').errors).not.toEqual([]);
  expect(parsePromql('rate(http_requests_total{status=~"5.."}[5m)').errors).not.toEqual([]);
  expect(parsePromql('max(orders_pending_overdue) > 0')).toEqual({ errors: [], metrics: ['orders_pending_overdue'] });
  expect(exported.has('orders_pending_overdue')).toBe(true);
  expect(exported.has('bus_consume_lag_seconds_bucket')).toBe(true);
  expect(exported.has('bus_dead_letters_unreplayed')).toBe(true);
  expect(exported.has('orders_pending_expired')).toBe(false);
});
