import http from 'node:http';
import https from 'node:https';
import * as acme from 'acme-client';
import {
  type CheckedAddress,
  pinnedLookup,
  type TargetGuard,
  TargetRefusedError,
} from '../../platform/http/target-guard.js';

/**
 * acme-client's requests through the target guard (platform/http/target-guard.ts). Every request
 * of a client (the directory, then every URL the CA hands back: nonce, account, new-order,
 * authorizations, challenges, finalize, certificate) goes through its HttpClient's `request`; the
 * client made here wraps that method so each request's host is resolved and checked first and the
 * socket pinned to the checked addresses (agents with that `lookup`), with no proxy from the
 * environment and no redirect followed. acme-client sends through one shared axios instance: an
 * interceptor installed once refuses any request that did not pass this wrap (a path of the library
 * this file does not know of fails closed instead of connecting unchecked).
 */

type AcmeRequest = (url: string, method: string, opts?: Record<string, unknown>) => Promise<unknown>;
const MARK = 'rampartTargetChecked';

let failClosed = false;
function installFailClosed(): void {
  if (failClosed) return;
  acme.axios.interceptors.request.use((config) => {
    if ((config as unknown as Record<string, unknown>)[MARK] !== true) {
      throw new Error('an ACME request outside the target guard was refused');
    }
    return config;
  });
  failClosed = true;
}

/** A client whose every request passes `targets`; `caBundle` (PEM, '' for none) is trusted for the directory's origin only. */
export function guardedAcmeClient(options: acme.ClientOptions, targets: TargetGuard, caBundle: string): acme.Client {
  installFailClosed();
  const client = new acme.Client(options);
  const directoryOrigin = new URL(options.directoryUrl).origin;
  const inner = (client as unknown as { http: { request: AcmeRequest } }).http;
  const request = inner.request.bind(inner);
  inner.request = async (url, method, opts = {}) => {
    const target = new URL(url);
    let addresses: CheckedAddress[];
    try {
      addresses = await targets.addresses(target.hostname);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new Error(`${target.host}: ${error.message}`);
      throw error;
    }
    const lookup = pinnedLookup(addresses);
    const ca = caBundle !== '' && target.origin === directoryOrigin ? { ca: caBundle } : {};
    return request(url, method, {
      ...opts,
      [MARK]: true,
      proxy: false,
      maxRedirects: 0,
      httpAgent: new http.Agent({ lookup }),
      httpsAgent: new https.Agent({ lookup, ...ca }),
    });
  };
  return client;
}
