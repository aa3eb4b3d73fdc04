// The autoscaling kinds: HorizontalPodAutoscaler in autoscaling/v2 (storage) and autoscaling/v1,
// as kube-apiserver 1.33 serves them (v2beta1 and v2beta2 are no longer served).
import type { KindVersion } from '../schema/kind.js';
import { autoscalingV1Conversion } from './conversion.js';
import { defaultHorizontalPodAutoscalerV1, defaultHorizontalPodAutoscalerV2 } from './defaults.js';
import * as v1 from './v1.js';
import * as v2 from './v2.js';

const G = 'autoscaling';
const hpaNames = { kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', shortNames: ['hpa'], categories: ['all'], namespaced: true } as const;
const c1 = autoscalingV1Conversion.horizontalPodAutoscaler;

export const autoscalingKinds: readonly KindVersion[] = [
  { group: G, version: 'v2', ...hpaNames, type: v2.HorizontalPodAutoscaler, list: v2.HorizontalPodAutoscalerList, storage: true, defaults: defaultHorizontalPodAutoscalerV2, subresources: { status: true } },
  { group: G, version: 'v1', ...hpaNames, type: v1.HorizontalPodAutoscaler, list: v1.HorizontalPodAutoscalerList, storage: false, defaults: defaultHorizontalPodAutoscalerV1, toHub: c1.toHub, fromHub: c1.fromHub, subresources: { status: true } },
];
