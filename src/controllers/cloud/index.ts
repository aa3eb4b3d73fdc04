// The cloud controllers' descriptors (see ../README.md): without --cloud-provider they say so once
// and do nothing, as kube-controller-manager without a cloud provider.
import type { Controller, ControllerContext } from '../../client/types.js';
import type { ControllerDescriptor } from '../common/descriptor.js';
import { disabledController } from '../common/disabled.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { CloudNodeLifecycleController } from './node-lifecycle.js';
import { sharedCloud, type KubeliteCloud } from './provider.js';
import { RouteController } from './route.js';
import { ServiceController } from './service.js';

function withCloud(name: string, ctx: ControllerContext, make: (cloud: KubeliteCloud) => Controller): Controller {
  const cloud = sharedCloud(ctx.options);
  return cloud ? make(cloud) : disabledController(name, ctx, 'no cloud provider (--cloud-provider) is configured');
}

export const serviceDescriptor: ControllerDescriptor = {
  name: 'service',
  aliases: ['service-lb-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentServiceSyncs',
  serviceAccount: 'service-controller',
  // the finalizer is patched on the Service itself, as cloud-controller-manager's role allows
  rules: [rule(CORE, 'services', READ), rule(CORE, 'services', 'patch update'), rule(CORE, 'services/status', 'patch update'), rule(CORE, 'nodes', 'list watch'), EVENTS_RULE],
  ctor: (ctx) => withCloud('service', ctx, (cloud) => new ServiceController(ctx, cloud)),
};

export const routeDescriptor: ControllerDescriptor = {
  name: 'route',
  aliases: ['node-route-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'route-controller',
  rules: [rule(CORE, 'nodes', 'list watch'), rule(CORE, 'nodes/status', 'patch'), EVENTS_RULE],
  ctor: (ctx) =>
    withCloud('route', ctx, (cloud) =>
      ctx.options.allocateNodeCidrs === true && ctx.options.configureCloudRoutes !== false
        ? new RouteController(ctx, cloud)
        : disabledController('route', ctx, `will not configure cloud provider routes for allocate-node-cidrs: ${String(ctx.options.allocateNodeCidrs === true)}, configure-cloud-routes: ${String(ctx.options.configureCloudRoutes !== false)}`),
    ),
};

export const cloudNodeLifecycleDescriptor: ControllerDescriptor = {
  name: 'cloud-node-lifecycle',
  aliases: ['cloud-node-lifecycle-controller'],
  enabledByDefault: true,
  workers: 1,
  // Kubernetes runs it as the node controller's service account, whose role allows deleting Nodes
  serviceAccount: 'node-controller',
  ctor: (ctx) => withCloud('cloud-node-lifecycle', ctx, (cloud) => new CloudNodeLifecycleController(ctx, cloud)),
};
