// Errors of the ProjectData feed. It is a WCF Data Service, not SharePoint's `_api`: its
// error bodies carry an empty code and WCF DS's own messages (`Resource not found for the
// segment 'X'.`), in the format the client asked for (verbose, light or XML).

export class PdError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'PdError';
    this.status = status;
    this.headers = headers;
  }

  static badRequest(message: string): PdError {
    return new PdError(400, message);
  }

  /** WCF DS's 404 for a set, key, property or navigation that does not exist. */
  static notFound(segment: string): PdError {
    return new PdError(404, `Resource not found for the segment '${segment}'.`);
  }

  /** The feed is read-only: writes name the methods that are allowed. */
  static readOnly(method: string): PdError {
    return new PdError(405, `The ProjectData service is read-only: the method '${method}' is not allowed. Project's reporting data changes only through publishing in Project.`,
      { Allow: 'GET' });
  }

  static forbidden(): PdError {
    return new PdError(403, 'Access denied. You do not have permission to perform this action or access this resource.');
  }

  static unsupportedMediaType(): PdError {
    return new PdError(415, 'Unsupported media type requested.');
  }

  static notImplemented(what: string): PdError {
    return new PdError(501, `The query option '${what}' is not implemented by spemu's ProjectData feed.`);
  }
}
