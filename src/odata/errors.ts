// Errors raised by the OData layer. They say what is wrong with the text a client sent
// and nothing about SharePoint: the HTTP layer maps them onto SharePoint's error bodies.

/** A query option or path that does not follow the grammar. */
export class ODataSyntaxError extends Error {
  /** The whole text of the option (or path) that failed, as the client sent it after URL decoding. */
  readonly expression: string;
  /** Zero-based offset in `expression` where parsing stopped, for diagnostics only. */
  readonly position: number;

  constructor(expression: string, position: number, detail: string) {
    super(`${detail} at position ${position} in "${expression}"`);
    this.name = 'ODataSyntaxError';
    this.expression = expression;
    this.position = position;
  }
}
