// Column defaults per folder of a document library ("Column default value settings"): the
// library's `Forms/client_LocationBasedDefaults.html`, an XML document of
//   <MetadataDefaults><a href="/sites/dev/Docs/Folder"><DefaultValue FieldName="Dept">HR</DefaultValue></a>…</MetadataDefaults>
// SharePoint's LocationBasedMetadataDefaultsReceiver gives a new file the default of the
// nearest folder entry (its own folder, else the one above, up to the library's root) for each
// column it has no value for. The file is whatever a client wrote: what cannot be read in it is
// passed over, never an error (a broken file must not stop uploads).

import { decodeUrlText, segments } from './documents.ts';
import { FormValueError, readFormValue } from './form-values.ts';
import type { Field, StoredValue } from './model.ts';
import { toStoredValue, ValueError } from './values.ts';

/** Where SharePoint keeps the defaults: this name in the library's Forms folder. */
export const LOCATION_DEFAULTS_FILE = 'client_LocationBasedDefaults.html';

export interface FolderDefaults {
  /** The folder's server-relative URL, decoded. */
  path: string;
  /** Field internal name → the default as the file writes it. */
  values: Map<string, string>;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string): string => text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, name: string) => {
  if (name[0] !== '#') return XML_ENTITIES[name.toLowerCase()] ?? whole;
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
});

/** The folder entries the file holds, in its order; what does not read as one is left out. */
export function parseLocationDefaults(xml: string): FolderDefaults[] {
  const entries: FolderDefaults[] = [];
  for (const block of xml.matchAll(/<a\s[^>]*?href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi)) {
    const values = new Map<string, string>();
    for (const dv of block[2]!.matchAll(/<DefaultValue\s[^>]*?FieldName\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/DefaultValue\s*>/gi)) {
      values.set(unescapeXml(dv[1]!), unescapeXml(dv[2]!));
    }
    entries.push({ path: `/${segments(decodeUrlText(unescapeXml(block[1]!))).join('/')}`, values });
  }
  return entries;
}

/**
 * The defaults a new file in the folder at `folderUrl` (server-relative) takes: per field, the
 * value of the deepest entry at or above that folder. Field names are internal names, matched as
 * SharePoint matches them (exactly, then case-insensitively).
 */
export function defaultsForFolder(entries: FolderDefaults[], folderUrl: string, fields: Field[]): Record<string, StoredValue> {
  const folder = `/${segments(folderUrl).join('/')}`.toLowerCase();
  const applying = entries
    .filter((e) => { const p = e.path.toLowerCase(); return folder === p || folder.startsWith(p === '/' ? p : `${p}/`); })
    .sort((a, b) => b.path.length - a.path.length);
  const out: Record<string, StoredValue> = {};
  for (const entry of applying) {
    for (const [name, text] of entry.values) {
      const field = fields.find((f) => f.internalName === name) ?? fields.find((f) => f.internalName.toLowerCase() === name.toLowerCase());
      if (!field || field.readOnly || field.internalName in out) continue;
      const value = defaultValue(field, text);
      if (value !== undefined) out[field.internalName] = value;
    }
  }
  return out;
}

/** A default's text as the field's stored value; undefined when it has none or cannot be read (passed over). */
function defaultValue(field: Field, text: string): StoredValue | undefined {
  if (text.trim() === '') return undefined;
  try {
    switch (field.kind) {
      // PnPjs joins choices with ';', SharePoint's own settings page with ';#' (and wraps them in it).
      case 'MultiChoice': return toStoredValue(field, (text.includes(';#') ? text.split(';#') : text.split(';')).filter((c) => c !== ''));
      // `id;#login` pairs (or bare ids): the ids; a person named only by login (`-1;#…`) is not resolved.
      case 'User': case 'UserMulti': case 'Lookup': case 'LookupMulti': {
        const ids = text.split(';#').filter((_, i) => i % 2 === 0).map((t) => t.trim()).filter((t) => /^\d+$/.test(t) && t !== '0').map(Number);
        if (ids.length === 0) return undefined;
        return toStoredValue(field, field.kind === 'User' || field.kind === 'Lookup' ? ids[0] : ids);
      }
      default: {
        const read = readFormValue(field, text);
        return read.kind === 'value' ? toStoredValue(field, read.raw) : undefined;
      }
    }
  } catch (e) {
    if (e instanceof ValueError || e instanceof FormValueError) return undefined;
    throw e;
  }
}
