// Every ValidatingAdmissionPolicy against one request (k8s.io/apiserver policy/validating
// dispatcher.go): a policy whose matchConstraints cover the request runs once per binding whose
// matchResources cover it, once per param; each failed validation is acted on per the binding's
// validationActions — Deny refuses the request (the first denial is the error), Warn adds a
// Warning header, Audit is accepted (kubelite has no audit log). A policy or binding that cannot
// be served (no match constraints, unknown paramKind, missing params with Deny) denies under
// failurePolicy Fail and is skipped under Ignore.
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import { StatusError, type StatusReason } from '../../../machinery/status.js';
import { admissionForbidden, type AdmissionAttributes } from '../types.js';
import type { PolicyAuthorizer } from './authorizer.js';
import type { CompiledPolicy } from './compile.js';
import { matches, type MatchContext, type MatchResources } from './matching.js';
import { collectParams, ParamError, type ParamSource } from './params.js';
import { admissionRequest, namespaceObject } from './request.js';
import { validate, type PolicyDecision } from './validator.js';

/** A policy ready to run: compiled, its paramKind resolved, and the bindings naming it. */
export interface PolicyHook {
  policy: ValidatingAdmissionPolicy;
  compiled: CompiledPolicy;
  /** The served kind of spec.paramKind (undefined when the policy has none or it is not served). */
  paramKind?: KindVersion;
  /** Why the policy cannot run at all (e.g. its paramKind is not served). */
  configurationError?: string;
  bindings: readonly ValidatingAdmissionPolicyBinding[];
}

export interface DispatchContext extends MatchContext {
  params: ParamSource;
  /** The request's namespace object, for `namespaceObject` (undefined when there is none). */
  namespace(name: string): Promise<KubeObject | undefined>;
  /** The `authorizer` of the request's user (absent: expressions see none). */
  authorizer?(a: AdmissionAttributes): PolicyAuthorizer;
}

interface Denial {
  policy: string;
  binding?: string;
  decision: PolicyDecision;
}

/** reasonToCode: the HTTP code of a denial's reason. */
function codeOf(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** The request's refusal: admission's Forbidden text, the denial's reason and code (Invalid, 422, by default), the message as the one cause. */
export function denialError(a: AdmissionAttributes, d: Denial): StatusError {
  const message = d.binding !== undefined ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.decision.message}` : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.decision.message}`;
  const forbidden = admissionForbidden(a, message);
  const reason = d.decision.reason || 'Invalid';
  return new StatusError(codeOf(reason), reason as StatusReason, forbidden.message, { details: { ...forbidden.details, causes: [{ message }] } });
}

/** How often evaluations are repeated to settle asynchronous authorizer answers. */
const MAX_AUTHORIZATION_ROUNDS = 8;

/** A warning once per request, however often the write is retried (Kubernetes' recorder keeps each text once). */
function addWarning(a: AdmissionAttributes, text: string): void {
  const warnings = (a.warnings ??= []);
  if (!warnings.includes(text)) warnings.push(text);
}

export async function dispatch(a: AdmissionAttributes, hooks: readonly PolicyHook[], ctx: DispatchContext): Promise<void> {
  const denied: Denial[] = [];
  const configError = (hook: PolicyHook, message: string, binding?: ValidatingAdmissionPolicyBinding) => {
    const failurePolicy = hook.compiled.failurePolicy;
    if (failurePolicy === 'Ignore') return;
    const policy = hook.policy.metadata?.name ?? '';
    const text = failurePolicy === 'Fail' ? `failed to configure ${binding ? 'binding' : 'policy'}: ${message}` : `unrecognized failure policy: '${failurePolicy}'`;
    denied.push({ policy, binding: binding?.metadata?.name ?? undefined, decision: { action: 'deny', evaluation: 'error', message: text, reason: '' } });
  };
  // One authorizer per request: its answers are cached across policies, bindings and params.
  const authorizer = ctx.authorizer?.(a);
  // The namespace object is read once per request, and only if a binding applies.
  let nsObject: Promise<unknown> | undefined;
  const isNamespace = a.kind.group === '' && a.kind.version === 'v1' && a.kind.kind === 'Namespace';
  const namespaceValue = () => (nsObject ??= !isNamespace && a.namespace !== '' ? ctx.namespace(a.namespace).then(namespaceObject) : Promise.resolve(null));

  for (const hook of hooks) {
    const constraints = hook.policy.spec?.matchConstraints;
    if (!constraints) {
      configError(hook, 'policy contained no match constraints, a required field');
      continue;
    }
    const m = await matches(constraints as MatchResources, a, ctx);
    if (m.error) {
      configError(hook, m.error.message);
      continue;
    }
    if (!m.matches) continue;
    if (hook.configurationError !== undefined) {
      configError(hook, hook.configurationError);
      continue;
    }
    const policyName = hook.policy.metadata?.name ?? '';
    for (const binding of hook.bindings) {
      const bindingName = binding.metadata?.name ?? '';
      const matchResources = binding.spec?.matchResources;
      if (matchResources) {
        const bm = await matches(matchResources as MatchResources, a, ctx);
        if (bm.error) {
          configError(hook, bm.error.message, binding);
          continue;
        }
        if (!bm.matches) continue;
      }
      let params: Array<KubeObject | null>;
      try {
        params = await collectParams(hook.policy.spec?.paramKind ?? undefined, hook.paramKind, binding.spec?.paramRef ?? undefined, ctx.params, a.namespace);
      } catch (err) {
        if (!(err instanceof ParamError)) throw err;
        configError(hook, err.message, binding);
        continue;
      }
      if (params.length === 0) continue;
      // Objects are stored in the hub version; a policy that matched the request as another
      // version (matchPolicy Equivalent) sees them in that version, as Kubernetes converts them.
      const kind = m.as.kind;
      const versioned = (o: KubeObject | undefined) => (o && kind !== a.kind && kind.fromHub ? kind.fromHub(o) : (o ?? null));
      const base = {
        object: a.operation === 'DELETE' ? null : versioned(a.object),
        oldObject: versioned(a.oldObject),
        request: admissionRequest(a, kind),
        namespaceObject: await namespaceValue(),
        authorizer,
      };
      const actions = binding.spec?.validationActions ?? [];
      for (const param of params) {
        let result = validate(hook.compiled, { ...base, params: param });
        for (let round = 0; authorizer?.pending && round < MAX_AUTHORIZATION_ROUNDS; round++) {
          await authorizer.settle();
          result = validate(hook.compiled, { ...base, params: param });
        }
        for (const decision of result.decisions) {
          if (decision.action !== 'deny') continue;
          if (actions.includes('Deny')) denied.push({ policy: policyName, binding: bindingName, decision });
          if (actions.includes('Warn')) addWarning(a, `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${decision.message}`);
          // Audit: the audit annotation Kubernetes writes has no audit log to go to here.
        }
        for (const annotation of result.auditAnnotations) {
          if (annotation.action === 'error') denied.push({ policy: policyName, binding: bindingName, decision: { action: 'deny', evaluation: 'error', message: annotation.error ?? '', reason: '' } });
        }
      }
    }
  }
  if (denied.length > 0) throw denialError(a, denied[0]!);
}
