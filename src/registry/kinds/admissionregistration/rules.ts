// What the admissionregistration kinds share (pkg/apis/admissionregistration/validation): rules
// with operations, the webhook client config (url xor service), match conditions.
import { celCompileError } from '../../../machinery/cel/compile.js';
import { isObj, objs, str, strs, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../../machinery/validation/names.js';

export const SUPPORTED_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
export const SUPPORTED_FAILURE_POLICIES = ['Fail', 'Ignore'];
export const SUPPORTED_MATCH_POLICIES = ['Equivalent', 'Exact'];
const VALID_SCOPES = ['*', 'Cluster', 'Namespaced'];

const hasWildcard = (values: readonly string[]) => values.includes('*');

/** validateResources: subresource wildcards may not overlap, `*` and `*\/*` stand alone. */
function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldError.required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldError.required(`${path}[${i}]`));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSub.has(res)) errs.push(fieldError.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(fieldError.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations (rules always allow subresources). */
export function validateRuleWithOperations(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strs(rule.operations);
  if (operations.length === 0) errs.push(fieldError.required(`${path}.operations`));
  if (operations.length > 1 && hasWildcard(operations)) errs.push(fieldError.invalid(`${path}.operations`, operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!SUPPORTED_OPERATIONS.includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, SUPPORTED_OPERATIONS));
  });
  const groups = strs(rule.apiGroups);
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(fieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = strs(rule.apiVersions);
  if (versions.length === 0) errs.push(fieldError.required(`${path}.apiVersions`));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(fieldError.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(strs(rule.resources), `${path}.resources`));
  if (typeof rule.scope === 'string' && !VALID_SCOPES.includes(rule.scope)) errs.push(fieldError.notSupported(`${path}.scope`, rule.scope, VALID_SCOPES));
  return errs;
}

const URL_FORM = '; desired format: https://host[/path]';

/** Go's url.Parse, as far as the webhook URL checks read it: scheme, user, host, query, fragment. */
function parseUrl(url: string): { scheme: string; user?: string; host: string; query: string; fragment: string } | string {
  if (/[\x00-\x1f\x7f]/.test(url)) return `parse ${JSON.stringify(url)}: net/url: invalid control character in URL`;
  let rest = url;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (!scheme && rest.startsWith(':')) return `parse ${JSON.stringify(url)}: missing protocol scheme`;
  if (scheme) rest = rest.slice(scheme[0].length);
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) [rest, query] = [rest.slice(0, q), rest.slice(q + 1)];
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0]!;
    const at = authority.lastIndexOf('@');
    if (at >= 0) user = authority.slice(0, at);
    host = at >= 0 ? authority.slice(at + 1) : authority;
  }
  return { scheme: scheme ? scheme[1]!.toLowerCase() : '', user, host, query, fragment };
}

/** webhook.ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(path: string, url: string): FieldError[] {
  const u = parseUrl(url);
  if (typeof u === 'string') return [fieldError.required(path, `url must be a valid URL: ${u}${URL_FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') errs.push(fieldError.invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.user !== undefined) errs.push(fieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') errs.push(fieldError.invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
export function validateWebhookService(path: string, service: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (str(service.name) === '') errs.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (str(service.namespace) === '') errs.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  if (typeof service.port === 'number') {
    const portErrs = isValidPortNum(service.port);
    if (portErrs.length > 0) errs.push(fieldError.invalid(`${path}.port`, service.port, `port is not valid: ${portErrs.join(', ')}`));
  }
  if (typeof service.path !== 'string') return errs;
  const urlPath = service.path;
  if (urlPath === '/' || urlPath === '') return errs;
  if (urlPath === '//') return [...errs, fieldError.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(fieldError.invalid(`${path}.path`, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(fieldError.invalid(`${path}.path`, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** The clientConfig of a webhook: exactly one of url and service. */
export function validateClientConfig(path: string, cc: unknown): FieldError[] {
  const config = isObj(cc) ? cc : {};
  const hasUrl = typeof config.url === 'string';
  const hasService = isObj(config.service);
  if (hasUrl === hasService) return [fieldError.required(path, 'exactly one of url or service is required')];
  return hasUrl ? validateWebhookURL(`${path}.url`, config.url as string) : validateWebhookService(`${path}.service`, config.service as Obj);
}

/** A CEL expression that does not parse: Invalid under its path with the compiler's detail. */
export function validateCelExpression(expression: string, path: string): FieldError[] {
  const detail = celCompileError(expression);
  return detail === undefined ? [] : [fieldError.invalid(path, expression, detail)];
}

/** validateMatchConditions: at most 64, each named (a qualified name, unique) with an expression that compiles. */
export function validateMatchConditions(conditions: unknown, path: string): FieldError[] {
  const list = objs(conditions);
  const errs: FieldError[] = [];
  if (list.length > 64) errs.push(fieldError.tooMany(path, list.length, 64));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const name = str(c.name);
    const expression = str(c.expression).trim();
    if (expression === '') errs.push(fieldError.required(`${path}[${i}].expression`));
    else errs.push(...validateCelExpression(expression, `${path}[${i}].expression`));
    if (name === '') errs.push(fieldError.required(`${path}[${i}].name`));
    else for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(`${path}[${i}].name`, name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}[${i}].name`, name));
      else names.add(name);
    }
  });
  return errs;
}
