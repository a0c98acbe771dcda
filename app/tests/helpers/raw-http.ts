// Requests sent over a real socket with the path exactly as written, like `curl --path-as-is`.
// `app.inject` cannot do this: light-my-request parses the URL with WHATWG `new URL`, which removes
// `/./` and `/../` segments (also spelled `%2E`) and turns `\` into `/` before the router sees them.
import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
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

/**
 * Writes `bytes` as they are on a new connection (a malformed request line, oversized headers: what no
 * HTTP client library lets one send) and resolves with the answer once the server closes the connection.
 * Send `Connection: close` in a well-formed request, or the server keeps the connection open.
 */
export function rawExchange(port: number, bytes: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close as soon as it has answered, while this side is still writing.
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`réponse incomplète : ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
    socket.write(bytes);
  });
}
