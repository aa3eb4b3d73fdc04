// The Status errors of the security chain, worded as kube-apiserver words them.
import { StatusError } from '../../machinery/status.js';
import type { Attributes } from './types.js';

export const authError = {
  unauthorized: () => new StatusError(401, 'Unauthorized', 'Unauthorized'),
  /** 403 for a request the authorizer did not allow. */
  forbidden(attrs: Attributes, reason = ''): StatusError {
    const who = `User "${attrs.user.name}"`;
    const why = reason === '' ? '' : `: ${reason}`;
    if (!attrs.resourceRequest) {
      return new StatusError(403, 'Forbidden', `forbidden: ${who} cannot ${attrs.verb} path "${attrs.path}"${why}`, { details: {} });
    }
    // The message names the resource and subresource; the qualified resource before it does not.
    const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
    const qualified = attrs.apiGroup === '' ? attrs.resource : `${attrs.resource}.${attrs.apiGroup}`;
    const target = attrs.name === '' ? qualified : `${qualified} "${attrs.name}"`;
    const scope = attrs.namespace === '' ? 'at the cluster scope' : `in the namespace "${attrs.namespace}"`;
    return new StatusError(
      403,
      'Forbidden',
      `${target} is forbidden: ${who} cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" ${scope}${why}`,
      { details: { name: attrs.name, group: attrs.apiGroup, kind: attrs.resource } },
    );
  },
};
