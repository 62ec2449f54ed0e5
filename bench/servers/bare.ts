// Child process for the reference bench's yardstick: bare node:http answering a fixed JSON body after reading the
// request, the most any HTTP service in Node can do on this machine.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportReady } from '../lib/child';

const answer = Buffer.from(
  '{"model":"model-1.14.0","answers":{},"usage":{"input_tokens":0,"output_tokens":0}}',
);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.byteLength });
    res.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
reportReady(
  `http://127.0.0.1:${port}`,
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
