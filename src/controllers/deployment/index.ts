// The deployment controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { newDeploymentController } from './controller.js';

export const deploymentDescriptor: ControllerDescriptor = {
  name: 'deployment',
  aliases: ['deployment-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentDeploymentSyncs',
  serviceAccount: 'deployment-controller',
  rules: [
    rule(['apps', 'extensions'], 'deployments', 'get list update watch'),
    rule(['apps', 'extensions'], 'deployments/status', 'update'),
    rule(['apps', 'extensions'], 'deployments/finalizers', 'update'),
    rule(['apps', 'extensions'], 'replicasets', 'create delete get list patch update watch'),
    rule(CORE, 'pods', 'get list update watch'),
    EVENTS_RULE,
  ],
  ctor: newDeploymentController,
};
