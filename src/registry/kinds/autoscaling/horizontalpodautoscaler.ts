// autoscaling HorizontalPodAutoscaler: pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
// (status reset on create and kept on spec writes, the spec kept on status writes; no generation
// tracking) with ./validation.ts, and kubectl's columns (printHorizontalPodAutoscaler). Objects are
// stored as autoscaling/v2, whose conversion drops autoscaling/v1's round-trip annotations: every
// write drops them here.
import { dropRoundTripAnnotations } from '../../../api/autoscaling/conversion.js';
import type { HorizontalPodAutoscaler, HPAScalingRules } from '../../../api/types.js';
import { isObj } from '../../../machinery/validation/common.js';
import type { KindModule } from '../../kind-module.js';
import { cloneJson } from '../../meta.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatus, validateHorizontalPodAutoscalerUpdate } from './validation.js';

const rulesOf = (hpa: HorizontalPodAutoscaler | undefined): (HPAScalingRules | null | undefined)[] => [hpa?.spec?.behavior?.scaleUp, hpa?.spec?.behavior?.scaleDown];

/**
 * dropDisabledFields: behavior tolerances need HPAConfigurableTolerance (alpha, off in 1.33); they
 * are dropped unless the old object already uses one.
 */
function dropDisabledFields(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler | undefined): void {
  if (rulesOf(old).some((r) => isObj(r) && r.tolerance != null)) return;
  for (const rules of rulesOf(hpa)) if (isObj(rules)) delete rules.tolerance;
}

export const horizontalPodAutoscalerStrategy: ResourceStrategy<HorizontalPodAutoscaler> = {
  hasStatus: true,
  tracksGeneration: false,
  prepareForCreate(hpa) {
    dropRoundTripAnnotations(hpa);
    dropDisabledFields(hpa, undefined);
  },
  prepareForUpdate(hpa, old) {
    dropRoundTripAnnotations(hpa);
    dropDisabledFields(hpa, old);
  },
  validate: (hpa) => validateHorizontalPodAutoscaler(hpa),
  validateUpdate: (hpa, old) => validateHorizontalPodAutoscalerUpdate(hpa, old),
  prepareForStatusUpdate(hpa, old) {
    hpa.spec = cloneJson(old.spec);
    dropRoundTripAnnotations(hpa);
  },
  validateStatusUpdate: (hpa) => validateHorizontalPodAutoscalerStatus(hpa),
};

type O = Record<string, unknown>;
/** (*resource.Quantity).String(): a nil one prints as <nil>. */
const q = (v: unknown): string => (typeof v === 'string' ? v : '<nil>');
const MAX_SHOWN = 2;

/** One metric as `current/target` (formatHPAMetrics); a status is read at the same index as its spec. */
function formatMetric(spec: O, status: O | undefined): string {
  const unknown = '<unknown>';
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = fmt.obj(fmt.obj(spec[key]).target);
      const current = isObj(status?.[key]) ? fmt.obj(fmt.obj(status[key]).current) : undefined;
      if (target.averageValue != null) return `${current?.averageValue != null ? q(current.averageValue) : unknown}/${q(target.averageValue)} (avg)`;
      return `${current ? q(current.value) : unknown}/${q(target.value)}`;
    }
    case 'Pods': {
      const current = isObj(status?.pods) ? fmt.obj(fmt.obj(status.pods).current) : undefined;
      return `${current ? q(current.averageValue) : unknown}/${q(fmt.obj(fmt.obj(spec.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const source = fmt.obj(spec[key]);
      const target = fmt.obj(source.target);
      const current = isObj(status?.[key]) ? fmt.obj(fmt.obj(status[key]).current) : undefined;
      const name = fmt.str(source.name);
      if (target.averageValue != null) return `${name}: ${current ? q(current.averageValue) : unknown}/${q(target.averageValue)}`;
      const now = current?.averageUtilization != null ? `${fmt.int(current.averageUtilization)}%` : unknown;
      const goal = target.averageUtilization != null ? `${fmt.int(target.averageUtilization)}%` : '<auto>';
      return `${name}: ${now}/${goal}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: the first two metrics, then how many more. */
export function formatHPAMetrics(specs: O[], statuses: O[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  if (list.length <= MAX_SHOWN) return list.join(', ');
  return `${list.slice(0, MAX_SHOWN).join(', ')} + ${list.length - MAX_SHOWN} more...`;
}

export const horizontalPodAutoscalerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Reference', 'string', 'The kind and name of the scaled resource.'),
    column('Targets', 'string', 'Current and target value of each metric.'),
    column('MinPods', 'string', 'The fewest replicas the autoscaler keeps.'),
    column('MaxPods', 'string', 'The most replicas the autoscaler sets.'),
    column('Replicas', 'string', 'Replicas as the autoscaler last saw them.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const status = fmt.obj(o.status);
    const ref = fmt.obj(spec.scaleTargetRef);
    const minPods = typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>';
    const targets = formatHPAMetrics(fmt.arr(spec.metrics), fmt.arr(status.currentMetrics));
    return [fmt.nameCell(o), `${fmt.str(ref.kind)}/${fmt.str(ref.name)}`, targets, minPods, fmt.int(spec.maxReplicas), fmt.int(status.currentReplicas), fmt.ageCell(o, now)];
  },
};

export const horizontalPodAutoscalerModule: KindModule = { group: 'autoscaling', kind: 'HorizontalPodAutoscaler', strategy: horizontalPodAutoscalerStrategy, printer: horizontalPodAutoscalerPrinter };
