// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook admission plugins (k8s.io/apiserver
// pkg/admission/plugin/webhook): the webhook configurations the watch cache holds now; for each
// webhook whose rules, namespace and object selectors and match conditions cover the write, an
// AdmissionReview over HTTPS (review.ts, ../../webhook/client.ts). Mutating webhooks run one after
// another and their JSON patches change the object (reinvocationPolicy IfNeeded: once more when a
// later webhook changed it); validating webhooks run side by side. failurePolicy decides what a
// call that fails means; a dry run reaches only webhooks without side effects.
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../../api/types.js';
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import { applyJsonPatch } from '../../../machinery/patch/index.js';
import { canonicalize } from '../../../machinery/codec/normalize.js';
import { StatusError } from '../../../machinery/status.js';
import { callWebhook, type ServiceResolver, type WebhookClientConfig } from '../../webhook/client.js';
import type { ClusterObjects } from '../cluster-objects.js';
import { celPolicyCompiler } from '../policy/cel.js';
import type { CelProgram } from '../policy/compile.js';
import { matches, type MatchContext } from '../policy/matching.js';
import { admissionRequest } from '../policy/request.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../types.js';
import { answerOf, callFailure, denial, inVersion, reviewOf, type ReviewAnswer } from './review.js';

type Webhook = NonNullable<ValidatingWebhookConfiguration['webhooks']>[number] & { reinvocationPolicy?: string | null };

