// The controllers the controller manager knows, each by its descriptor (src/controllers/index.ts):
// every controller of seed 001 and of kube-controller-manager 1.33. A table entry without a `ctor`
// (possible in tests) can be named in `--controllers` but the daemon logs that it is not available
// and skips it. The table, the service accounts of --use-service-account-credentials and the
// controllers' bootstrap roles all derive from here.
import type { PolicyRule } from '../api/types.js';
import type { ControllerConstructor } from '../client/types.js';
import { CONTROLLER_DESCRIPTORS, type ControllerDescriptor } from '../controllers/index.js';

/** A row of the table: a descriptor without its name (the key), constructor and aliases optional. */
export type ControllerEntry = Omit<ControllerDescriptor, 'name' | 'aliases' | 'ctor'> & {
  readonly ctor?: ControllerConstructor;
  readonly aliases?: readonly string[];
};

/** Every known controller by name, sorted by name. */
export const CONTROLLERS: Readonly<Record<string, ControllerEntry>> = Object.fromEntries(
  [...CONTROLLER_DESCRIPTORS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(({ name, ...entry }) => [name, entry]),
);

/** The service account each controller acts as under --use-service-account-credentials (when it has one). */
export function controllerServiceAccount(controller: string, table: Readonly<Record<string, ControllerEntry>> = CONTROLLERS): string | undefined {
  return Object.hasOwn(table, controller) ? table[controller]!.serviceAccount : undefined;
}

/** A controller's bootstrap role (the API server's ControllerRole): `system:controller:<serviceAccount>`. */
export interface ControllerRoleData {
  readonly serviceAccount: string;
  readonly rules: readonly PolicyRule[];
}

/** The roles of every known controller that declares one, for the API server's bootstrap policy. */
export function controllerRoles(table: Readonly<Record<string, ControllerEntry>> = CONTROLLERS): ControllerRoleData[] {
  const roles: ControllerRoleData[] = [];
  for (const entry of Object.values(table)) {
    if (entry.serviceAccount !== undefined && entry.rules !== undefined) roles.push({ serviceAccount: entry.serviceAccount, rules: entry.rules });
  }
  return roles;
}

/** The canonical name of a controller named on the command line (its table name or an alias), or undefined. */
export function canonicalControllerName(name: string, table: Readonly<Record<string, ControllerEntry>> = CONTROLLERS): string | undefined {
  if (Object.hasOwn(table, name)) return name;
  for (const [canonical, entry] of Object.entries(table)) if (entry.aliases?.includes(name)) return canonical;
  return undefined;
}

/**
 * Resolves `--controllers` as kube-controller-manager's IsControllerEnabled: for each controller
 * the first of `name` / `-name` in the list decides; otherwise `*` turns on the controllers that
 * are on by default; without `*`, only the named controllers run. Throws on an unknown name.
 * Returns the enabled canonical names, sorted.
 */
export function resolveControllers(spec: readonly string[], table: Readonly<Record<string, ControllerEntry>> = CONTROLLERS): string[] {
  const decided = new Map<string, boolean>();
  let star = false;
  for (const raw of spec) {
    const item = raw.trim();
    if (item === '') continue;
    if (item === '*') {
      star = true;
      continue;
    }
    const neg = item.startsWith('-');
    const name = neg ? item.slice(1) : item;
    const canonical = canonicalControllerName(name, table);
    if (canonical === undefined) {
      throw new Error(`"${name}" is not in the list of known controllers (${Object.keys(table).join(', ')})`);
    }
    if (!decided.has(canonical)) decided.set(canonical, !neg);
  }
  const enabled: string[] = [];
  for (const [name, entry] of Object.entries(table)) {
    const d = decided.get(name);
    if (d ?? (star && entry.enabledByDefault)) enabled.push(name);
  }
  return enabled.sort();
}
