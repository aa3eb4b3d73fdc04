// The clusterrole-aggregation controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { rule } from '../common/rbac.js';
import { ClusterRoleAggregationController } from './controller.js';

export const clusterRoleAggregationDescriptor: ControllerDescriptor = {
  name: 'clusterrole-aggregation',
  aliases: ['clusterrole-aggregation-controller'],
  enabledByDefault: true,
  serviceAccount: 'clusterrole-aggregation-controller',
  rules: [rule(['rbac.authorization.k8s.io'], 'clusterroles', 'escalate get list patch update watch')],
  ctor: (ctx) => new ClusterRoleAggregationController(ctx),
};
