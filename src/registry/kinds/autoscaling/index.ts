// The modules of the autoscaling kinds.
import type { KindModule } from '../../kind-module.js';
import { horizontalPodAutoscalerModule } from './horizontalpodautoscaler.js';

export const autoscalingModules: readonly KindModule[] = [horizontalPodAutoscalerModule];
