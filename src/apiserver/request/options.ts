// The write options every verb reads from the query (dryRun, fieldValidation, the patch options),
// validated as Kubernetes validates CreateOptions, UpdateOptions, PatchOptions and DeleteOptions:
// a bad value is a 422 naming the verb's options kind.
import { fieldError } from '../../machinery/validation/field-errors.js';
import { apiError } from '../../registry/errors.js';
import type { RequestContext } from './context.js';

const OPTIONS_KIND: Record<string, string> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
  delete: 'DeleteOptions',
  deletecollection: 'DeleteOptions',
};

/** The meta.k8s.io options kind Kubernetes validates a request's query parameters as (for 422 bodies). */
export function optionsKindOf(verb: string): string {
  return OPTIONS_KIND[verb] ?? 'CreateOptions';
}

/** dryRun=All (the only value Kubernetes accepts), or none; anything else is a 422 on the verb's options. */
export function dryRunOf(query: URLSearchParams, verb = 'create'): boolean {
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) {
    throw apiError.invalid(optionsKindOf(verb), 'meta.k8s.io', '', [fieldError.notSupported('dryRun', values, ['All'])]);
  }
  return values.length > 0;
}

/** Kubernetes' ValidatePatchOptions: apply patches need a fieldManager, `force` is only for them. */
export function validatePatchOptions(ctx: RequestContext): void {
  const apply = /^application\/apply-patch\+(yaml|json)\b/i.test(ctx.req.headers['content-type'] ?? '');
  const errors = [];
  if (apply && (ctx.query.get('fieldManager') ?? '') === '') errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  if (!apply && ctx.query.has('force')) errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  if (errors.length > 0) throw apiError.invalid('PatchOptions', 'meta.k8s.io', '', errors);
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** fieldValidation (default Warn); another value is a 422 on the verb's options, as Kubernetes' ValidateFieldValidation. */
export function fieldValidationOf(query: URLSearchParams, verb = 'create'): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw apiError.invalid(optionsKindOf(verb), 'meta.k8s.io', '', [fieldError.notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}
