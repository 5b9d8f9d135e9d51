/**
 * What the component tests share: a kustomization rendered by the real kustomize (the binary named by KUSTOMIZE, else
 * the one built into kubectl), and the NetworkPolicy arithmetic that says whether a peer reaches a pod's port.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

// Parsed YAML: the shapes are checked by the assertions themselves.
export type Obj = Record<string, any>;

export const K8S_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_DIR = dirname(K8S_DIR);

export function kustomizeBuild(dir: string): Obj[] {
  const binary = process.env.KUSTOMIZE;
  const [command, args] = binary ? [binary, ['build', dir]] : ['kubectl', ['kustomize', dir]];
  const output = execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 2 ** 20,
  });
  const objects: Obj[] = [];
  for (const doc of parseAllDocuments(output)) {
    if (doc.errors.length > 0) throw new Error(`${dir}: ${doc.errors.map((error) => error.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value) objects.push(value as Obj);
  }
  return objects;
}

export const rendered = (name: string): Obj[] => kustomizeBuild(join(K8S_DIR, name));

export function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.filter((obj) => obj.kind === kind && obj.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected exactly one ${kind}/${name}, found ${found.length}`);
  return found[0]!;
}

export const ofKind = (objects: Obj[], kind: string): Obj[] => objects.filter((obj) => obj.kind === kind);

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

const selects = (policy: Obj, labels: Record<string, string>) =>
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
