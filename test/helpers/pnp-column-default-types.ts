// Type-level only, as pnp-types.ts: @pnp/sp 4.x's column-defaults augments
// `declare module "../folders/types"` and `"../lists/types"`, which nodenext resolution drops.
// This restates them against specifiers that resolve. The feature itself loads by
// `import '@pnp/sp/column-defaults/index.js'`.

import type { IFieldDefault, IFieldDefaultProps } from '@pnp/sp/column-defaults/types.js';

declare module '@pnp/sp/folders/types.js' {
  interface IFolder {
    getDefaultColumnValues(): Promise<IFieldDefault[]>;
    setDefaultColumnValues(defaults: IFieldDefaultProps[], merge?: boolean): Promise<void>;
    clearDefaultColumnValues(): Promise<void>;
  }
}

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    getDefaultColumnValues(): Promise<IFieldDefault[]>;
    setDefaultColumnValues(defaults: IFieldDefault[]): Promise<void>;
  }
}

export {};
