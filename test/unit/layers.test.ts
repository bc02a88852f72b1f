// The layer rules hold for spemu's own source, and the checker does catch what it must.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { migrationViolations, SPEMU_RULES, specifiersOf, violations } from '../helpers/layers.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url)).replace(/\/$/, '');

/** A throw-away source tree: `{ 'domain/a.ts': "import … from '../store/b.ts'" }`. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-layers-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('layer rules', () => {
  it("spemu's source keeps them: no cycle between folders, no forbidden direction, no HTTP or database package in the inner layers", () => {
    assert.deepEqual(violations(SRC, SPEMU_RULES), []);
  });

  it('migrations import only kysely and each other, never run-time code', () => {
    assert.deepEqual(migrationViolations(SRC), []);
    const root = tree({
      'store/sql/item-table.ts': 'export const t = 1;\n',
      'store/sql/migrations/frozen.ts': 'export const f = 1;\n',
      'store/sql/migrations/0007-x.ts': "import { sql } from 'kysely';\nimport { f } from './frozen.ts';\nimport { t } from '../item-table.ts';\nimport { z } from 'zod';\n",
    });
    assert.deepEqual(migrationViolations(root).sort(), [
      'a migration may not import run-time code: store/sql/migrations/0007-x.ts → store/sql/item-table.ts',
      'a migration may only use kysely: store/sql/migrations/0007-x.ts uses zod',
    ]);
  });

  it('a cycle between two folders fails the check', () => {
    const root = tree({
      'services/a.ts': "import { b } from '../tenant/b.ts';\nexport const a = b;\n",
      'tenant/b.ts': "import type { a } from '../services/a.ts';\nexport const b = 1;\n",
    });
    const found = violations(root, SPEMU_RULES);
    assert.ok(found.includes('cycle between layers: services → tenant → services'), found.join('\n'));
    assert.ok(found.some((v) => v.startsWith('services may not import tenant')), found.join('\n'));
  });

  it('forbidden directions fail: the store throwing protocol errors, a front importing another, the domain using HTTP', () => {
    const root = tree({
      'store/sql.ts': "import { errors } from '../wire/errors.ts';\n",
      'wire/errors.ts': 'export const errors = {};\n',
      'fronts/projectdata/http.ts': "import { handleApi } from '../rest/pipeline.ts';\n",
      'fronts/rest/pipeline.ts': 'export const handleApi = 1;\n',
      'domain/model.ts': "import type { FastifyRequest } from 'fastify';\n",
      'odata/path.ts': "import { Web } from '../domain/model.ts';\n",
    });
    const found = violations(root, SPEMU_RULES);
    assert.ok(found.some((v) => v.startsWith('store may not import wire')), found.join('\n'));
    assert.ok(found.some((v) => v.startsWith('fronts/projectdata may not import fronts/rest')), found.join('\n'));
    assert.ok(found.some((v) => v.startsWith('domain may not use the package fastify')), found.join('\n'));
    assert.ok(found.some((v) => v.startsWith('odata may not import domain')), found.join('\n'));
    assert.equal(found.length, 4, found.join('\n'));
  });

  it('reads every import form: type-only, re-exports, multi-line lists and dynamic import()', () => {
    const text = [
      "import type { A } from './a.ts';",
      "export { B } from './b.ts';",
      'import {\n  C,\n  D,\n} from "./c.ts";',
      "import './side-effect.ts';",
      "const e = await import('./e.ts');",
      "export * from './f.ts';",
    ].join('\n');
    assert.deepEqual(specifiersOf(text).sort(), ['./a.ts', './b.ts', './c.ts', './e.ts', './f.ts', './side-effect.ts']);
  });
});
