// The modules of the rbac.authorization.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { clusterRoleModule } from './clusterrole.js';
import { clusterRoleBindingModule } from './clusterrolebinding.js';
import { roleModule } from './role.js';
import { roleBindingModule } from './rolebinding.js';

export const rbacModules: readonly KindModule[] = [roleModule, clusterRoleModule, roleBindingModule, clusterRoleBindingModule];
