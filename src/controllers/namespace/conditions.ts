// The namespace conditions the namespace deleter maintains (Kubernetes' namespaceConditionUpdater):
// each sync computes the failing ones; the others get their "ok" form; only changes are written.
import { ErrGroupDiscoveryFailed } from '../../client/discovery.js';
import type { NamespaceCondition, NamespaceStatus } from '../../api/types.js';

export type { NamespaceCondition };

export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK_MESSAGES: Record<string, string> = {
  NamespaceDeletionDiscoveryFailure: 'All resources successfully discovered',
  NamespaceDeletionGroupVersionParsingFailure: 'All legacy kube types successfully parsed',
  NamespaceDeletionContentFailure: 'All content successfully deleted, may be waiting on finalization',
  NamespaceContentRemaining: 'All content successfully removed',
  NamespaceFinalizersRemaining: 'All content-preserving finalizers finished',
};

const OK_REASONS: Record<string, string> = {
  NamespaceDeletionDiscoveryFailure: 'ResourcesDiscovered',
  NamespaceDeletionGroupVersionParsingFailure: 'ParsedGroupVersions',
  NamespaceDeletionContentFailure: 'ContentDeleted',
  NamespaceContentRemaining: 'ContentRemoved',
  NamespaceFinalizersRemaining: 'ContentHasNoFinalizers',
};

/** What remains of the content, by resource (`pods.`, `deployments.apps`) and by finalizer. */
export interface ContentTotals {
  /** key: `${resource}.${group}` */
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

export class NamespaceConditionUpdater {
  private readonly newConditions: NamespaceCondition[] = [];
  private readonly deleteContentErrors: Error[] = [];

  constructor(private readonly now: () => string) {}

  processGroupVersionErr(err: Error): void {
    this.newConditions.push({ type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'True', lastTransitionTime: this.now(), reason: 'GroupVersionParsingFailed', message: err.message });
  }

  processDiscoverResourcesErr(err: Error): void {
    const message = err instanceof ErrGroupDiscoveryFailed ? `Discovery failed for some groups, ${err.groups.size} failing: ${err.message}` : err.message;
    this.newConditions.push({ type: 'NamespaceDeletionDiscoveryFailure', status: 'True', lastTransitionTime: this.now(), reason: 'DiscoveryFailed', message });
  }

  processContentTotals(totals: ContentTotals): void {
    const byResource = [...totals.byResource].filter(([, n]) => n > 0);
    if (byResource.length > 0) {
      const parts = byResource.map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
      this.newConditions.push({
        type: 'NamespaceContentRemaining',
        status: 'True',
        lastTransitionTime: this.now(),
        reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${parts.join(', ')}`,
      });
    }
    const byFinalizer = [...totals.byFinalizer].filter(([, n]) => n > 0);
    if (byFinalizer.length > 0) {
      const parts = byFinalizer.map(([f, n]) => `${f} in ${n} resource instances`).sort();
      this.newConditions.push({
        type: 'NamespaceFinalizersRemaining',
        status: 'True',
        lastTransitionTime: this.now(),
        reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`,
      });
    }
  }

  processDeleteContentErr(err: Error): void {
    this.deleteContentErrors.push(err);
  }

  /** Folds the outcome into `conditions` (in place); true when anything changed. */
  update(status: NamespaceStatus): boolean {
    if (!this.newConditions.some((c) => c.type === 'NamespaceDeletionContentFailure') && this.deleteContentErrors.length > 0) {
      const msgs = this.deleteContentErrors.map((e) => e.message).sort();
      this.newConditions.push({
        type: 'NamespaceDeletionContentFailure',
        status: 'True',
        lastTransitionTime: this.now(),
        reason: 'ContentDeletionFailed',
        message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
      });
    }
    let changed = false;
    const conditions = (status.conditions ??= []);
    for (const type of CONDITION_TYPES) {
      const next = this.newConditions.find((c) => c.type === type) ?? { type, status: 'False', lastTransitionTime: this.now(), reason: OK_REASONS[type], message: OK_MESSAGES[type] };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        if (old.status !== next.status) old.lastTransitionTime = this.now();
        old.status = next.status;
        old.reason = next.reason;
        old.message = next.message;
        changed = true;
      }
    }
    return changed;
  }
}
