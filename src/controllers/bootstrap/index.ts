// The bootstrap token controllers' descriptors (see ../README.md): off by default, as in
// Kubernetes and seed 001. Their permissions are namespaced Roles of the bootstrap policy
// (system:controller:bootstrap-signer in kube-public and kube-system, system:controller:token-cleaner
// in kube-system), so the descriptors declare no ClusterRole.
import type { ControllerDescriptor } from '../common/descriptor.js';
import { BootstrapSigner } from './signer.js';
import { TokenCleaner } from './tokencleaner.js';

export const bootstrapSignerDescriptor: ControllerDescriptor = {
  name: 'bootstrapsigner',
  aliases: ['bootstrap-signer-controller'],
  enabledByDefault: false,
  workers: 1,
  serviceAccount: 'bootstrap-signer',
  ctor: (ctx) => new BootstrapSigner(ctx),
};

export const tokenCleanerDescriptor: ControllerDescriptor = {
  name: 'tokencleaner',
  aliases: ['token-cleaner-controller'],
  enabledByDefault: false,
  workers: 1,
  serviceAccount: 'token-cleaner',
  ctor: (ctx) => new TokenCleaner(ctx),
};
