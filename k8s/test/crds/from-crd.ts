/**
 * Turns the spec schemas of CustomResourceDefinitions into the JSON-schema file the manifest tests load with ajv:
 * `{ "$comment", "definitions": { <Kind>: <openAPIV3Schema.properties.spec> } }`.
 *
 *   node k8s/test/crds/from-crd.ts <out.schema.json> <version> "<comment>" <crd.yaml>...
 *
 * Kubernetes' dialect becomes plain JSON Schema: int-or-string becomes an anyOf, an object that declares its
 * properties refuses others (the API server's strict field validation), and what ajv cannot check offline
 * (descriptions, defaults, formats, CEL rules, list and map types) is left out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

type Schema = Record<string, unknown>;

const DROPPED = new Set([
  'description',
  'default',
  'format',
  'nullable',
  'example',
  'title',
  'x-kubernetes-validations',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-embedded-resource',
]);

function convert(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key === 'x-kubernetes-int-or-string') continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, sub]) => [name, convert(sub)]));
    } else if (['items', 'additionalProperties', 'not'].includes(key) && typeof value === 'object') {
      out[key] = convert(value as Schema);
    } else if (['anyOf', 'oneOf', 'allOf'].includes(key)) {
      out[key] = (value as Schema[]).map(convert);
    } else {
      out[key] = value;
    }
  }
  if (schema['x-kubernetes-int-or-string']) {
    const { pattern, ...rest } = out;
    delete rest.type;
    return { ...rest, anyOf: [{ type: 'integer' }, { type: 'string', ...(pattern ? { pattern } : {}) }] };
  }
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) {
    out.additionalProperties = false;
  }
  return out;
}

const [output, version, comment, ...files] = process.argv.slice(2);
if (!output || !version || !comment || files.length === 0) {
  console.error('usage: node k8s/test/crds/from-crd.ts <out.schema.json> <version> "<comment>" <crd.yaml>...');
  process.exit(2);
}
const definitions: Record<string, Schema> = {};
for (const file of files) {
  const crd = parse(readFileSync(file, 'utf8')) as { spec: { names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] } };
  const served = crd.spec.versions.find((entry) => entry.name === version);
  if (!served) throw new Error(`${file} has no version ${version}`);
  const spec = (served.schema.openAPIV3Schema.properties as Record<string, Schema>).spec;
  definitions[crd.spec.names.kind] = convert(spec!);
}
writeFileSync(output, `${JSON.stringify({ $comment: comment, definitions }, null, 2)}\n`);
