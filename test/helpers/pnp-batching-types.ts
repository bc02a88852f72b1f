// Type-level only, as pnp-types.ts: @pnp/sp 4.x's batching augments `declare module "./fi"` and
// `"./webs/types"`, which nodenext resolution drops. This restates `batched()` against
// specifiers that resolve. The feature itself loads by `import '@pnp/sp/batching.js'`.

import type { IWeb } from '@pnp/sp/webs/types.js';
import type { SPFI } from '@pnp/sp/fi.js';

interface BatchProps {
  headersCopyPattern?: RegExp;
  maxRequests?: number;
}

declare module '@pnp/sp/fi.js' {
  interface SPFI {
    batched(props?: BatchProps): [SPFI, () => Promise<void>];
  }
}

declare module '@pnp/sp/webs/types.js' {
  interface _Web {
    batched(props?: BatchProps): [IWeb, () => Promise<void>];
  }
}

export type { SPFI };
