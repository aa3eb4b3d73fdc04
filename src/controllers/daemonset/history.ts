// A DaemonSet's ControllerRevisions (Kubernetes' daemonset history): the current revision is the
// one whose data is the template patch of the DaemonSet; a new one (`<ds>-<hash>`, revision
// max(old) + 1) is created when none matches; old revisions beyond revisionHistoryLimit that no
// live pod uses are deleted, oldest first. A pod is updated when it carries the current revision's
// hash or template generation.
import { isAlreadyExists } from '../../client/errors.js';
import { annotationsOf, labelsOf, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { ControllerRevision, DaemonSet, DaemonSetSpec, OwnerReference, Pod, PodTemplateSpec } from '../../api/types.js';
import type { KubeObject, ResourceClient } from '../../client/types.js';
import { computeHash, canonicalJSON } from '../common/hash.js';
import { asControllerRevision } from './spec.js';

export const UNIQUE_LABEL = 'controller-revision-hash';
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** GetTemplateGeneration: the deprecated annotation (apps/v1), or spec.templateGeneration. */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const a = annotationsOf(ds)[TEMPLATE_GENERATION_ANNOTATION];
  if (a !== undefined && /^\d+$/.test(a)) return Number(a);
  // spec.templateGeneration is extensions/v1beta1's field, not apps/v1's (the type has none): a
  // DaemonSet stored from that version may still carry it, so it is read untyped.
  const g = (ds.spec as (DaemonSetSpec & { templateGeneration?: unknown }) | null | undefined)?.templateGeneration;
  return typeof g === 'number' ? g : undefined;
}

export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const l = labelsOf(pod);
  return (generation !== undefined && l[TEMPLATE_GENERATION_LABEL] === String(generation)) || (hash !== '' && l[UNIQUE_LABEL] === hash);
}

/** getPatch: the strategic merge patch that restores the DaemonSet's template. */
export function templatePatch(ds: DaemonSet): KubeObject {
  // $patch is a strategic merge directive, no field of the template
  const template: PodTemplateSpec & { $patch?: string } = structuredClone(ds.spec?.template ?? {});
  template.$patch = 'replace';
  return { spec: { template } };
}

export function revisionOf(cr: ControllerRevision): number {
  const r = cr.revision;
  return typeof r === 'number' ? r : Number(r ?? 0) || 0;
}

export function matchesDaemonSet(ds: DaemonSet, cr: ControllerRevision): boolean {
  return canonicalJSON(cr.data ?? null) === canonicalJSON(templatePatch(ds));
}

export interface History {
  cur: ControllerRevision;
  old: ControllerRevision[];
  hash: string;
}

/** constructHistory over the revisions the DaemonSet owns. */
export async function constructHistory(
  ds: DaemonSet,
  owned: ControllerRevision[],
  client: ResourceClient,
  controllerRef: OwnerReference,
  bumpCollision: () => Promise<void>,
): Promise<History> {
  const ns = namespaceOf(ds);
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (let h of owned) {
    if (!(UNIQUE_LABEL in labelsOf(h))) {
      const upd = structuredClone(h);
      (upd.metadata ??= {}).labels = { ...labelsOf(h), [UNIQUE_LABEL]: nameOf(h) };
      h = asControllerRevision(await client.update(ns, upd));
    }
    (matchesDaemonSet(ds, h) ? current : old).push(h);
  }
  const next = old.reduce((m, h) => Math.max(m, revisionOf(h)), 0) + 1;
  let cur: ControllerRevision;
  if (current.length === 0) {
    const template = ds.spec?.template ?? undefined;
    const hash = computeHash(template, ds.status?.collisionCount);
    const name = `${nameOf(ds)}-${hash}`;
    const annotations = ds.metadata?.annotations;
    const body: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: ns,
        labels: { ...(template?.metadata?.labels ?? {}), [UNIQUE_LABEL]: hash },
        ...(annotations ? { annotations } : {}),
        ownerReferences: [controllerRef],
      },
      data: templatePatch(ds),
      revision: next,
    };
    try {
      cur = asControllerRevision(await client.create(ns, body));
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      const existing = asControllerRevision(await client.get(ns, name));
      if (matchesDaemonSet(ds, existing)) cur = existing;
      else {
        await bumpCollision();
        throw e;
      }
    }
  } else {
    // dedup: keep the highest revision, delete the others
    current.sort((a, b) => revisionOf(b) - revisionOf(a));
    cur = current[0]!;
    for (const dup of current.slice(1)) await client.delete(ns, nameOf(dup)).catch(() => undefined);
    if (revisionOf(cur) < next) {
      const upd = structuredClone(cur);
      upd.revision = next;
      cur = asControllerRevision(await client.update(ns, upd));
    }
  }
  return { cur, old, hash: labelsOf(cur)[UNIQUE_LABEL] ?? '' };
}

/** cleanupHistory: keeps revisionHistoryLimit old revisions (and any a live pod still uses). */
export async function cleanupHistory(ds: DaemonSet, old: ControllerRevision[], pods: Pod[], client: ResourceClient): Promise<void> {
  const limit = ds.spec?.revisionHistoryLimit ?? 10;
  let toKill = old.length - limit;
  if (toKill <= 0) return;
  const live = new Set(pods.map((p) => labelsOf(p)[UNIQUE_LABEL]).filter((h): h is string => !!h));
  for (const h of [...old].sort((a, b) => revisionOf(a) - revisionOf(b))) {
    if (toKill <= 0) break;
    if (live.has(labelsOf(h)[UNIQUE_LABEL] ?? '')) continue;
    await client.delete(namespaceOf(ds), nameOf(h));
    toKill--;
  }
}
