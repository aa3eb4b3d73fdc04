// Image references as the kubelet reads them (distribution/reference's ParseNormalizedNamed, which
// its image manager calls before any pull), and the names a simulated registry cannot resolve:
// hosts under the TLDs RFC 2606 and RFC 6761 reserve, which no DNS answers for.

const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const HOST = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])`;
const DOMAIN = `${HOST}(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const NAME_MAX = 255;
const DEFAULT_DOMAIN = 'docker.io';

export interface ImageReference {
  /** The registry host (with its port), `docker.io` when the reference names none. */
  domain: string;
  /** The repository path within the registry (`library/nginx`). */
  path: string;
  tag?: string;
  digest?: string;
}

/** docker's rule: the first component names a registry when it has a dot or a port, or is localhost. */
function splitDomain(name: string): { domain: string; remainder: string } {
  const i = name.indexOf('/');
  const first = i < 0 ? '' : name.slice(0, i);
  const named = i >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost' || first.toLowerCase() !== first);
  let domain = named ? first : DEFAULT_DOMAIN;
  const remainder = named ? name.slice(i + 1) : name;
  if (domain === 'index.docker.io') domain = DEFAULT_DOMAIN;
  return { domain, remainder: domain === DEFAULT_DOMAIN && !remainder.includes('/') ? `library/${remainder}` : remainder };
}

/**
 * `image` parsed as the kubelet parses it; throws an Error whose message is the parser's
 * (`invalid reference format`, `repository name must be lowercase`, ...).
 */
export function parseImageReference(image: string): ImageReference {
  if (/^[a-f0-9]{64}$/.test(image)) throw new Error(`invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`);
  const { domain, remainder } = splitDomain(image);
  const tagSep = remainder.indexOf(':');
  const remote = tagSep >= 0 ? remainder.slice(0, tagSep) : remainder;
  if (remote.toLowerCase() !== remote) throw new Error(`invalid reference format: repository name (${remote}) must be lowercase`);
  const m = REFERENCE.exec(`${domain}/${remainder}`);
  if (!m) throw new Error(image === '' ? 'repository name must have at least one component' : 'invalid reference format');
  if (m[1]!.length > NAME_MAX) throw new Error(`repository name must not be more than ${NAME_MAX} characters`);
  return { domain, path: m[1]!.slice(domain.length + 1), ...(m[2] !== undefined ? { tag: m[2] } : {}), ...(m[3] !== undefined ? { digest: m[3] } : {}) };
}

/** `domain/path:tag` or `domain/path@digest` (the tag `latest` when it names neither), as a runtime reports it. */
export function fullReference(ref: ImageReference): string {
  if (ref.digest !== undefined) return `${ref.domain}/${ref.path}${ref.tag !== undefined ? `:${ref.tag}` : ''}@${ref.digest}`;
  return `${ref.domain}/${ref.path}:${ref.tag ?? 'latest'}`;
}

/** Top-level domains that never resolve (RFC 2606 §2, RFC 6761 §6.2–6.5 minus localhost's loopback answer, kept reserved here). */
const RESERVED_TLDS = ['invalid', 'test', 'example', 'localhost'];

/** Whether the registry host is a name under a reserved TLD (a bare `localhost` is a real host). */
export function isUnresolvableRegistry(domain: string): boolean {
  const host = domain.replace(/:[0-9]+$/, '').toLowerCase();
  if (host === 'localhost') return false;
  const tld = host.slice(host.lastIndexOf('.') + 1);
  return host.includes('.') && RESERVED_TLDS.includes(tld);
}

/** A shell-style glob (`*` any run of characters, `?` one) matched against the whole string. */
export function globMatches(glob: string, s: string): boolean {
  const re = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(s);
}
