// core/v1 security settings: container SecurityContext, PodSecurityContext and their parts.
import { field, listOf, struct, t } from '../../schema/dsl.js';

const req = { omitempty: false, required: true } as const;

export const ProcMountType = ['Default', 'Unmasked'] as const;
export const SeccompProfileType = ['Localhost', 'RuntimeDefault', 'Unconfined'] as const;
export const AppArmorProfileType = ['Localhost', 'RuntimeDefault', 'Unconfined'] as const;
export const PodFSGroupChangePolicy = ['Always', 'OnRootMismatch'] as const;
export const SupplementalGroupsPolicy = ['Merge', 'Strict'] as const;

export const Capabilities = struct('io.k8s.api.core.v1.Capabilities', {
  add: field(listOf(t.string), 1, { listType: 'atomic' }),
  drop: field(listOf(t.string), 2, { listType: 'atomic' }),
});

export const SELinuxOptions = struct('io.k8s.api.core.v1.SELinuxOptions', {
  user: field(t.string, 1),
  role: field(t.string, 2),
  type: field(t.string, 3),
  level: field(t.string, 4),
});

export const WindowsSecurityContextOptions = struct('io.k8s.api.core.v1.WindowsSecurityContextOptions', {
  gmsaCredentialSpecName: field(t.string, 1, { pointer: true }),
  gmsaCredentialSpec: field(t.string, 2, { pointer: true }),
  runAsUserName: field(t.string, 3, { pointer: true }),
  hostProcess: field(t.bool, 4, { pointer: true }),
});

export const SeccompProfile = struct('io.k8s.api.core.v1.SeccompProfile', {
  type: field(t.string, 1, { ...req, enum: SeccompProfileType }),
  localhostProfile: field(t.string, 2, { pointer: true }),
});

export const AppArmorProfile = struct('io.k8s.api.core.v1.AppArmorProfile', {
  type: field(t.string, 1, { ...req, enum: AppArmorProfileType }),
  localhostProfile: field(t.string, 2, { pointer: true }),
});

export const Sysctl = struct('io.k8s.api.core.v1.Sysctl', {
  name: field(t.string, 1, req),
  value: field(t.string, 2, req),
});

export const SecurityContext = struct('io.k8s.api.core.v1.SecurityContext', {
  capabilities: field(Capabilities, 1, { pointer: true }),
  privileged: field(t.bool, 2, { pointer: true }),
  seLinuxOptions: field(SELinuxOptions, 3, { pointer: true }),
  windowsOptions: field(WindowsSecurityContextOptions, 10, { pointer: true }),
  runAsUser: field(t.int64, 4, { pointer: true }),
  runAsGroup: field(t.int64, 8, { pointer: true }),
  runAsNonRoot: field(t.bool, 5, { pointer: true }),
  readOnlyRootFilesystem: field(t.bool, 6, { pointer: true }),
  allowPrivilegeEscalation: field(t.bool, 7, { pointer: true }),
  procMount: field(t.string, 9, { pointer: true, enum: ProcMountType }),
  seccompProfile: field(SeccompProfile, 11, { pointer: true }),
  appArmorProfile: field(AppArmorProfile, 12, { pointer: true }),
});

export const PodSecurityContext = struct('io.k8s.api.core.v1.PodSecurityContext', {
  seLinuxOptions: field(SELinuxOptions, 1, { pointer: true }),
  windowsOptions: field(WindowsSecurityContextOptions, 8, { pointer: true }),
  runAsUser: field(t.int64, 2, { pointer: true }),
  runAsGroup: field(t.int64, 6, { pointer: true }),
  runAsNonRoot: field(t.bool, 3, { pointer: true }),
  supplementalGroups: field(listOf(t.int64), 4, { listType: 'atomic' }),
  supplementalGroupsPolicy: field(t.string, 12, { pointer: true, enum: SupplementalGroupsPolicy }),
  fsGroup: field(t.int64, 5, { pointer: true }),
  sysctls: field(listOf(Sysctl), 7, { listType: 'atomic' }),
  fsGroupChangePolicy: field(t.string, 9, { pointer: true, enum: PodFSGroupChangePolicy }),
  seccompProfile: field(SeccompProfile, 10, { pointer: true }),
  appArmorProfile: field(AppArmorProfile, 11, { pointer: true }),
  seLinuxChangePolicy: field(t.string, 13, { pointer: true }),
});
