/**
 * The gateway's yardstick: the barest proxy Node can be (its http server and an undici pool, as the gateway uses),
 * forwarding every request to UPSTREAM_URL and sending the answer back whole, with nothing else done. What the
 * gateway costs beyond the hop itself is its rate beside this one's, measured in the same rounds.
 */
import { createServer } from 'node:http';
import { Pool, type Dispatcher } from 'undici';

const pool = new Pool(process.env.UPSTREAM_URL!, { connections: 256 });
createServer(async (req, res) => {
  try {
    const answer = await pool.request({ path: req.url!, method: req.method as Dispatcher.HttpMethod });
    const body = Buffer.from(await answer.body.arrayBuffer());
    const type = String(answer.headers['content-type'] ?? 'application/octet-stream');
    res.writeHead(answer.statusCode, { 'content-type': type, 'content-length': body.length }).end(body);
  } catch {
    res.writeHead(502).end();
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
