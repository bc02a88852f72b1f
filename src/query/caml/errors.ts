// What can be wrong with CAML a client sent, in no protocol's terms: a front maps each reason
// to its own answer (SharePoint REST: the SPException a malformed or unusable query gets).

export type CamlErrorReason =
  /** Not well-formed XML, or not a `<View>`. */
  | 'malformed'
  /** Well-formed, but not a query SharePoint can run (an `<And>` with one operand, a comparison without its value). */
  | 'invalidQuery'
  /** A value its declared type cannot hold (`<Value Type="Number">abc</Value>`). */
  | 'invalidValue'
  /** A CAML element spemu does not run yet (Membership, DateRangesOverlap, Includes). */
  | 'unsupported'
  /** Nested beyond what spemu compiles. */
  | 'tooComplex';

export class CamlError extends Error {
  constructor(readonly reason: CamlErrorReason, detail: string) {
    super(detail);
    this.name = 'CamlError';
  }
}
