// Helpers for code that consumes spemu (or SharePoint and Project Online themselves), with no
// server code attached: `import { parseProjectDate } from 'spemu/client'`.

export { parseProjectDate } from './domain/projectdata/values.ts';
