// The controller manager as a library (for `kubelite up` and tests):
//   const cm = await startControllerManager(defaultOptions({ kubeconfig, port: 0 }), { serve: { port: 0 } });
//   ... await cm.stop();
export { startControllerManager, type ControllerManagerHandle, type ManagerDeps } from './manager.js';
export { defaultOptions, parseControllerManagerOptions, type ControllerManagerOptions } from './options.js';
export { CONTROLLERS, controllerRoles, resolveControllers, type ControllerEntry } from './controllers.js';
export { buildClients, type ClientBundle } from './clients.js';
export { LeaderElector, newResourceLock, newIdentity, type LeaderElectionRecord } from './leader-election.js';
