// k8s.io/apiserver pkg/cel/library/format.go: format.<name>() validators and format.named(),
// whose validate(string) gives optional.none() or optional.of(the list of messages).
import { celList } from '@bufbuild/cel';
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../validation/names.js';
import { OpaqueValue } from './opaque.js';
import { Optional } from './optional.js';
import { parseRequestURI } from './urls.js';
import { fn, method, type K8sOverload } from './types.js';

class Format extends OpaqueValue {
  readonly typeName = 'kubernetes.NamedFormat';
  constructor(readonly name: string, readonly validate: (s: string) => string[]) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof Format && other.name === this.name;
  }
}

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

const formats: Record<string, Format> = {
  dns1123Label: new Format('DNS1123Label', (s) => nameIsDNSLabel(s, false)),
  dns1123Subdomain: new Format('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)),
  dns1035Label: new Format('DNS1035Label', (s) => nameIsDNS1035Label(s, false)),
  qualifiedName: new Format('QualifiedName', isQualifiedName),
  dns1123LabelPrefix: new Format('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)),
  dns1123SubdomainPrefix: new Format('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)),
  dns1035LabelPrefix: new Format('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)),
  labelValue: new Format('LabelValue', isValidLabelValue),
  uri: new Format('URI', (s) => { const r = parseRequestURI(s); return typeof r === 'string' ? [r] : []; }),
  uuid: new Format('uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format'])),
  byte: new Format('byte', (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64'])),
  date: new Format('date', (s) => (validDate(s) ? [] : ['invalid date'])),
  datetime: new Format('datetime', (s) => (DATETIME.test(s) && validDate(s.slice(0, 10)) ? [] : ['invalid datetime'])),
};

export const formatLibrary: K8sOverload[] = [
  ...Object.entries(formats).map(([name, f]) => fn(`format.${name}`, (a) => (a.length === 0 ? f : undefined))),
  fn('format.named', ([n]) => (typeof n === 'string' ? (formats[n] ? Optional.of(formats[n]) : Optional.NONE) : undefined)),
  method('validate', (t, [s]) => {
    if (!(t instanceof Format) || typeof s !== 'string') return undefined;
    const errs = t.validate(s);
    return errs.length === 0 ? Optional.NONE : Optional.of(celList(errs));
  }),
];
