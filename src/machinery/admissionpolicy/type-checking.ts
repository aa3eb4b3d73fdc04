// What Kubernetes' ValidatingAdmissionPolicy type checker reports in status.typeChecking
// (k8s.io/apiserver policy/validating typechecking.go): each validation's expression and
// messageExpression is compiled against the schema of every kind the policy's resource rules name
// exactly (no `*` group or version; resources without `*` or `/`; at most 10 kinds), with `params`
// typed by its paramKind, and each compile error becomes a warning under the expression's field:
// `<group>/<version>, Kind=<kind>: <errors>`. A kind without a schema is skipped.
import { findKind, findResource } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import type { ValidatingAdmissionPolicy } from '../../api/types.js';
import { compareGoStrings } from '../selectors/labels.js';
import { fieldChecker } from './field-check.js';

const MAX_TYPES_TO_CHECK = 10;

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/**
 * Compiles `expression` with `object`/`oldObject` typed by `object`'s schema and `params` by
 * `params`' (dyn when undefined), the policy's variables declared: the compile error (cel-go's
 * issues text, `ERROR: <input>:1:5: ...`), or undefined when it type-checks.
 */
export type TypedExpressionChecker = (expression: string, env: { object: KindVersion; params?: KindVersion; variables: ReadonlyArray<{ name: string; expression: string }> }) => string | undefined;

/** The served kinds of a group/version/resource (the integrator adds CRD kinds). */
export type KindsFor = (group: string, version: string, resource: string) => readonly KindVersion[];

export const builtinKindsFor: KindsFor = (group, version, resource) => {
  const k = findResource(group, version, resource);
  return k ? [k] : [];
};

/** apimachinery's GroupVersionKind.String(). */
export const gvkString = (k: Pick<KindVersion, 'group' | 'version' | 'kind'>) => `${k.group}/${k.version}, Kind=${k.kind}`;

const sorted = (xs: readonly string[]) => [...xs].sort(compareGoStrings);

/** typesToCheck: the kinds named exactly by the resource rules, sorted by group, version, kind. */
export function typesToCheck(policy: ValidatingAdmissionPolicy, kindsFor: KindsFor): KindVersion[] {
  const found = new Map<string, KindVersion>();
  const done = () =>
    [...found.values()].sort((a, b) => compareGoStrings(a.group, b.group) || compareGoStrings(a.version, b.version) || compareGoStrings(a.kind, b.kind));
  for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    if (resources.length === 0) continue;
    // As in Kubernetes, the count of kinds resolved restarts with each rule.
    let count = 0;
    for (const group of sorted(groups)) {
      for (const version of sorted(versions)) {
        for (const resource of sorted(resources)) {
          for (const k of kindsFor(group, version, resource)) {
            found.set(gvkString(k), k);
            if (++count === MAX_TYPES_TO_CHECK) return done();
          }
        }
      }
    }
  }
  return done();
}

/**
 * The type checker of the ValidatingAdmissionPolicy status controller: by default the schema field
 * check (field-check.ts) until machinery/cel's typed environment is merged; the integrator passes
 * CRD kinds' lookups.
 */
export class PolicyTypeChecker {
  constructor(
    private readonly check: TypedExpressionChecker = fieldChecker,
    private readonly kindsFor: KindsFor = builtinKindsFor,
    private readonly kindOf: (apiVersion: string, kind: string) => KindVersion | undefined = findKind,
  ) {}

  /** The warnings of every validation's expression and messageExpression, in order. */
  warnings(policy: ValidatingAdmissionPolicy): ExpressionWarning[] {
    const check = this.check;
    const kinds = typesToCheck(policy, this.kindsFor);
    const pk = policy.spec?.paramKind;
    const params = pk ? this.kindOf(pk.apiVersion ?? '', pk.kind ?? '') : undefined;
    const variables = (policy.spec?.variables ?? []).map((v) => ({ name: v.name ?? '', expression: v.expression ?? '' }));
    const warningOf = (expression: string): string | undefined => {
      const issues = kinds.flatMap((object) => {
        const issue = check(expression, { object, params, variables });
        return issue === undefined ? [] : [`${gvkString(object)}: ${issue}\n`];
      });
      return issues.length === 0 ? undefined : issues.join('\n');
    };
    const out: ExpressionWarning[] = [];
    (policy.spec?.validations ?? []).forEach((v, i) => {
      const expressionWarning = warningOf(v.expression ?? '');
      if (expressionWarning !== undefined) out.push({ fieldRef: `spec.validations[${i}].expression`, warning: expressionWarning });
      if (!v.messageExpression) return;
      const messageWarning = warningOf(v.messageExpression);
      if (messageWarning !== undefined) out.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: messageWarning });
    });
    return out;
  }
}
