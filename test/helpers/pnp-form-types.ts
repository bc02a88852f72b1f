// Type-level only, as pnp-types.ts: @pnp/sp's forms feature augments `../lists/types` (an
// extensionless path nodenext cannot resolve), so `list.forms` is restated here.

import type { IForms } from '@pnp/sp/forms/types.js';

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    readonly forms: IForms;
  }
}
