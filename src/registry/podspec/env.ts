// A container's environment: its variables (a value or one source: a pod field, a container
// resource, a ConfigMap or Secret key) and the ConfigMaps and Secrets it imports whole (envFrom).
import type { Container } from '../../api/types.js';
import { child, index, str } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { isConfigMapKey, isEnvVarName, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import { optStruct, structs } from '../../machinery/validation/structs.js';
import { validateContainerResourceFieldSelector, validateObjectFieldSelector, validEnvDownwardAPIFieldPaths } from './downward-api.js';

export function validateEnv(env: Container['env'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(env).forEach((ev, i) => {
    const p = index(path, i);
    const name = str(ev.name);
    if (name === '') errs.push(fieldError.required(child(p, 'name')));
    else for (const msg of isEnvVarName(name)) errs.push(fieldError.invalid(child(p, 'name'), name, msg));
    const from = optStruct(ev.valueFrom);
    if (!from) return;
    const fp = child(p, 'valueFrom');
    let numSources = 0;
    const fieldRef = optStruct(from.fieldRef);
    if (fieldRef) {
      numSources++;
      errs.push(...validateObjectFieldSelector(fieldRef, validEnvDownwardAPIFieldPaths, child(fp, 'fieldRef')));
    }
    const resourceFieldRef = optStruct(from.resourceFieldRef);
    if (resourceFieldRef) {
      numSources++;
      errs.push(...validateContainerResourceFieldSelector(resourceFieldRef, child(fp, 'resourceFieldRef'), false));
    }
    for (const kind of ['configMapKeyRef', 'secretKeyRef'] as const) {
      const sel = optStruct(from[kind]);
      if (!sel) continue;
      numSources++;
      const sp = child(fp, kind);
      for (const msg of nameIsDNSSubdomain(str(sel.name), false)) errs.push(fieldError.invalid(child(sp, 'name'), str(sel.name), msg));
      const k = str(sel.key);
      if (k === '') errs.push(fieldError.required(child(sp, 'key')));
      else for (const msg of isConfigMapKey(k)) errs.push(fieldError.invalid(child(sp, 'key'), k, msg));
    }
    if (numSources === 0) errs.push(fieldError.invalid(fp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (str(ev.value) !== '') errs.push(fieldError.invalid(fp, '', 'may not be specified when `value` is not empty'));
    else if (numSources > 1) errs.push(fieldError.invalid(fp, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

export function validateEnvFrom(envFrom: Container['envFrom'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(envFrom).forEach((ev, i) => {
    const p = index(path, i);
    const prefix = str(ev.prefix);
    if (prefix !== '') for (const msg of isEnvVarName(prefix)) errs.push(fieldError.invalid(child(p, 'prefix'), prefix, msg));
    let numSources = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = optStruct(ev[kind]);
      if (!ref) continue;
      numSources++;
      const name = str(ref.name);
      if (name === '') errs.push(fieldError.required(child(p, kind, 'name')));
      else for (const msg of nameIsDNSSubdomain(name, true)) errs.push(fieldError.invalid(child(p, kind, 'name'), name, msg));
    }
    if (numSources === 0) errs.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (numSources > 1) errs.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
