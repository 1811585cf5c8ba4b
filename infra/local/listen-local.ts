import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts a local stand-in server on 127.0.0.1 (`port` 0 picks a free one) and answers its base URL and a
 * stop that also closes kept-alive connections (else a client's idle socket holds the process open).
 * Shared by the fake providers of the local cloud.
 */
export const listenLocal = async (server: Server, port: number): Promise<LocalServer> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
