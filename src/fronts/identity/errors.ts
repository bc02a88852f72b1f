// Entra ID's error answers from its token endpoint: an OAuth error code, an AADSTS code with
// Entra's text in error_description (followed by the trace and correlation ids and a timestamp,
// as Entra writes it), error_codes, timestamp, trace_id, correlation_id and error_uri.

import { randomUUID } from 'node:crypto';

export class EntraError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly code: number,
    readonly description: string,
  ) {
    super(`AADSTS${code}: ${description}`);
    this.name = 'EntraError';
  }
}

const e = (status: number, error: string, code: number, description: string) => new EntraError(status, error, code, description);

/** The errors spemu's identity endpoints answer, with Entra's codes and texts. */
export const entraErrors = {
  missingParameter: (name: string) => e(400, 'invalid_request', 900144, `The request body must contain the following parameter: '${name}'.`),
  tenantNotFound: (tenant: string) =>
    e(400, 'invalid_tenant', 90002, `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`),
  unsupportedGrantType: (grant: string) => e(400, 'unsupported_grant_type', 70003, `The app requested an unsupported grant type '${grant}'.`),
  unknownApp: (clientId: string, tenantName: string) =>
    e(400, 'unauthorized_client', 700016, `Application with identifier '${clientId}' was not found in the directory '${tenantName}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`),
  invalidSecret: (clientId: string) =>
    e(401, 'invalid_client', 7000215, `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`),
  credentialRequired: () => e(401, 'invalid_client', 7000218, "The request body must contain the following parameter: 'client_assertion' or 'client_secret'."),
  clientMismatch: () => e(401, 'invalid_client', 700021, "Client assertion application identifier doesn't match 'client_id' parameter."),
  assertionType: () => e(400, 'invalid_request', 700024, "The client_assertion_type must be 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'."),
  assertionLifetime: () => e(401, 'invalid_client', 700024, 'Client assertion is not within its valid time range.'),
  assertionSignature: () => e(401, 'invalid_client', 700027, 'Client assertion failed signature validation.'),
  assertionCertificate: (clientId: string) =>
    e(401, 'invalid_client', 700027, `The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Please visit the Azure Portal, Graph Explorer or directly use MS Graph to see configured keys for app Id '${clientId}'.]`),
  assertionExpiredCertificate: () => e(401, 'invalid_client', 700027, 'Client assertion contains an invalid signature. [Reason - The key used is expired.]'),
  assertionAudience: () => e(401, 'invalid_client', 700212, 'No matching federated identity record found for presented assertion audience.'),
  assertionMalformed: () => e(401, 'invalid_client', 50027, 'JWT token is invalid or malformed.'),
  badCredentials: () => e(400, 'invalid_grant', 50126, 'Error validating credentials due to invalid username or password.'),
  invalidScope: (scope: string) => e(400, 'invalid_scope', 70011, `The provided value for the input parameter 'scope' is not valid. The scope ${scope} is not valid.`),
  clientCredentialsScope: (scope: string) =>
    e(400, 'invalid_scope', 1002012, `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`),
  unknownResource: (resource: string, tenantName: string) =>
    e(400, 'invalid_resource', 500011, `The resource principal named ${resource} was not found in the tenant named ${tenantName}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`),
  malformedRefreshToken: () => e(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.'),
  expiredRefreshToken: () => e(400, 'invalid_grant', 700082, 'The refresh token has expired due to inactivity. The token was issued on a date and was inactive for a time.'),
  revokedRefreshToken: () =>
    e(400, 'invalid_grant', 50173, 'The provided grant has expired due to it being revoked, a fresh auth token is needed. The user might have changed or reset their password.'),
  refreshTokenClient: () => e(400, 'invalid_grant', 70000, 'Provided grant is invalid or malformed.'),
  publicClientSecret: () => e(401, 'invalid_client', 700025, "Client is public so neither 'client_assertion' nor 'client_secret' should be presented."),
};

/** `2026-11-27 20:30:00Z`, Entra's timestamp form. */
const entraTimestamp = (now: Date) => `${now.toISOString().slice(0, 19).replace('T', ' ')}Z`;

/** The JSON body Entra answers with. */
export function entraErrorBody(err: EntraError, origin: string, now: Date, correlationId: string = randomUUID()): Record<string, unknown> {
  const traceId = randomUUID();
  const timestamp = entraTimestamp(now);
  return {
    error: err.error,
    error_description: `AADSTS${err.code}: ${err.description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [err.code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `${origin}/error?code=${err.code}`,
  };
}
