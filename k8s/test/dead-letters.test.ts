/**
 * The dead-letter tool's component (k8s/components/dead-letters) on the production overlay, rendered by the real
 * kustomize: one suspended CronJob per service schema, running the tool from that service's image as its own role,
 * allowed to reach PostgreSQL and nothing else.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '@ticketing/proto';
import { SERVICE_SCHEMAS } from '@ticketing/platform';
import { CronJob } from 'kubernetes-models/batch/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { REPO_DIR, entriesOf, find, ofKind, opens, rendered, type Obj } from './render.ts';

let production: Obj[] = [];
let objects: Obj[] = [];
let added: Obj[] = [];

beforeAll(() => {
  production = rendered('overlays/production');
  objects = rendered('test/dead-letters');
  const before = new Set(production.map((obj) => `${obj.kind}/${obj.metadata.name}`));
  added = objects.filter((obj) => !before.has(`${obj.kind}/${obj.metadata.name}`));
});

test('one valid, suspended CronJob per service schema and its NetworkPolicies; nothing else changes', () => {
  for (const obj of added) {
    if (obj.kind === 'CronJob') new CronJob(obj as never).validate();
    else new NetworkPolicy(obj as never).validate();
    expect(obj.metadata.namespace).toBe('ticketing');
  }
  const cronJobs = ofKind(added, 'CronJob');
  expect(cronJobs.map((job) => job.metadata.name).sort()).toEqual(SERVICE_SCHEMAS.map((schema) => `dead-letters-${schema}`).sort());
  for (const job of cronJobs) expect([job.metadata.name, job.spec.suspend]).toEqual([job.metadata.name, true]);
  expect(ofKind(added, 'NetworkPolicy')).toHaveLength(2);
  expect(objects.filter((obj) => !added.includes(obj))).toEqual(production);
});

test.each(SERVICE_SCHEMAS.map((schema) => [schema]))(
  'dead-letters-%s runs the tool from the service image as the role that owns the schema',
  (schema) => {
    const pod = find(objects, 'CronJob', `dead-letters-${schema}`).spec.jobTemplate.spec.template;
    const [container] = pod.spec.containers;
    // The image of a service working in this schema as its owner (tickets: the worker, not the door API).
    const owners = SERVICES.filter((service) => service.schema === schema && service.role === schema).map(
      (service) => service.name,
    );
    expect(owners).toHaveLength(1);
    expect(container.image).toBe(`ticketing/${owners[0]}`);
    // The entry is shipped in every image (scripts/image/sources.sh copies services/platform).
    expect(container.command).toEqual(['node', 'services/platform/src/dead-letters-main.ts']);
    expect(existsSync(join(REPO_DIR, container.command[1]))).toBe(true);
    expect(container.args).toEqual(['list']);
    // The service's own direct URL (PostgreSQL itself, as its migrations use), from its generated Secret.
    const url = container.env.find((entry: Obj) => entry.name === 'DATABASE_URL').valueFrom.secretKeyRef;
    const service = find(objects, 'Deployment', owners[0]!).spec.template.spec.containers.find(
      (entry: Obj) => entry.name === owners[0],
    );
    const own = service.env.find((entry: Obj) => entry.name === 'DATABASE_DIRECT_URL').valueFrom.secretKeyRef;
    expect(url).toEqual(own);
    const direct = new URL(entriesOf(find(objects, 'Secret', url.name))[url.key]!);
    expect([direct.username, direct.host]).toEqual([schema, 'postgres-rw:5432']);
    expect(pod.spec.securityContext).toEqual(expect.objectContaining({ runAsNonRoot: true, runAsUser: 1000 }));
    expect(container.securityContext).toEqual(
      expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
    );
    expect(pod.spec.restartPolicy).toBe('Never');

    // It reaches PostgreSQL, which lets it in; PgBouncer, Redis and the internet stay out of reach.
    const labels = pod.metadata.labels;
    const policies = ofKind(objects, 'NetworkPolicy');
    // CloudNativePG's instances carry the labels the Cluster hands down.
    const postgres = find(objects, 'Cluster', 'postgres').spec.inheritedMetadata.labels;
    const isPod = (target: Record<string, string>) => (peer: Obj) =>
      peer.podSelector !== undefined &&
      peer.namespaceSelector === undefined &&
      Object.entries(peer.podSelector.matchLabels ?? {}).every(([key, value]) => target[key] === value);
    expect(opens(policies, labels, 'egress', isPod(postgres), 5432)).toBe(true);
    expect(opens(policies, postgres, 'ingress', isPod(labels), 5432)).toBe(true);
    const pgbouncer = find(objects, 'Deployment', 'pgbouncer').spec.template.metadata.labels;
    expect(opens(policies, labels, 'egress', isPod(pgbouncer), 6432)).toBe(false);
    expect(opens(policies, labels, 'egress', (peer) => peer.ipBlock !== undefined, 443)).toBe(false);
    // No Service, PodDisruptionBudget or app NetworkPolicy takes its pods for a service's.
    for (const selecting of [...ofKind(objects, 'Service'), ...ofKind(objects, 'PodDisruptionBudget')]) {
      const selector = selecting.spec.selector?.matchLabels ?? selecting.spec.selector;
      expect(Object.entries(selector ?? {}).every(([key, value]) => labels[key] === value)).toBe(false);
    }
  },
);
