// DefaultIngressClass admission (Kubernetes' plugin/pkg/admission/network/defaultingressclass):
// an Ingress created without spec.ingressClassName and without the legacy
// `kubernetes.io/ingress.class` annotation gets the IngressClass annotated
// `ingressclass.kubernetes.io/is-default-class: "true"`; when several are, the newest (by creation
// time, then name) wins, as Kubernetes has chosen since 1.26.
import { annotationsOf, nameOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import type { Ingress } from '../../api/types.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export const IS_DEFAULT_INGRESS_CLASS = 'ingressclass.kubernetes.io/is-default-class';
const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** The IngressClasses as the plugin's informer holds them; undefined until it has synced. */
export interface IngressClassLister {
  ingressClasses(): KubeObject[] | undefined | Promise<KubeObject[] | undefined>;
}

function creationTime(o: KubeObject): number {
  const ts = (o.metadata as { creationTimestamp?: unknown } | undefined)?.creationTimestamp;
  return typeof ts === 'string' ? Date.parse(ts) : 0;
}

/** The default class among `classes`, or undefined. */
export function defaultIngressClass(classes: readonly KubeObject[]): KubeObject | undefined {
  const defaults = classes.filter((c) => annotationsOf(c)[IS_DEFAULT_INGRESS_CLASS] === 'true');
  defaults.sort((a, b) => creationTime(b) - creationTime(a) || (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  return defaults[0];
}

export class DefaultIngressClass implements AdmissionPlugin {
  readonly name = 'DefaultIngressClass';

  constructor(private readonly lister: IngressClassLister) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.group !== 'networking.k8s.io' || a.resource !== 'ingresses' || a.subresource !== '' || !a.object) return;
    const ingress: Ingress = a.object;
    const spec = ingress.spec ?? {};
    if (typeof spec.ingressClassName === 'string') return;
    if (annotationsOf(ingress)[LEGACY_CLASS_ANNOTATION] !== undefined) return;
    const classes = await this.lister.ingressClasses();
    if (classes === undefined) throw admissionForbidden(a, 'not yet ready to handle request');
    const chosen = defaultIngressClass(classes);
    if (!chosen) return;
    spec.ingressClassName = nameOf(chosen);
    ingress.spec = spec;
  }
}
