// Validation of the `default`s of a structural schema (pkg/apiserver/schema/defaulting:
// ValidateDefaults): outside resource metadata a default must survive pruning unchanged, carry a
// valid apiVersion/kind where it is an embedded resource, and validate against its own schema
// (errors under `<path>.default`). Defaults inside metadata are forbidden at the top level by the
// JSONSchemaProps rules; below embedded resources they must result in valid type and object meta
// when put into their resource, and validate against their schema.
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { fieldError, formatFieldError, type FieldError } from '../validation/field-errors.js';
import { compileSchema, type SchemaNode } from './compile.js';
import { goBadValue } from './go-format.js';
import { rebase } from './messages.js';
import { pruneNode } from './prune.js';
import { validateEmbedded, validateEmbeddedResources } from './resource.js';
import { deepEqual } from './values.js';
import { validateNode } from './validate.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** kube-openapi validation errors of `value` against `node`, under `base` (ValidateCustomResource). */
function againstSchema(node: SchemaNode, value: unknown, base: string): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(node, value, '', errs);
  return rebase(errs, base);
}

/** A step from the enclosing resource down to a default: a property name, or an array item. */
type Step = string | number;

/** The object a default inside resource metadata lands in: its resource with the default put at `steps`,
 * typed as Kubernetes' stand-in (validation/v1 Validation) where apiVersion/kind are absent. */
function surrounding(steps: readonly Step[], value: unknown): Record<string, unknown> | undefined {
  let x: unknown = structuredClone(value);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    x = typeof step === 'number' ? [x] : { [step]: x };
  }
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return undefined;
  const obj = x as Record<string, unknown>;
  if (!('kind' in obj)) obj.kind = 'Validation';
  if (!('apiVersion' in obj)) obj.apiVersion = 'validation/v1';
  return obj;
}

/** Go's aggregate error text of field errors: one message, or several in brackets. */
const aggregate = (errs: readonly FieldError[]): string => (errs.length === 1 ? formatFieldError(errs[0]!) : `[${errs.map(formatFieldError).join(', ')}]`);

function walk(s: JSONSchemaProps, path: string, insideMeta: boolean, isRoot: boolean, steps: readonly Step[], out: FieldError[]): void {
  const node = compileSchema(s);
  const embedded = isRoot || node.embedded;
  if (embedded) {
    insideMeta = false;
    steps = [];
  }
  if (s.default !== undefined && s.default !== null) {
    const d = s.default;
    const base = `${path}.default`;
    if (insideMeta) {
      // A default inside apiVersion/kind/metadata must make its resource's type and object meta valid.
      const obj = surrounding(steps, d);
      const metaErrs: FieldError[] = [];
      if (obj !== undefined) validateEmbedded(obj, '', metaErrs);
      if (metaErrs.length > 0) out.push(fieldError.invalidRaw(base, goBadValue(d), `must result in valid metadata: ${aggregate(metaErrs)}`));
      else out.push(...againstSchema(node, d, base));
    } else {
      const pruned = structuredClone(d);
      pruneNode(pruned, node, embedded, '', []);
      if (!deepEqual(pruned, d)) out.push(fieldError.invalidRaw(base, goBadValue(d), 'must not have unknown fields'));
      const metaErrs: FieldError[] = [];
      validateEmbeddedResources(d, node, base, false, metaErrs);
      out.push(...(metaErrs.length > 0 ? metaErrs : againstSchema(node, d, base)));
    }
  }
  if (s.items !== undefined && !Array.isArray(s.items)) walk(s.items, `${path}.items`, insideMeta, false, [...steps, 0], out);
  for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, `${path}.properties[${k}]`, insideMeta || (embedded && metaFields.has(k)), false, [...steps, k], out);
}

/** ValidateDefaults for a resource root schema (v1: defaults must be pruned). */
export function validateDefaults(schema: JSONSchemaProps, path: string): FieldError[] {
  const out: FieldError[] = [];
  walk(schema, path, false, true, [], out);
  return out;
}
