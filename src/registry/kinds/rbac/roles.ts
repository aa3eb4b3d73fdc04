// What Role and ClusterRole share (pkg/apis/rbac/validation): rules need verbs, and either API
// groups and resources or — in ClusterRoles only — non-resource URLs; and kubectl's table of a
// role, its name and creation time.
import { metadataOf } from '../../../api/meta/object.js';
import { list, obj, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { nameCell } from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule.verbs).length === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule.apiGroups).length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

/** The rules of a Role (`namespaced`) or ClusterRole. */
export function validateRules(role: Obj, namespaced: boolean): FieldError[] {
  return list(role.rules).flatMap((r, i) => validatePolicyRule(obj(r), namespaced, `rules[${i}]`));
}

export const rolePrinter: TablePrinter = {
  columns: [nameColumn, column('Created At', 'date', 'Time when the role was created.')],
  cells: (o) => [nameCell(o), metadataOf(o).creationTimestamp ?? null],
};
