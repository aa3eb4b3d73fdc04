// The 409 of server-side apply conflicts, worded as kube-apiserver's NewConflictError.
import { pathToString, type Path } from '../fieldpath/element.js';
import { StatusError } from '../status.js';

/** The manager as conflict messages name it (printManager). */
function printManager(id: string): string {
  const e = JSON.parse(id) as { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion ?? ''}`;
  return s;
}

/** The 409 of conflicting fields, worded as kube-apiserver's NewConflictError. */
export function conflictError(conflicts: Array<{ id: string; path: Path }>): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.id)}`, field: pathToString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.id)}: ${pathToString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const list = byManager.get(c.id) ?? [];
      list.push(pathToString(c.path));
      byManager.set(c.id, list);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(id)}:`);
      for (const p of byManager.get(id)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { details: { causes } });
}

