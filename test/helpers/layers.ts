// The import rules of spemu's layers (docs/architecture.md), checked by reading every
// import of every source file: which folder may import which, no cycles between folders,
// and which packages the inner layers may not touch. `npm test` runs it (test/unit/layers.test.ts).

import fs from 'node:fs';
import path from 'node:path';

/** A layer: a top-level folder of src/, or one front (`fronts/rest`); files at the top are the entry points. */
export type Layer = string;

export interface LayerRules {
  /** Layer → the layers it may import. A layer not listed may import nothing. `*` allows everything. */
  allowed: Record<Layer, Layer[] | '*'>;
  /** Layer → packages (bare specifiers, prefix match) it may not import. */
  forbiddenPackages: Record<Layer, string[]>;
}

const ALL_FRONT_FOUNDATIONS = ['pipeline', 'services', 'identity', 'store', 'domain', 'odata', 'query', 'wire'];
const HTTP = ['fastify', 'node:http', 'node:https', 'node:net'];
const DATABASES = ['kysely', 'pg', 'better-sqlite3'];

/** spemu's rules, innermost first. Each front may use the foundations, never another front. */
export const SPEMU_RULES: LayerRules = {
  allowed: {
    query: [],
    odata: ['query'],
    domain: ['query'],
    store: ['domain', 'query'],
    identity: ['domain', 'store'],
    services: ['domain', 'store', 'identity', 'query'],
    tenant: ['domain', 'store', 'identity', 'services'],
    wire: ['domain'],
    pipeline: ['domain', 'store', 'identity', 'services', 'wire'],
    'fronts/*': ALL_FRONT_FOUNDATIONS,
    server: ['fronts/*', 'pipeline', 'wire', 'domain'],
    cli: ['(entry)', 'domain', 'store', 'identity', 'services', 'tenant'],
    '(entry)': '*',
  },
  forbiddenPackages: {
    query: [...HTTP, ...DATABASES],
    odata: [...HTTP, ...DATABASES],
    domain: [...HTTP, ...DATABASES],
    services: [...HTTP],
    store: [...HTTP],
    identity: [...HTTP],
    tenant: [...HTTP],
  },
};

export interface ImportEdge { from: string; to: string; fromLayer: Layer; toLayer: Layer }

export function layerOf(root: string, file: string): Layer {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1) return '(entry)';
  if (parts[0] === 'fronts' && parts.length > 2) return `fronts/${parts[1]}`;
  return parts[0]!;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|mts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Import and re-export specifiers of a file, static and dynamic, type-only ones included. */
export function specifiersOf(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /(?:^|[;\n])\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) out.push(m[1]!);
  return out;
}

export interface Analysis {
  edges: ImportEdge[];
  packages: Array<{ from: string; layer: Layer; specifier: string }>;
}

export function analyse(root: string): Analysis {
  const edges: ImportEdge[] = [];
  const packages: Analysis['packages'] = [];
  for (const file of sourceFiles(root)) {
    const fromLayer = layerOf(root, file);
    for (const specifier of specifiersOf(fs.readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (!target.startsWith(root + path.sep)) continue; // package.json, schema files: outside the layers
        edges.push({ from: path.relative(root, file), to: path.relative(root, target), fromLayer, toLayer: layerOf(root, target) });
      } else {
        packages.push({ from: path.relative(root, file), layer: fromLayer, specifier });
      }
    }
  }
  return { edges, packages };
}

const ruleKey = (layer: Layer) => (layer.startsWith('fronts/') ? 'fronts/*' : layer);

/** Every broken rule, one line each (empty: the layers hold). */
export function violations(root: string, rules: LayerRules): string[] {
  const { edges, packages } = analyse(root);
  const out: string[] = [];
  const between = edges.filter((e) => e.fromLayer !== e.toLayer);
  for (const e of between) {
    const allowed = rules.allowed[ruleKey(e.fromLayer)];
    if (allowed === '*') continue;
    const ok = allowed !== undefined && (allowed.includes(e.toLayer) || (e.toLayer.startsWith('fronts/') && allowed.includes('fronts/*') && !e.fromLayer.startsWith('fronts/')));
    if (!ok) out.push(`${e.fromLayer} may not import ${e.toLayer}: ${e.from} → ${e.to}`);
  }
  for (const p of packages) {
    const banned = rules.forbiddenPackages[ruleKey(p.layer)] ?? [];
    if (banned.some((b) => p.specifier === b || p.specifier.startsWith(`${b}/`))) out.push(`${p.layer} may not use the package ${p.specifier}: ${p.from}`);
  }
  for (const cycle of layerCycles(between)) out.push(`cycle between layers: ${cycle.join(' → ')}`);
  return out;
}

/** Cycles in the layer graph (each reported once, from its smallest layer name). */
export function layerCycles(edges: ImportEdge[]): Layer[][] {
  const graph = new Map<Layer, Set<Layer>>();
  for (const e of edges) {
    if (!graph.has(e.fromLayer)) graph.set(e.fromLayer, new Set());
    graph.get(e.fromLayer)!.add(e.toLayer);
  }
  const cycles = new Map<string, Layer[]>();
  const walk = (start: Layer, at: Layer, trail: Layer[]) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) {
        const cycle = [...trail, start];
        const body = cycle.slice(0, -1);
        const min = body.reduce((a, b) => (a < b ? a : b));
        if (min === start) cycles.set(cycle.join('>'), cycle);
      } else if (!trail.includes(next) && next > start) {
        walk(start, next, [...trail, next]);
      }
    }
  };
  for (const layer of graph.keys()) walk(layer, layer, [layer]);
  return [...cycles.values()];
}

/** Where schema migrations live: they must do the same thing forever, so they import only kysely and each other. */
export const MIGRATIONS_DIR = path.join('store', 'sql', 'migrations');

/** Imports of migration files that reach run-time code or another package (empty: they are frozen). */
export function migrationViolations(root: string, dir = MIGRATIONS_DIR): string[] {
  const { edges, packages } = analyse(root);
  const inside = (file: string) => file.startsWith(dir + path.sep);
  return [
    ...edges.filter((e) => inside(e.from) && !inside(e.to)).map((e) => `a migration may not import run-time code: ${e.from} → ${e.to}`),
    ...packages.filter((p) => inside(p.from) && p.specifier !== 'kysely').map((p) => `a migration may only use kysely: ${p.from} uses ${p.specifier}`),
  ];
}
