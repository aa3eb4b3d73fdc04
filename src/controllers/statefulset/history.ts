// A StatefulSet's revisions (the controller's history over ControllerRevisions): each revision
// holds the patch that restores the set's pod template; the update revision is the one equal to
// the current template (an equal older one is rolled forward by giving it the next revision
// number, so `kubectl rollout undo` reuses it); the current revision is the one status names.
// Revisions no pod, current or update revision uses are kept up to revisionHistoryLimit.
import { annotationsOf, creationTimestampOf, labelsOf, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { ControllerRevision, PodTemplateSpec, StatefulSet } from '../../api/types.js';
import { isAlreadyExists, isConflict } from '../../client/errors.js';
import type { ResourceClient } from '../../client/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { canonicalJSON, fnv32, safeEncodeString } from '../common/hash.js';
import { REVISION_LABEL } from './identity.js';

/** The longest prefix of a revision name: the hash and a dash fill the rest of 253. */
const MAX_PREFIX = 223;

export const revisionNumber = (r: ControllerRevision): number => Number(r.revision ?? 0) || 0;

/** history.SortControllerRevisions: by revision, then age, then name. */
export function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return revisions.sort((a, b) => revisionNumber(a) - revisionNumber(b) || (creationTimestampOf(a) ?? '').localeCompare(creationTimestampOf(b) ?? '') || nameOf(a).localeCompare(nameOf(b)));
}

/** getPatch: the strategic merge patch that puts the set's template back. */
export function templatePatch(set: StatefulSet): { spec: { template: PodTemplateSpec & { $patch: 'replace' } } } {
  return { spec: { template: { ...structuredClone(set.spec?.template ?? {}), $patch: 'replace' } } };
}

/** HashControllerRevision: FNV-1 of the data, then of the collision count in decimal. */
export function hashRevision(data: unknown, collisionCount: number | undefined): string {
  const enc = new TextEncoder();
  let h = fnv32(enc.encode(canonicalJSON(data)));
  if (collisionCount !== undefined) h = fnv32(enc.encode(String(collisionCount)), h);
  return safeEncodeString(String(h));
}

/** history.EqualRevision: the same data (and the same hash when both are numbers). */
export const equalRevision = (a: ControllerRevision, b: ControllerRevision): boolean => canonicalJSON(a.data ?? null) === canonicalJSON(b.data ?? null);

/** The set with the template a revision holds (ApplyRevision). */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const template = (revision.data as { spec?: { template?: PodTemplateSpec & { $patch?: string } } } | undefined)?.spec?.template;
  if (!template) return set;
  const { $patch: _directive, ...restored } = structuredClone(template);
  return { ...set, spec: { ...set.spec, template: restored } };
}

/** newRevision: the revision the set's template makes, numbered `revision`. */
export function newRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const data = templatePatch(set);
  const hash = hashRevision(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${nameOf(set).slice(0, MAX_PREFIX)}-${hash}`,
      namespace: namespaceOf(set),
      labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [REVISION_LABEL]: hash },
      annotations: { ...annotationsOf(set) },
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    data,
    revision,
  };
}

export interface Revisions {
  current: ControllerRevision;
  update: ControllerRevision;
  collisionCount: number;
}

/** getStatefulSetRevisions over the set's (sorted) revisions; creates or rolls forward the update revision. */
export async function statefulSetRevisions(set: StatefulSet, revisions: ControllerRevision[], client: ResourceClient): Promise<Revisions> {
  let collisionCount = set.status?.collisionCount ?? 0;
  const last = revisions[revisions.length - 1];
  const next = last ? revisionNumber(last) + 1 : 1;
  let update = newRevision(set, next, collisionCount);
  const equal = revisions.filter((r) => equalRevision(r, update));
  const newestEqual = equal[equal.length - 1];
  if (newestEqual && last && equalRevision(last, newestEqual)) {
    update = last;
  } else if (newestEqual) {
    update = await setRevisionNumber(client, newestEqual, next);
  } else {
    const created = await createRevision(client, set, update, collisionCount);
    update = created.revision;
    collisionCount = created.collisionCount;
  }
  const current = revisions.find((r) => nameOf(r) === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount };
}

/** UpdateControllerRevision: a new revision number, retried on conflicts. */
async function setRevisionNumber(client: ResourceClient, revision: ControllerRevision, number: number): Promise<ControllerRevision> {
  let cur = structuredClone(revision);
  for (let attempt = 0; ; attempt++) {
    if (revisionNumber(cur) === number) return cur;
    cur.revision = number;
    try {
      return (await client.update(namespaceOf(cur), cur)) as ControllerRevision;
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
      cur = (await client.get(namespaceOf(cur), nameOf(cur))) as ControllerRevision;
    }
  }
}

/**
 * CreateControllerRevision: the name carries the hash of the data and the collision count; a name
 * taken by different data bumps the count and tries again.
 */
async function createRevision(client: ResourceClient, set: StatefulSet, revision: ControllerRevision, collisionCount: number): Promise<{ revision: ControllerRevision; collisionCount: number }> {
  for (let count = collisionCount; ; count++) {
    const hash = hashRevision(revision.data, count);
    const attempt = structuredClone(revision);
    attempt.metadata!.name = `${nameOf(set).slice(0, MAX_PREFIX)}-${hash}`;
    attempt.metadata!.labels = { ...labelsOf(revision), [REVISION_LABEL]: hash };
    try {
      return { revision: (await client.create(namespaceOf(set), attempt)) as ControllerRevision, collisionCount: count };
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = (await client.get(namespaceOf(set), nameOf(attempt))) as ControllerRevision;
      if (equalRevision(existing, attempt)) return { revision: existing, collisionCount: count };
    }
  }
}

/** truncateHistory: deletes the oldest revisions no one uses beyond revisionHistoryLimit. */
export async function truncateHistory(set: StatefulSet, podRevisions: Iterable<string>, revisions: ControllerRevision[], live: Revisions | undefined, client: ResourceClient): Promise<void> {
  const inUse = new Set(podRevisions);
  if (live) {
    inUse.add(nameOf(live.current));
    inUse.add(nameOf(live.update));
  }
  const history = revisions.filter((r) => !inUse.has(nameOf(r)));
  const limit = set.spec?.revisionHistoryLimit ?? 10;
  for (const r of history.slice(0, Math.max(0, history.length - limit))) await client.delete(namespaceOf(r), nameOf(r));
}
