// A small XML well-formedness checker for tests (no dependency): elements nest and close, attributes
// are quoted and unique, `&` starts a known reference, `<` never appears in text or values, and
// every prefix is declared. It returns the element tree so tests can ask about structure.

export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const fail = (what: string): never => { throw new Error(`${what} at ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`); };
  const NAME = /[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/y;
  const name = (): string => { NAME.lastIndex = i; const m = NAME.exec(xml); if (!m) fail('name expected'); i += m![0].length; return m![0]; };
  const space = () => { while (/\s/.test(xml[i] ?? '')) i++; };
  const chars = (text: string): string => {
    if (text.includes('<')) fail('< in text');
    return text.replace(/&([^;]*);|&/g, (all, ref: string | undefined) => {
      if (ref === undefined) return fail('bare &');
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (ref in named) return named[ref]!;
      const code = /^#x([0-9a-f]+)$/i.exec(ref) ? parseInt(ref.slice(2), 16) : /^#\d+$/.test(ref) ? Number(ref.slice(1)) : fail(`unknown entity &${ref};`);
      return String.fromCodePoint(code);
    });
  };
  const element = (scope: Set<string>): XmlElement => {
    if (xml[i] !== '<') fail('< expected');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      space();
      if (xml.startsWith('/>', i) || xml[i] === '>') break;
      const attr = name();
      if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
      space(); if (xml[i++] !== '=') fail('= expected'); space();
      const quote = xml[i++];
      if (quote !== '"' && quote !== "'") fail('quote expected');
      const end = xml.indexOf(quote!, i);
      if (end < 0) fail('unterminated value');
      el.attrs[attr] = chars(xml.slice(i, end));
      i = end + 1;
    }
    const inner = new Set(scope);
    for (const a of Object.keys(el.attrs)) if (a.startsWith('xmlns:')) inner.add(a.slice(6));
    for (const n of [el.name, ...Object.keys(el.attrs)]) {
      const prefix = n.includes(':') ? n.slice(0, n.indexOf(':')) : undefined;
      if (prefix && prefix !== 'xmlns' && !inner.has(prefix)) fail(`undeclared prefix ${prefix}`);
    }
    if (xml.startsWith('/>', i)) { i += 2; return el; }
    i++;
    for (;;) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) fail(`unclosed <${el.name}>`);
      el.text += chars(xml.slice(i, lt));
      i = lt;
      if (xml.startsWith('</', i)) {
        i += 2;
        if (name() !== el.name) fail(`mismatched end of <${el.name}>`);
        space(); if (xml[i++] !== '>') fail('> expected');
        return el;
      }
      el.children.push(element(inner));
    }
  };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  space();
  const root = element(new Set(['xml']));
  space();
  if (i !== xml.length) fail('content after the root');
  return root;
}

export const all = (el: XmlElement, name: string): XmlElement[] =>
  [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];
