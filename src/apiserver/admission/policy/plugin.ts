// The ValidatingAdmissionPolicy admission plugin: on every write, the policies and bindings the
// API server's watch cache holds now (a new policy applies to the next request, as soon as
// Kubernetes' informers would see it), each policy compiled once per stored version.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import type { ClusterObjects } from '../cluster-objects.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../types.js';
import { compilePolicy, type CompiledPolicy, type PolicyExpressionCompiler } from './compile.js';
import { dispatch, type DispatchContext, type PolicyHook } from './dispatcher.js';
import { paramKindString } from './params.js';

const GROUP = 'admissionregistration.k8s.io';
/** Never subject to policies, so that a bad policy can always be fixed (Kubernetes' admissionResources). */
const EXCLUDED = new Set(['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings', 'validatingwebhookconfigurations', 'mutatingwebhookconfigurations']);

export interface PolicySources {
  policies: ClusterObjects<ValidatingAdmissionPolicy>;
  bindings: ClusterObjects<ValidatingAdmissionPolicyBinding>;
}

export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  /** Keyed by the cached (shared, immutable) policy object: one compilation per stored version. */
  private readonly compiled = new WeakMap<ValidatingAdmissionPolicy, CompiledPolicy>();

  constructor(
    private readonly sources: PolicySources,
    private readonly compile: PolicyExpressionCompiler,
    private readonly ctx: DispatchContext,
  ) {}

  private compiledOf(policy: ValidatingAdmissionPolicy): CompiledPolicy {
    let c = this.compiled.get(policy);
    if (!c) this.compiled.set(policy, (c = compilePolicy(policy, this.compile)));
    return c;
  }

  /** The policies with at least one binding, each with its bindings. */
  async hooks(): Promise<PolicyHook[]> {
    const bindings = await this.sources.bindings.list();
    if (bindings.length === 0) return [];
    const byPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
    for (const b of bindings) {
      const name = b.spec?.policyName ?? '';
      const list = byPolicy.get(name);
      if (list) list.push(b);
      else byPolicy.set(name, [b]);
    }
    const hooks: PolicyHook[] = [];
    for (const policy of await this.sources.policies.list()) {
      const own = byPolicy.get(policy.metadata?.name ?? '');
      if (!own) continue;
      const pk = policy.spec?.paramKind ?? undefined;
      const paramKind = pk ? this.ctx.params.kind(pk.apiVersion ?? '', pk.kind ?? '') : undefined;
      const configurationError = pk && !paramKind ? `failed to find resource referenced by paramKind: '${paramKindString(pk)}'` : undefined;
      hooks.push({ policy, compiled: this.compiledOf(policy), paramKind, configurationError, bindings: own });
    }
    return hooks;
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group === GROUP && EXCLUDED.has(a.resource)) return;
    const hooks = await this.hooks();
    if (hooks.length === 0) return;
    await dispatch(a, hooks, this.ctx);
  }
}
