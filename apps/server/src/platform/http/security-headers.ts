import { API_BASE } from '@rampart/contract';
import type { FastifyInstance } from 'fastify';

/** The policy of a page served from this origin; the two pages differ only in where images may come from. */
function pagePolicy(imgSrc: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${imgSrc}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The console's policy: scripts from this origin only (the build has no inline script), no
 * plugins, no framing, no base or form target elsewhere. Styles allow 'unsafe-inline' and nothing
 * else does: antd injects its CSS-in-JS as <style> elements at run time and components set style
 * attributes, which a nonce cannot cover (see docs/decisions.md). Images may be data: URLs (the
 * authenticator QR code) or blob: URLs (previews of uploaded logos).
 */
export const CONSOLE_CSP = pagePolicy("'self' data: blob:");

/**
 * The API documentation page (swagger-ui, served from this origin so it works offline): its own
 * scripts only; swagger-ui styles elements inline and draws icons as data: images.
 */
export const DOCS_CSP = pagePolicy("'self' data:");

/** JSON and files of the API: nothing in them may load or run anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Browser features the consoles never use, turned off for them and anything they might embed. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

/** The policy for a request path: the docs page, the API, or the console (everything else). */
export function contentSecurityPolicy(url: string): string {
  const path = url.split('?')[0] ?? '';
  if (path === `${API_BASE}/docs` || path.startsWith(`${API_BASE}/docs/`)) return DOCS_CSP;
  if (path.startsWith('/api/')) return API_CSP;
  return CONSOLE_CSP;
}

/**
 * Security headers on every reply (errors, static files and the console's history fallback
 * included). HSTS is left to the TLS proxy in front: this server speaks plain HTTP on loopback.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('content-security-policy', contentSecurityPolicy(request.url));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
  });
}
