// The WebSocket stage's management API on a loopback port, in a process of its own (a load test
// must not queue the functions' posts behind its own work): POST /<stage>/@connections/{id}
// records each pushed commit's seq and arrival time; DELETE (a dropped client) is counted.
// The parent asks for the records over IPC: { report: true } → { connections, drops, posts }.
import { createServer } from 'node:http';

const received = new Map();
let drops = 0;
let posts = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const connectionId = decodeURIComponent(String(req.url).split('/').pop() ?? '');
    if (req.method === 'DELETE') {
      drops++;
      return res.writeHead(204).end();
    }
    posts++;
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.type === 'commit' && message.commit) {
      let seqs = received.get(connectionId);
      if (!seqs) received.set(connectionId, (seqs = []));
      seqs.push([message.commit.seq, at]);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m.report) process.send({ report: { connections: [...received], drops, posts } });
  if (m.count) process.send({ count: posts });
});
