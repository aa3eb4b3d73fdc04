// The params a binding gives its policy (k8s.io/apiserver generic.CollectParams): none when the
// policy has no paramKind or the binding no paramRef (the policy runs once, `params` null); else
// the object named by paramRef.name, or every object paramRef.selector selects, of the paramKind
// — in the request's namespace unless paramRef.namespace names one, for a namespaced paramKind.
// The policy then runs once per param; no param is an error only with parameterNotFoundAction Deny.
import type { KindVersion, KubeObject } from '../../../api/schema/kind.js';
import { metadataOf } from '../../../api/meta/object.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../machinery/selectors/labels.js';

export interface ParamKind {
  apiVersion?: string | null;
  kind?: string | null;
}

export interface ParamRef {
  name?: string | null;
  namespace?: string | null;
  selector?: LabelSelectorObject | null;
  parameterNotFoundAction?: string | null;
}

/** Reads of the param objects of one kind (the API server's watch cache). */
export interface ParamObjects {
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Every object in `namespace` ('' = in every namespace, or cluster-scoped). */
  list(namespace: string): Promise<KubeObject[]>;
}

/** Where params come from: the served kind of a paramKind and its objects. */
export interface ParamSource {
  kind(apiVersion: string, kind: string): KindVersion | undefined;
  objects(kind: KindVersion): ParamObjects;
}

/** A binding's configuration error, reported as "failed to configure binding: <message>". */
export class ParamError extends Error {}

/** apimachinery's GroupVersionKind.String() of a paramKind: `<group>/<version>, Kind=<kind>`. */
export function paramKindString(p: ParamKind): string {
  const apiVersion = p.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${p.kind ?? ''}`;
}

/**
 * The params of one binding for a request in `namespace` ([null]: run once without params).
 * Throws ParamError with Kubernetes' message for a binding that cannot be served.
 */
export async function collectParams(paramKind: ParamKind | undefined, kind: KindVersion | undefined, paramRef: ParamRef | undefined, source: ParamSource, namespace: string): Promise<Array<KubeObject | null>> {
  if (!paramKind || !paramRef) return [null];
  // The policy's own configuration error (an unknown paramKind) is reported before bindings are looked at.
  if (!kind) throw new ParamError(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  let scope = '';
  if (kind.namespaced) {
    scope = paramRef.namespace || namespace;
    if (scope === '') throw new ParamError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (paramRef.namespace) {
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const objects = source.objects(kind);
  let params: KubeObject[];
  if (paramRef.name) {
    if (paramRef.selector) throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    const param = await objects.get(scope, paramRef.name);
    params = param ? [param] : [];
  } else if (paramRef.selector) {
    const selector = labelSelectorAsSelector(paramRef.selector);
    params = (await objects.list(scope)).filter((o) => selector.matches(metadataOf(o).labels));
  } else {
    throw new ParamError('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}