/** Never sent to webhooks, so a broken webhook can always be fixed (Kubernetes' IsExemptAdmissionConfigurationResource). */
const EXEMPT = new Set(['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

export interface WebhookContext extends MatchContext {
  resolveService: ServiceResolver;
}

const conditionPrograms = new WeakMap<object, Array<{ name: string; program?: CelProgram; error?: string }>>();

function conditionsOf(hook: Webhook): Array<{ name: string; program?: CelProgram; error?: string }> {
  let compiled = conditionPrograms.get(hook);
  if (!compiled) {
    compiled = (hook.matchConditions ?? []).map((c) => ({ name: c.name ?? '', ...celPolicyCompiler(c.expression ?? '', { params: false, authorizer: false, variables: [] }) }));
    conditionPrograms.set(hook, compiled);
  }
  return compiled;
}

/** Whether the webhook's match conditions hold (an error is the webhook's failure). */
function conditionsHold(hook: Webhook, a: AdmissionAttributes, matched: KindVersion, object: KubeObject | undefined): boolean {
  const conditions = conditionsOf(hook);
  if (conditions.length === 0) return true;
  const vars = { object: inVersion(object, matched), oldObject: inVersion(a.oldObject, matched), request: admissionRequest(a, matched) };
  for (const c of conditions) {
    const r = c.program ? c.program.evaluate(vars) : { error: c.error, cost: 0 };
    if (r.error !== undefined) throw new Error(`failed to evaluate match condition ${JSON.stringify(c.name)}: ${r.error}`);
    if (r.value !== true) return false;
  }
  return true;
}

type WebhookConfiguration = MutatingWebhookConfiguration | ValidatingWebhookConfiguration;

abstract class WebhookPlugin implements AdmissionPlugin {
  abstract readonly name: string;

  constructor(
    private readonly configurations: ClusterObjects<WebhookConfiguration>,
    protected readonly ctx: WebhookContext,
  ) {}

  /** The webhooks of the configurations the watch cache holds now, configurations in name order (Kubernetes' sorted accessors). */
  protected async webhooks(): Promise<Webhook[]> {
    const configs = await this.configurations.list();
    return [...configs].sort((x, y) => String(x.metadata?.name).localeCompare(String(y.metadata?.name))).flatMap((c) => (c.webhooks ?? []) as Webhook[]);
  }

  /** The webhooks covering this write, with the version each matched it in. */
  protected async matching(hooks: readonly Webhook[], a: AdmissionAttributes): Promise<Array<{ hook: Webhook; matched: KindVersion }>> {
    if (EXEMPT.has(a.resource) && a.group === 'admissionregistration.k8s.io') return [];
    const out: Array<{ hook: Webhook; matched: KindVersion }> = [];
    for (const hook of hooks) {
      const rules = (hook.rules ?? []).map((r) => ({ ...r, resourceNames: undefined }));
      const m = await matches({ namespaceSelector: hook.namespaceSelector ?? {}, objectSelector: hook.objectSelector ?? {}, resourceRules: rules as never, matchPolicy: hook.matchPolicy ?? 'Equivalent' }, a, this.ctx);
      if (m.error) {
        if ((hook.failurePolicy ?? 'Fail') === 'Fail') throw callFailure(hook.name ?? '', m.error);
        continue;
      }
      // An empty rules list matches nothing for webhooks.
      if (m.matches && rules.length > 0) out.push({ hook, matched: m.as.kind });
    }
    return out;
  }

  /** Calls one webhook; undefined when it is skipped (match conditions, or an ignored failure). */
  protected async call(hook: Webhook, matched: KindVersion, a: AdmissionAttributes): Promise<ReviewAnswer | undefined> {
    const name = hook.name ?? '';
    const fail = (hook.failurePolicy ?? 'Fail') === 'Fail';
    try {
      if (!conditionsHold(hook, a, matched, a.object)) return undefined;
    } catch (err) {
      if (fail) throw callFailure(name, err);
      return undefined;
    }
    if (a.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
      throw new StatusError(400, 'BadRequest', `admission webhook ${JSON.stringify(name)} does not support dry run`);
    }
    const { uid, review } = reviewOf(a, matched, a.object);
    const timeoutMs = (typeof hook.timeoutSeconds === 'number' && hook.timeoutSeconds > 0 ? hook.timeoutSeconds : 10) * 1000;
    let answer: ReviewAnswer;
    try {
      answer = answerOf(await callWebhook((hook.clientConfig ?? {}) as WebhookClientConfig, review, timeoutMs, this.ctx.resolveService), uid);
    } catch (err) {
      if (fail) throw callFailure(name, err);
      return undefined;
    }
    if (answer.warnings && a.warnings) for (const w of answer.warnings) if (!a.warnings.includes(w)) a.warnings.push(w);
    if (!answer.allowed) throw denial(name, answer);
    return answer;
  }
}

export class MutatingAdmissionWebhook extends WebhookPlugin {
  readonly name = 'MutatingAdmissionWebhook';

  async admit(a: AdmissionAttributes): Promise<void> {
    const hooks = await this.webhooks();
    if (hooks.length === 0) return;
    const matched = await this.matching(hooks, a);
    if (matched.length === 0) return;
    const changedAt = new Map<Webhook, number>();
    let lastChange = -1;
    const run = async (i: number) => {
      const { hook, matched: kind } = matched[i]!;
      const answer = await this.call(hook, kind, a);
      if (answer?.patch && this.applyPatch(hook, kind, answer, a)) {
        changedAt.set(hook, i);
        lastChange = i;
      }
    };
    for (let i = 0; i < matched.length; i++) await run(i);
    // reinvocationPolicy IfNeeded: once more, when a webhook after it changed the object.
    for (let i = 0; i < matched.length; i++) {
      if (matched[i]!.hook.reinvocationPolicy === 'IfNeeded' && lastChange > i) await run(i);
    }
  }

  /** Applies a JSONPatch answer to the object in place; whether it changed anything. */
  private applyPatch(hook: Webhook, kind: KindVersion, answer: ReviewAnswer, a: AdmissionAttributes): boolean {
    const name = hook.name ?? '';
    if (answer.patchType !== 'JSONPatch') throw StatusError.internal(`Internal error occurred: failed calling webhook ${JSON.stringify(name)}: unsupported patch type ${JSON.stringify(answer.patchType ?? '')}`);
    if (!a.object) return false;
    let ops: unknown;
    try {
      ops = JSON.parse(Buffer.from(answer.patch!, 'base64').toString('utf8'));
    } catch (err) {
      throw StatusError.internal(`Internal error occurred: failed calling webhook ${JSON.stringify(name)}: the patch is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    const before = inVersion(a.object, kind)!;
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(before, ops) as KubeObject;
    } catch (err) {
      throw StatusError.internal(`Internal error occurred: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched) || patched.apiVersion !== before.apiVersion || patched.kind !== before.kind) {
      throw StatusError.internal(`Internal error occurred: admission webhook ${JSON.stringify(name)} changed the object's apiVersion or kind`);
    }
    if (JSON.stringify(patched) === JSON.stringify(before)) return false;
    let hub: KubeObject;
    try {
      // As Kubernetes decodes a patched object into its type: a value of the wrong type fails the write.
      hub = canonicalize<KubeObject>(kind.toHub ? kind.toHub(patched) : patched, a.kind.type);
    } catch (err) {
      throw StatusError.internal(`Internal error occurred: admission webhook ${JSON.stringify(name)} returned a patch that breaks the object: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const k of Object.keys(a.object)) delete a.object[k];
    Object.assign(a.object, hub);
    return true;
  }
}

export class ValidatingAdmissionWebhook extends WebhookPlugin {
  readonly name = 'ValidatingAdmissionWebhook';

  async validate(a: AdmissionAttributes): Promise<void> {
    const hooks = await this.webhooks();
    if (hooks.length === 0) return;
    const matched = await this.matching(hooks, a);
    const results = await Promise.allSettled(matched.map(({ hook, matched: kind }) => this.call(hook, kind, a)));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  }
}
