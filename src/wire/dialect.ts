// The JSON dialects SharePoint speaks, and how a request picks one from its `Accept` and
// `OData-Version` headers (reference §0.2).

export type Dialect = 'verbose' | 'minimal' | 'nometadata' | 'v4-minimal' | 'v4-none' | 'v4-full';

export const CONTENT_TYPES: Record<Dialect, string> = {
  verbose: 'application/json;odata=verbose;charset=utf-8',
  minimal: 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8',
  nometadata: 'application/json;odata=nometadata;streaming=true;charset=utf-8',
  'v4-minimal': 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
  'v4-none': 'application/json;odata.metadata=none;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
  'v4-full': 'application/json;odata.metadata=full;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
};

export const isV4 = (d: Dialect) => d.startsWith('v4-');

/** `OData-Version: 4.0` asks for OData v4; an empty value or `3.0` means v3. */
const isV4Request = (odataVersion: string | undefined) => (odataVersion ?? '').trim().startsWith('4');

/**
 * The dialect an error is written in: the negotiated one, or when none fits (the 406 itself,
 * errors before negotiation) the minimal metadata of the OData version the client asked for.
 */
export function errorDialect(accept: string | undefined, odataVersion: string | undefined): Dialect {
  return negotiateDialect(accept, odataVersion) ?? (isV4Request(odataVersion) ? 'v4-minimal' : 'minimal');
}

/**
 * Picks the dialect, or undefined when nothing acceptable was asked for (→ 406).
 * No `Accept` or `*\/*` gives minimal metadata: SharePoint would answer Atom, which spemu
 * does not speak (recorded in docs/compatibility.md).
 */
export function negotiateDialect(accept: string | undefined, odataVersion: string | undefined): Dialect | undefined {
  const v4 = isV4Request(odataVersion);
  const ranges = (accept ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  if (ranges.length === 0) return v4 ? 'v4-minimal' : 'minimal';
  for (const range of ranges) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    const param = (name: string) => params.find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1);
    const v3Level = param('odata');
    const v4Level = param('odata.metadata');
    if (v4) {
      // SharePoint Online answers 406 to the v3 `odata=` directive in v4 mode.
      if (v3Level !== undefined) return undefined;
      if (v4Level === 'none') return 'v4-none';
      if (v4Level === 'full') return 'v4-full';
      return 'v4-minimal';
    }
    if (v3Level === 'verbose') return 'verbose';
    if (v3Level === 'nometadata' || v4Level === 'none') return 'nometadata';
    return 'minimal';
  }
  return undefined;
}
