// Requests sent over a real socket with the path exactly as written, like `curl --path-as-is`.
// `app.inject` cannot do this: light-my-request parses the URL with WHATWG `new URL`, which removes
// `/./` and `/../` segments (also spelled `%2E`) and turns `\` into `/` before the router sees them.
import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawClient {
  /** Sends `path` byte for byte as the request target. */
  send(method: string, path: string, headers?: OutgoingHttpHeaders, body?: string): Promise<RawResponse>;
  /** Request targets as the server's socket received them, in order (to prove nothing rewrote them). */
  readonly received: string[];
  close(): void;
}

/** Listens on an ephemeral loopback port and returns a keep-alive client for raw paths. */
export async function rawClient(app: FastifyInstance): Promise<RawClient> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const received: string[] = [];
  app.server.on('request', (req: { url?: string }) => received.push(req.url ?? ''));
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  return {
    received,
    send(method, path, headers = {}, body) {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            agent,
            headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
