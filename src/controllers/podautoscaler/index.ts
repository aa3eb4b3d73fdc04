// The horizontal pod autoscaler's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { HorizontalController } from './controller.js';

export const horizontalPodAutoscalingDescriptor: ControllerDescriptor = {
  name: 'horizontalpodautoscaling',
  aliases: ['horizontal-pod-autoscaler-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentHorizontalPodAutoscalerSyncs',
  serviceAccount: 'horizontal-pod-autoscaler',
  rules: [
    rule(['autoscaling'], 'horizontalpodautoscalers', READ),
    rule(['autoscaling'], 'horizontalpodautoscalers/status', 'update'),
    rule(['*'], '*/scale', 'get update'),
    rule(CORE, 'pods', 'list'),
    rule(['metrics.k8s.io'], 'pods', 'list'),
    rule(['custom.metrics.k8s.io'], '*', 'get list'),
    rule(['external.metrics.k8s.io'], '*', 'get list'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new HorizontalController(ctx),
};
